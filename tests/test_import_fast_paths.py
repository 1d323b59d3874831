"""The import's shortcuts (issue 18) answer exactly as the paths they skip, or step aside.

A converted record is no longer written as a sif/1 line and read back when the copy is
provably the same; a line's float test runs once per chunk; a long line's depth is measured
on its containers; format detection reads its first lines without copying the file; the
garbage collector is paused during an import and restored after.
"""

from __future__ import annotations

import gc
import json
import re
import uuid
from enum import Enum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.errors import BadInput
from inspector.domain.formats.detect import _head_lines
from inspector.domain.sif import parse_chunk
from inspector.services.gc_pause import collector_paused
from inspector.services.import_stream import parse_converted, parse_for_writer
from inspector.store.jsoncodec import (
    exact_as_is,
    exact_copy,
    exact_copy_float_free,
    fast_compact_bytes,
    fast_loads,
    lines_with_float_marks,
)

values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats() | st.text() | st.tuples(st.integers(0, 3)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=16,
)


def _written_and_read(value: Any) -> tuple[str, Any]:
    """What the import did before: write the record as a line, read the line back."""
    try:
        return "ok", fast_loads(fast_compact_bytes(value))
    except ValueError as refused:  # the guarded decoder's refusals are ValueErrors
        return "refused", type(refused).__name__


@settings(max_examples=500, deadline=None)
@given(values)
def test_exact_copy_is_the_written_and_read_record_or_steps_aside(value: Any) -> None:
    copy = exact_copy(value)
    if copy is None:
        return  # the import then writes and reads it, as before
    outcome, read = _written_and_read(value)
    assert outcome == "ok"
    assert json.dumps(copy) == json.dumps(read)  # same values, same key order
    assert repr(copy) == repr(read)  # same types (an int is not read back as a float, a tuple as a list)


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(st.text(max_size=6), values, max_size=4) | st.lists(values, max_size=4))
def test_a_record_taken_as_is_is_what_writing_and_reading_it_gives(value: Any) -> None:
    """The walk that replaced write, read and compare (issue 18) proves no more than they did:
    where it takes a value, the written-and-read record is equal, of the same types, in the
    same key order, and its float answer agrees."""
    found = exact_as_is(value)
    if found is None:
        return
    taken, free = found
    outcome, read = _written_and_read(value)
    assert outcome == "ok" and taken is value
    assert json.dumps(taken) == json.dumps(read) and repr(taken) == repr(read)
    old = exact_copy_float_free(value)
    assert old is not None and (free or not old[1])  # float-free only where the old test said so too


@pytest.mark.parametrize("value", [
    {"t": (1, 2)}, {"u": uuid.UUID(int=1)}, {"f": float("nan")}, {"f": float("inf")}, {"i": 2**60},
    {"s": "\ud800"}, {1: "key not text"}, {"e": Enum("E", "a").a},  # type: ignore[attr-defined]
    {"d": json.loads("[" * 200 + "]" * 200)}, {"\udc00": 1}, {"b": b"bytes"}, {"i": -(2**53)},
])
def test_what_the_walk_cannot_prove_takes_the_written_and_read_path(value: dict[str, Any]) -> None:
    assert exact_as_is(value) is None


def test_the_walk_reaches_the_guarded_depth_limit_exactly() -> None:
    assert exact_as_is(json.loads("[" * 200 + "]" * 200)) is not None
    assert exact_as_is(json.loads("[" * 201 + "]" * 201)) is None


@pytest.mark.parametrize("value", [
    {"t": (1, 2)}, {"u": uuid.UUID(int=1)}, {"f": float("nan")}, {"f": float("inf")}, {"i": 2**60},
    {"s": "\ud800"}, {1: "key not text"}, {"e": Enum("E", "a").a},  # type: ignore[attr-defined]
    {"d": json.loads("[" * 200 + "]" * 200)}, {"type": "material", "content": "\udc00"},
    {"type": "material", "n": 2**60},
])
def test_what_the_round_trip_would_change_or_refuse_is_not_copied(value: dict[str, Any]) -> None:
    assert exact_copy(value) is None


def test_a_material_is_copied_without_writing_its_text() -> None:
    record = {"type": "material", "session": "s", "id": "original:x", "content": "é" * 100_000, "n": 3, "ok": True,
              "none": None}
    copy = exact_copy(record)
    assert copy == record and copy is not record and list(copy) == list(record)


