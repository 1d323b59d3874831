"""The facts an import proposes are found with less work, and are the same (session 12, import-fast).

Three shortcuts in the extraction every transcript import runs: a tool result's edge lines are
split from its two ends only (failures.edge_lines), a success of a named tool does not write its
arguments as JSON for a signature nobody reads (failures.find_failures), and the inline option
patterns run only on messages holding their words (facts_text._options). Each must answer as
the full work did.
"""

from __future__ import annotations

import random
import re

import pytest

from inspector.domain import facts_text, failures
from inspector.domain.canonical import canonical_json
from inspector.domain.failures import edge_lines, find_failures
from inspector.domain.logevents import LogEvent

BREAKS = ["\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
WORDS = ["exit code 1", "ok", "", " ", "FAILED test_x", "x" * 7, "中文"]


def _full(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[:2] + lines[-3:]


@pytest.mark.parametrize("span", [1, 2, 3, 5, 9])
def test_edge_lines_are_those_of_the_whole_split(span: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(failures, "EDGE_SPAN", span)
    rng = random.Random(span)
    for _ in range(5000):
        text = "".join(rng.choice(WORDS) if rng.random() < 0.5 else rng.choice(BREAKS)
                       for _ in range(rng.randint(0, 40)))
        assert edge_lines(text) == _full(text), repr(text)


def test_a_long_result_is_not_split_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "exit code 2\n" + "line\n" * 100_000 + "done\n"
    assert edge_lines(text) == _full(text)
    assert len(edge_lines(text)) == 5


def _event(seq: int, kind: str, **more: object) -> LogEvent:
    return LogEvent(seq, kind, "tool" if kind == "tool_result" else "model", more.pop("content", None), **more)  # type: ignore[arg-type]


def test_a_named_tool_success_writes_no_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    events = [
        _event(1, "tool_call", tool="Write", call_id="a", args={"file_path": "/x.py", "content": "y" * 1000}),
        _event(2, "tool_result", content="Error: exit code 1", tool="Write", call_id="a", is_error=True),
        _event(3, "tool_call", tool="Write", call_id="b", args={"file_path": "/x.py", "content": "z" * 1000}),
        _event(4, "tool_result", content="written", tool="Write", call_id="b"),
        _event(5, "tool_call", tool="Bash", call_id="c", args={"command": "make  test"}),
        _event(6, "tool_result", content="exit code 2", tool="Bash", call_id="c"),
        _event(7, "tool_call", tool="Bash", call_id="d", args={"command": "make test"}),
        _event(8, "tool_result", content="fine", tool="Bash", call_id="d"),
    ]
    asked: list[int] = []
    real = failures.signature

    def counted(call: LogEvent | None, result: LogEvent) -> str:
        asked.append(result.seq)
        return real(call, result)

    monkeypatch.setattr(failures, "signature", counted)
    found = find_failures(events)
    assert asked == [2, 6, 8]  # the Write success (4) resolves by the tool's name
    assert [(f.seq, f.signature, f.resolved_by) for f in found] == [
        (2, "Write(" + canonical_json(events[0].args)[:300] + ")", 4),
        (6, "make test", 8)]


def _old_options(text: str) -> dict[str, str]:
    """facts_text._options before the pretests: every pattern over every message."""
    found: dict[str, str] = {}
    for rx in (facts_text._INLINE_OPTION, facts_text._INLINE_OPTION_EN, facts_text._OPTION):
        for m in rx.finditer(text):
            label = re.sub(r"^(?:方案|选项)\s*", "", m.group("label")).casefold()
            label = facts_text._ORDINAL.get(label, label)
            body = m.groupdict().get("paren") or m.group("text") or ""
            found.setdefault(label, " ".join(body.replace("**", "").split()).strip(" ：:")[:200])
    return found if len(found) >= 2 else {}


OPTION_PARTS = ["Option A: keep it", "option 2 (the fast one)", "OPTİON B: drop", "optıon C: wait", "方案一：重写",
                "选项2：保留", "1. first way", "2) second way", "- **B.** bold", "\n", " ", ", ", "no choice here",
                "Options", "opt ion 3: no"]


def test_options_are_found_as_without_the_pretests() -> None:
    rng = random.Random(7)
    for _ in range(4000):
        text = "".join(rng.choice(OPTION_PARTS) for _ in range(rng.randint(0, 12)))
        assert facts_text.options_labelled(text)[0] == _old_options(text), repr(text)


def _by_constructor(rec: dict[str, object]) -> LogEvent:
    """LogEvent.from_record as it was: the dataclass's own constructor."""
    args, at = rec.get("args"), rec.get("at")
    return LogEvent(int(rec["seq"]), str(rec.get("kind") or "other"), rec.get("trust"), rec.get("content"),  # type: ignore[arg-type, call-overload]
                    rec.get("tool"), rec.get("call_id"), args if isinstance(args, dict) else None,  # type: ignore[arg-type]
                    rec.get("is_error") is True, rec.get("sidechain") is True,
                    {k: rec[k] for k in ("compact_summary", "subtype", "stub", "record_type") if k in rec},
                    at if isinstance(at, str) else None)


@pytest.mark.parametrize("rec", [
    {"seq": 1, "kind": "user_message", "trust": "user", "content": "hi", "at": "2025-01-01T00:00:00Z"},
    {"seq": "7", "kind": None, "args": ["not", "a", "dict"], "at": 5, "is_error": 1, "sidechain": "yes"},
    {"seq": 3, "kind": "tool_result", "tool": "Bash", "call_id": "c", "is_error": True, "sidechain": True,
     "compact_summary": True, "subtype": "x", "stub": "stub:a", "record_type": "progress", "args": {"a": 1}},
])
def test_an_event_read_field_by_field_is_the_constructed_one(rec: dict[str, object]) -> None:
    made = LogEvent.from_record(rec)
    assert made == _by_constructor(rec)
    assert repr(made) == repr(_by_constructor(rec))
    with pytest.raises(AttributeError):
        made.seq = 2  # type: ignore[misc]  # still frozen


def test_every_field_is_set_by_from_record() -> None:
    """A field added to LogEvent must be set by from_record too (its slots are filled one by one)."""
    made = LogEvent.from_record({"seq": 1})
    for name in LogEvent.__slots__:
        getattr(made, name)
