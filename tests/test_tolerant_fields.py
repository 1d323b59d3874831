"""The compiled field check (issue 18) says yes exactly where the field-by-field check finds
nothing, for the specs the transcript converters use and for any value in any field."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.formats import claude_code
from inspector.domain.formats.tolerant import TIME_TYPE, field_problem, fields_ok

SPECS: list[dict[str, Any]] = [
    claude_code._RECORD, claude_code._BLOCK,
    {"n": int, "b": bool, "nb": (int, bool), "f": (int, float), "t": TIME_TYPE, "d": dict, "l": list,
     "deep": {"inner": {"x": str}, "y": (str, list)}},
]
scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
           | st.sampled_from(["2025-05-01T00:00:00Z", "2025-05-01T00:00:00.5+02:00", "2025-05-01", "yesterday"]))
values = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(
    st.sampled_from(["x", "y", "inner", "compactedToolIds", "content", "a"]), c, max_size=3), max_leaves=8)
names = sorted({n for spec in SPECS for n in spec} | {"other"})


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(st.sampled_from(names), values, max_size=6), st.sampled_from(range(len(SPECS))))
def test_the_compiled_check_agrees_with_the_sentence_builder(obj: dict[str, Any], which: int) -> None:
    spec = SPECS[which]
    assert fields_ok(spec)(obj) == (field_problem(obj, spec) is None)


def test_a_wrong_type_is_still_named_in_a_sentence() -> None:
    rec = {"type": "user", "sessionId": "s", "timestamp": "2025-05-01T00:00:00Z", "message": {"content": 5}}
    assert claude_code._record_problem(rec) == "field message.content is a number, expected text or a list"
    rec["message"] = {"content": [{"type": "text", "text": True}]}
    assert claude_code._record_problem(rec) == "field message.content[0].text is true or false, expected text"
    rec["message"] = {"content": [{"type": "text", "text": "fine"}, "a bare string is skipped"]}
    assert claude_code._record_problem(rec) is None
