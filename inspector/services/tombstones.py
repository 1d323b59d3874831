"""What deletions left behind: each deleted event's seq, time, kind and call id.

A deleted tool result still answered its call, and a deleted call was still made: the
protocol checks and the control boundary read these so a deletion never turns a settled
session into one with an "unresolved" call (which would block every candidate and handoff).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite


@dataclass(frozen=True, slots=True)
class Tombstone:
    seq: int
    at: str
    kind: str
    call_id: str | None
    ledger_seq: int


async def tombstones(db: aiosqlite.Connection, session: str) -> list[Tombstone]:
    out: list[Tombstone] = []
    for ledger_seq, payload in await db.execute_fetchall(
            "SELECT seq, payload FROM ledger WHERE session = ? AND kind = 'deletion' AND source = 'inspector' "
            "ORDER BY seq", (session,)):
        for stone in json.loads(payload).get("tombstones") or []:
            call = stone.get("call_id")
            out.append(Tombstone(int(stone.get("seq", 0)), str(stone.get("at") or ""), str(stone.get("kind") or "event"),
                                 call if isinstance(call, str) else None, int(ledger_seq)))
    return out


async def deleted_calls(db: aiosqlite.Connection, session: str) -> dict[tuple[str, str], int]:
    """(call_id, kind) -> seq for deleted tool calls and results."""
    return {(t.call_id, t.kind): t.seq for t in await tombstones(db, session)
            if t.call_id and t.kind in ("tool_call", "tool_result")}
