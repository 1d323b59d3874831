"""The searchable text of a tool call's input (inspector/domain/call_input.py)."""

from __future__ import annotations

import json

from inspector.domain.call_input import call_input_of_extra, call_input_text, matched_label


def test_bash_command_and_description_are_values_not_keys() -> None:
    text = call_input_text({"command": "mise run test", "description": "Run the tests"})
    assert text == "mise run test\nRun the tests"
    assert "command" not in text


def test_edit_path_and_strings_in_stored_order() -> None:
    args = {"file_path": "src/auth.py", "new_string": "timeout: 45m", "old_string": "timeout: 20m"}
    assert call_input_text(args) == "src/auth.py\ntimeout: 45m\ntimeout: 20m"


def test_nested_lists_numbers_kept_flags_and_nulls_left_out() -> None:
    args = {"edits": [{"old_string": "a1", "new_string": "b2", "replace_all": True}], "limit": 120, "x": None,
            "ratio": 0.5}
    assert call_input_text(args) == "a1\nb2\n120\n0.5"


def test_no_input_is_none() -> None:
    assert call_input_text(None) is None
    assert call_input_text({}) is None
    assert call_input_text({"flag": True, "empty": ""}) is None


def test_unparsed_string_arguments_are_the_string() -> None:
    assert call_input_text('{"city": "Paris"') == '{"city": "Paris"'


def test_deep_nesting_is_bounded() -> None:
    deep: object = "bottom"
    for _ in range(200):
        deep = [deep]
    assert call_input_text(deep) is None
    assert call_input_text({"a": [["x"]]}) == "x"


def test_from_an_event_rows_extra() -> None:
    extra = json.dumps({"args": {"url": "https://example.org/x"}, "origin": {"line": 3}}, sort_keys=True)
    assert call_input_of_extra(extra) == "https://example.org/x"
    assert call_input_of_extra('{"origin":{"line":3}}') is None
    assert call_input_of_extra("{}") is None
    assert call_input_of_extra(None) is None
    assert call_input_of_extra('{"args": ') is None  # not JSON: left out, verify reports the row
    assert call_input_of_extra('["args"]') is None


def test_matched_label_names_the_tool() -> None:
    assert matched_label("Bash") == "call input of Bash"
    assert matched_label(None) == "call input"
