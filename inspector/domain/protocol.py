"""Protocol problems in a raw event log (DESIGN §5–§6): calls without results, results
without calls, and DeepSeek thinking turns that lost their reasoning.

These are facts about the log, shown to a reviewer; they are never repaired by
inventing the missing half.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class ProtocolProblem:
    code: str
    session: str
    seq: int
    message: str
    line: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "session": self.session, "seq": self.seq, "line": self.line,
                "message": self.message}


@dataclass(frozen=True, slots=True)
class CallShape:
    """The few fields of an event the protocol checks look at."""

    seq: int
    kind: str
    call_id: str | None
    tools_present: bool = False
    has_reasoning: bool = False
    line: int | None = None


def find_problems(session: str, adapter: str, events: Iterable[CallShape]) -> list[ProtocolProblem]:
    calls: dict[str, CallShape] = {}
    answered: set[str] = set()
    problems: list[ProtocolProblem] = []
    ordered = sorted(events, key=lambda e: e.seq)
    for ev in ordered:
        if ev.kind == "tool_call" and ev.call_id:
            calls.setdefault(ev.call_id, ev)
    for ev in ordered:
        if ev.kind == "tool_result":
            if ev.call_id and ev.call_id in calls:
                answered.add(ev.call_id)
            else:
                problems.append(ProtocolProblem(
                    "orphan_result", session, ev.seq,
                    f"event {ev.seq} is a tool result for call {ev.call_id!r}, which is not in the log "
                    "(a continued session, or a lost call); it is shown as it is, never paired by guess.",
                    ev.line))
        if (adapter == "deepseek-thinking-tools" and ev.kind == "assistant_message"
                and ev.tools_present and not ev.has_reasoning):
            problems.append(ProtocolProblem(
                "reasoning_missing", session, ev.seq,
                f"assistant event {ev.seq} was sent with tools on a DeepSeek thinking adapter but has no "
                "reasoning_content; the provider requires it back in every later request.",
                ev.line))
    for call_id, ev in calls.items():
        if call_id not in answered:
            problems.append(ProtocolProblem(
                "unresolved_call", session, ev.seq,
                f"tool call {call_id!r} (event {ev.seq}) has no result yet: the session is not at a "
                "control boundary.",
                ev.line))
    return sorted(problems, key=lambda p: (p.seq, p.code))