def test_converted_records_parse_as_their_sif_lines_would() -> None:
    records = [
        {"type": "session", "id": "s1", "title": "t", "adapter": "anthropic", "goal_revision": 1},
        {"type": "event", "session": "s1", "seq": 1, "kind": "tool_call", "call_id": "c", "args": {"x": 1e-05, "y": 1.5},
         "at": "2025-05-01T00:00:00Z", "trust": "model", "origin": {"line": 3, "bytes": [0, 10]}},
        {"type": "event", "session": "s1", "seq": 2, "kind": "tool_result", "call_id": "c", "content": "v2.1 1e3",
         "trust": "tool", "extra_field": [1, 2.5e300]},
        {"type": "material", "session": "s1", "id": "m", "content": "text", "encoding": "utf-8"},
        {"type": "event", "session": "s1", "seq": 3, "kind": "user_message", "pair": (1, 2)},  # written as a list
    ]
    lines = [b'{"type":"header","format":"sif/1"}', *(fast_compact_bytes(r) for r in records)]
    before = parse_for_writer((lines, 1, True))
    after = parse_converted((records, 2, False))
    assert [(r.type, r.line, r.record, r.identity, r.digest, r.payload, r.row) for r in after] == \
        [(r.type, r.line, r.record, r.identity, r.digest, r.payload, r.row) for r in before]


def test_a_converted_record_is_refused_as_its_line_would_be() -> None:
    bad = {"type": "event", "session": "s1", "seq": 1, "kind": "tool_call", "args": {"x": "\ud800"}}
    with pytest.raises(BadInput) as direct:
        parse_converted(([bad], 7, False))
    with pytest.raises(BadInput) as by_line:
        parse_chunk([fast_compact_bytes(bad)], 7, with_header=False, loads=fast_loads)
    assert (direct.value.code, direct.value.line, direct.value.message) == \
        (by_line.value.code, by_line.value.line, by_line.value.message)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=12).map(lambda b: b.replace(b"\n", b" ")), max_size=8))
def test_float_marks_are_found_per_line_as_the_expression_finds_them(lines: list[bytes]) -> None:
    marked = {i for i, line in enumerate(lines) if re.search(rb"[0-9][.eE]", line)}
    assert lines_with_float_marks(lines) == marked


def test_a_long_line_with_brackets_in_its_text_takes_the_fast_path_and_real_depth_is_still_refused() -> None:
    quoted = json.dumps({"type": "event", "content": "{[" * 500}, separators=(",", ":")).encode()
    assert fast_loads(quoted) == json.loads(quoted)
    deep = ("[" * 201 + "]" * 201).encode()
    with pytest.raises(ValueError, match="200 levels"):
        fast_loads(deep)
    assert fast_loads(("[" * 200 + "]" * 200).encode()) == json.loads("[" * 200 + "]" * 200)


@pytest.mark.parametrize("data", [b"", b"a", b"a\n", b"\n\n", b"x\n" * 60, b"x\ny" * 49, b"q\n" * 50,
                                  b"q\n" * 49 + b"z", b"q\n" * 50 + b"z"])
def test_detection_reads_the_same_first_lines(data: bytes) -> None:
    assert _head_lines(data, 50) == data.split(b"\n", 50)[:50]


def test_the_collector_is_restored_after_an_import_even_a_failed_one() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause leaves the outer one in force
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # found disabled, left disabled
    finally:
        gc.enable()


def test_the_walk_writes_no_ascii_key_to_prove_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key is tested for ASCII in the walk's own loop, as a value is (issue 18): only a key
    with other characters is encoded to prove strict UTF-8 takes it — and one that cannot is
    still refused."""
    from inspector.store import jsoncodec

    asked: list[str] = []
    real = jsoncodec._exact_text

    def counted(text: str) -> bool:
        asked.append(text)
        return real(text)

    monkeypatch.setattr(jsoncodec, "_exact_text", counted)
    record = {"type": "event", "seq": 1, "origin": {"format": "claude-code", "bytes": [0, 9]}, "clé": "x"}
    assert exact_as_is(record) == (record, True)
    assert asked == ["clé"]
    assert exact_as_is({"ok": 1, "\udc00": 1}) is None
