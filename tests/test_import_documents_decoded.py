"""A whole-document transcript (a saved message list, an Inspect AI log, a Gemini checkpoint) is
decoded once, by the fast decoder, with the guarded decoder's answers (lead-16-17 item 7).

Before, a pretty-printed document failed the fast decoder's proof (its re-encoding is compact, the
file is not) and the guarded decoder read it three times — the detection's first-records pass, the
detection's whole-file read, the converter's — 3–4× ``json.loads`` before any other work. Now the
proof takes the white space between tokens out of both texts (store/jsoncodec.py
``_same_but_blanks``), and the detection's whole-file read is kept for the converter
(services/long_lines.py ``DecodedOnce.looked_at``).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain import guarded_json
from inspector.domain.errors import InspectorError
from inspector.services import long_lines
from inspector.services.importing import import_file
from inspector.store import jsoncodec
from inspector.store.jsoncodec import fast_loads

values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def _answer(decode: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "value", decode(data)
    except guarded_json.JsonRefused as exc:
        return "refused", exc.code
    except (ValueError, UnicodeDecodeError) as exc:
        return "error", type(exc).__name__


def _blanks(text: str, rng: random.Random) -> str:
    """``text`` (JSON) with random JSON white space put between its tokens (outside strings)."""
    out, in_string, escaped = [], False, False
    for c in text:
        if not in_string and c in ",:[]{}" and rng.random() < 0.5:
            out.append(rng.choice([" ", "\n", "\t", "\r\n", "  ", "\n "]))
        out.append(c)
        if in_string:
            escaped, in_string = (False, in_string) if escaped else (c == "\\", c != '"')
        elif c == '"':
            in_string = True
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(values, st.integers(0, 2**32), st.booleans())
def test_a_document_laid_out_any_way_decodes_as_the_guarded_decoder_answers(value: Any, seed: int,
                                                                              duplicate: bool) -> None:
    text = json.dumps(value, ensure_ascii=seed % 2 == 0)  # odd seeds: the text as written, as orjson writes it
    if duplicate and text.startswith("{") and len(text) > 2:  # a key given twice: the guarded decoder refuses it
        first = json.dumps(next(iter(value)))
        text = "{" + first + ": 1, " + text[1:]
    data = _blanks(text, random.Random(seed)).encode("utf-8")
    asked: list[bytes] = []
    with mock.patch.object(jsoncodec, "guarded_loads", lambda raw: (asked.append(raw), guarded_json.loads(raw))[1]):
        assert _answer(fast_loads, data) == _answer(guarded_json.loads, data)
    # what orjson writes alike (no floats, no integer past 2^53, text as written): proved without the guarded decoder
    # on one line (a JSON line's shape), what orjson writes alike is proved without the guarded decoder;
    # a document of several lines goes to it directly (fast_loads: its one pass is the cheaper there)
    several_lines = data.find(b"\n", 0, len(data) - 2) >= 0  # a line break before a final CRLF
    if seed % 2 == 1 and not duplicate and _orjson_writes_alike(value) and not several_lines:
        assert not asked, data[:200]
    elif several_lines:
        assert asked == [data]


def _orjson_writes_alike(value: Any) -> bool:
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53):
        return False
    if isinstance(value, dict):
        return all(_orjson_writes_alike(v) for v in value.values())
    if isinstance(value, list):
        return all(_orjson_writes_alike(v) for v in value)
    return True


DOC = {"kind": "anthropic", "messages": [{"role": "user", "content": "a: b, c [d] {e}"},
                                         {"role": "assistant", "content": [{"type": "text", "text": "ok  "}]}]}


@pytest.mark.parametrize("dump", [json.dumps, lambda v: json.dumps(v, separators=(" ,\t", ":  "))],
                         ids=["json.dumps", "tabs and spaces"])
def test_a_document_on_one_line_is_proved_without_the_guarded_decoder(dump: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsoncodec, "guarded_loads", lambda data: pytest.fail("the guarded decoder was asked"))
    assert fast_loads(dump(DOC).encode()) == DOC


@pytest.mark.parametrize("dump", [lambda v: json.dumps(v, indent=1), lambda v: json.dumps(v, indent="\t").replace(
    "\n", "\r\n")], ids=["indent 1", "tabs and CRLF"])
def test_a_document_of_several_lines_goes_to_the_guarded_decoder_directly(dump: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """orjson's decode, re-encoding and blank-free comparison cost more there than the guarded pass."""
    monkeypatch.setattr(jsoncodec.orjson, "loads", lambda data: pytest.fail("orjson was asked"))
    assert fast_loads(dump(DOC).encode()) == DOC


