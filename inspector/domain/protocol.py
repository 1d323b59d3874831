"""Protocol problems in a raw event log (DESIGN §5–§6): calls without results, results
without calls, DeepSeek thinking turns that lost their reasoning, and reasoning on a session
whose thinking is off.

Seed 000 §9.5: in DeepSeek thinking mode with tools, every earlier assistant message's
``reasoning_content`` goes back in later requests that carry tools, across user turns and
even from a turn that made no call, so *every* assistant message of such a session needs it,
not only those flagged ``tools_present``.

These are facts about the log, shown to a reviewer; they are never repaired by
inventing the missing half.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from inspector.domain.terminal_safe import inert


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


class CallShape(NamedTuple):
    """The few fields of an event the protocol checks look at (a named tuple: an import makes
    one per call, result and assistant message, and a tuple is made several times faster than
    a frozen dataclass)."""

    seq: int
    kind: str
    call_id: str | None
    tools_present: bool = False
    has_reasoning: bool = False
    line: int | None = None


_SEQ = operator.itemgetter(0)


def thinking_is_off(session_record: dict[str, Any]) -> bool:
    """A session declares its thinking off with ``"thinking": false`` (or "off"/"disabled", or
    Anthropic's ``{"type": "disabled"}``); without the field nothing is assumed."""
    value = session_record.get("thinking")
    if isinstance(value, dict):
        return value.get("type") == "disabled"
    return value is False or value in ("off", "disabled")


def find_problems(session: str, adapter: str, events: Iterable[CallShape], *,
                  thinking_off: bool = False) -> list[ProtocolProblem]:
    calls: dict[str, CallShape] = {}
    answered: set[str] = set()
    problems: list[ProtocolProblem] = []
    # Unpacked, not read by attribute: an import checks every call, result and assistant message.
    ordered = sorted(events, key=_SEQ)
    for ev in ordered:
        if ev[1] == "tool_call" and ev[2]:
            first = calls.setdefault(ev[2], ev)
            if first is not ev:
                problems.append(_reused(session, ev, f"tool call {inert(ev[2])} (event {ev[0]}) has the id of the call "
                                                     f"at event {first[0]}"))
    deepseek = adapter == "deepseek-thinking-tools"
    for seq, kind, call_id, tools_present, has_reasoning, line in ordered:
        if kind == "tool_result":
            if call_id and call_id in answered:
                problems.append(_reused(session, CallShape(seq, kind, call_id, line=line),
                                        f"event {seq} is a second result for call {inert(call_id)}"))
            elif call_id and call_id in calls:
                answered.add(call_id)
            else:
                problems.append(ProtocolProblem(
                    "orphan_result", session, seq,
                    f"event {seq} is a tool result for call {inert(call_id)}, which is not in the log "
                    "(a continued session, or a lost call); it is shown as it is, never paired by guess.",
                    line))
        if deepseek and kind == "assistant_message" and not has_reasoning:
            why = "was sent with tools" if tools_present else "made no tool call, but its turn"
            problems.append(ProtocolProblem(
                "reasoning_missing", session, seq,
                f"assistant event {seq} {why} on a DeepSeek thinking-with-tools session and has no "
                "reasoning_content; every earlier assistant message's reasoning goes back in each later request "
                "that carries tools.",
                line))
        if thinking_off and has_reasoning:
            problems.append(ProtocolProblem(
                "reasoning_mode_mismatch", session, seq,
                f"event {seq} carries reasoning_content but the session declares its thinking off; either the "
                "session record or the event is wrong, and the reasoning would be sent where the provider does "
                "not expect it.",
                line))
    for call_id, ev in calls.items():
        if call_id not in answered:
            problems.append(ProtocolProblem(
                "unresolved_call", session, ev.seq,
                f"tool call {inert(call_id)} (event {ev.seq}) has no result yet: the session is not at a "
                "control boundary.",
                ev.line))
    return sorted(problems, key=lambda p: (p.seq, p.code))


def _reused(session: str, ev: CallShape, what: str) -> ProtocolProblem:
    """One call id on two calls, or two results for one call: which result answers which call
    cannot be told from the log. Both were taken silently (the first result paired with the
    first call, the second call left looking answered), newuser-19; now said, never paired by guess."""
    return ProtocolProblem("call_id_reused", session, ev.seq,
                           f"{what}: which result answers which call cannot be told from the log; each is shown "
                           "as it is, never paired by guess.", ev.line)
