"""A session's raw event log as a conversation: messages in order, each tool call with its result.

The app's timeline reads pages of one-line rows; a shared report needs the whole text of
every event instead, read once in ``seq`` order. Calls and results are paired on
``call_id`` here so the HTML renderer and ``--json`` show the same pairs: a result sits
with its call, an unresolved call says it has no result, and a result whose call is not
in the log is kept as an orphan, never dropped (DESIGN §3 rule 6). A deleted event stays at
its place as a tombstone turn (marked ``deleted``, naming the deletion's ledger entry), so a
call whose result was deleted is never called unresolved, nor a result whose call was
deleted an orphan: the reader sees what was there and that it was removed, as in the app.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from inspector.services.tombstones import Tombstone, tombstones
from inspector.store.connection import Store


@dataclass(slots=True)
class Turn:
    """One entry of the conversation: a message, a paired tool call, or an orphan result."""

    seq: int
    kind: str
    at: str | None
    trust: str | None
    content: str | None
    reasoning: str | None = None
    continuation: list[str] = field(default_factory=list)  # kinds only: the items are opaque
    tool: str | None = None
    call_id: str | None = None
    args: Any = None
    result: dict[str, Any] | None = None  # {"seq","content","at"} of the paired result
    marks: list[str] = field(default_factory=list)  # "unresolved", "orphan", "sidechain", "deleted", "call_deleted"
    deleted_by: int | None = None  # the deletion's ledger entry, for a tombstone turn
    call: dict[str, Any] | None = None  # {"seq","deleted_by"} of a result's deleted call

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, "at": self.at, "trust": self.trust,
                               "content": self.content}
        if self.reasoning:
            out["reasoning"] = self.reasoning
        if self.continuation:
            out["continuation"] = self.continuation
        if self.kind in ("tool_call", "tool_result"):
            out.update({"tool": self.tool, "call_id": self.call_id, "args": self.args, "result": self.result})
        if self.marks:
            out["marks"] = self.marks
        if self.deleted_by is not None:
            out["deleted_by"] = self.deleted_by
        if self.call is not None:
            out["call"] = self.call
        return out


def _extra(text: str | None) -> dict[str, Any]:
    if not text or text == "{}":
        return {}
    value = orjson.loads(text)
    return value if isinstance(value, dict) else {}


async def conversation(store: Store, session: str) -> list[Turn]:
    """Every event of ``session`` as turns, results folded into their calls (first result wins;
    a second result for the same call stays visible as its own turn, marked ``duplicate``)."""
    turns: list[Turn] = []
    calls: dict[str, Turn] = {}
    gone_calls: dict[str, Turn] = {}  # call id -> the tombstone of its deleted call
    stones = sorted(await tombstones(store.db, session), key=lambda s: s.seq)
    waiting = 0

    def bury(stone: Tombstone) -> None:
        """A deleted event at its place: a deleted result still answered its call."""
        turn = Turn(stone.seq, stone.kind, stone.at or None, None, None, call_id=stone.call_id, marks=["deleted"],
                    deleted_by=stone.ledger_seq)
        if stone.kind == "tool_result" and stone.call_id and stone.call_id in calls \
                and calls[stone.call_id].result is None:
            calls[stone.call_id].result = {"seq": stone.seq, "content": None, "at": turn.at,
                                           "deleted_by": stone.ledger_seq}
            return
        if stone.kind == "tool_call" and stone.call_id:
            gone_calls.setdefault(stone.call_id, turn)
        turns.append(turn)

    async with store.db.execute(
        "SELECT seq, kind, at, trust, content, call_id, tool, extra FROM events WHERE session = ? ORDER BY seq",
        (session,),
    ) as cur:
        async for seq, kind, at, trust, content, call_id, tool, extra_text in cur:
            while waiting < len(stones) and stones[waiting].seq < seq:
                bury(stones[waiting])
                waiting += 1
            extra = _extra(extra_text)
            turn = Turn(int(seq), kind, at, trust, content, extra.get("reasoning_content") or None,
                        [str(c.get("kind")) for c in extra.get("continuation") or [] if isinstance(c, dict)],
                        tool, call_id, extra.get("args"))
            if extra.get("sidechain"):
                turn.marks.append("sidechain")
            if kind == "tool_call" and call_id:
                calls.setdefault(call_id, turn)
            elif kind == "tool_result" and call_id:
                call = calls.get(call_id)
                if call is not None and call.result is None:
                    call.result = {"seq": turn.seq, "content": content, "at": at}
                    continue
                gone = gone_calls.get(call_id) if call is None else None
                turn.marks.append("duplicate" if call is not None else "call_deleted" if gone else "orphan")
                if gone is not None:
                    turn.call = {"seq": gone.seq, "deleted_by": gone.deleted_by}
            turns.append(turn)
    for stone in stones[waiting:]:
        bury(stone)
    for turn in turns:
        if turn.kind == "tool_call" and turn.result is None and turn.deleted_by is None:
            turn.marks.append("unresolved")
    return turns