@pytest.mark.parametrize("text, code, twin", [
    ('{\n "a": 1,\n "a": 2\n}', "duplicate_key", '{ "a": 1, "b": 2 }'),
    ('[\n {"type": "x", "k": 1, "k": 1}\n]', "duplicate_key", '[ {"type": "x", "k": 1, "K": 1} ]'),
    ('{\n "n": 9223372036854775808\n}', "integer_out_of_range", '{ "n": 9007199254740991 }'),
    ('{\n "s": "\\udc00"\n}', "lone_surrogate", '{\t"s": "\u00dc00"}'),
    ('{ "x": 1e400 }', "not_json_number", '{ "x": 1400 }'),
])
def test_a_pretty_printed_document_is_refused_as_before(text: str, code: str, twin: str) -> None:
    """Refused with the guarded decoder's code; its twin, taken, is proved by the fast path alone."""
    with pytest.raises(guarded_json.JsonRefused) as refused:
        fast_loads(text.encode())
    assert refused.value.code == code
    with mock.patch.object(jsoncodec, "guarded_loads", lambda raw: pytest.fail("the guarded decoder was asked")):
        assert fast_loads(twin.encode()) == json.loads(twin)
    # a raw control in a string is not JSON whatever orjson makes of it: its compact text escapes the
    # character, so no blank-free comparison finds the two equal, and the guarded decoder says why
    for raw in (b'{"a": "x\ty"}', b'{"a": "x\ny"}', b'{"a": "x\ry", "b": 1}'):
        assert _answer(fast_loads, raw) == _answer(guarded_json.loads, raw) == ("error", "JSONDecodeError")


def _message_list(path: Path) -> Path:
    messages = [{"role": "user", "content": "please look at the log " + "x" * 70_000},
                {"role": "assistant", "content": [{"type": "text", "text": "The log shows 500s."}]}]
    path.write_text(json.dumps({"kind": "anthropic", "messages": messages}, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("one_line", [False, True])
def test_an_imported_message_list_is_decoded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  one_line: bool) -> None:
    src = _message_list(tmp_path / "chat.conversation.json")
    if one_line:  # the whole document on its first line, read by the detection's first-records pass too
        src.write_text(json.dumps(json.loads(src.read_text())) + "\n", encoding="utf-8")
    reads: list[str] = []  # decodes of the whole document (the only text over 60,000 bytes)

    def counted(name: str, real: Any) -> Any:
        return lambda data: (reads.append(name) if len(data) > 60_000 else None, real(data))[1]

    monkeypatch.setattr(jsoncodec.orjson, "loads", counted("fast", jsoncodec.orjson.loads))
    monkeypatch.setattr(guarded_json, "loads", counted("guarded", guarded_json.loads))
    monkeypatch.setattr(jsoncodec, "guarded_loads", counted("guarded", jsoncodec.guarded_loads))
    asyncio.run(import_file(src, tmp_path / "s.db", actor="t"))
    assert reads == (["fast"] if one_line else ["guarded"])  # once, by the cheaper exact decoder for its shape
    # a key given twice: refused with the guarded decoder's sentence, nothing made
    src.write_text(src.read_text().replace('"role": "user"', '"role": "user", "role": "x"', 1), encoding="utf-8")
    with pytest.raises(InspectorError) as refused:
        asyncio.run(import_file(src, tmp_path / "t.db", actor="t"))
    assert getattr(refused.value, "code", None) == "duplicate_key" and "'role' appears twice" in str(refused.value)
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize("raw, key", [(b"abc", b"abc"), (b" \n{}\n", b"{}"), (b"\t[1]\r\n", b"[1]"),
                                      (b"\x0b{}", b"\x0b{}"), (b"   ", b""), (b"x" + b" " * 100, b"x")])
def test_a_value_is_kept_by_its_json_text_without_the_blanks_around_it(raw: bytes, key: bytes) -> None:
    assert bytes(long_lines._json_text(raw)) == key

