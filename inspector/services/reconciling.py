"""Reconcile an action whose outcome is unknown: a person checked the effect and says what it was.

One transaction: the action's status changes and a ``action.reconcile`` ledger entry names
who did it (and whether as the session's owner or as a reviewer), the evidence they
checked, and why. ``unknown`` never changes without evidence that exists in the session.
The context version does not move: candidates and handoffs compare the action projection
itself (``unknowns_mismatch``, ``unknown_written_off``), so work built on the old
projection is caught by those checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.errors import BadInput, Refusal
from inspector.domain.event_refs import event_number, stored_seq
from inspector.domain.reconcile import RECONCILED_STATUSES, EvidenceFact, reconcile_refusals
from inspector.domain.terminal_safe import inert
from inspector.domain.trust import reason_text
from inspector.services.lookup import load_by_id
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one


@dataclass(slots=True)
class Reconciliation:
    action: str
    session: str
    old_status: str
    status: str
    evidence: str
    reason: str
    actor: str
    role: str
    refusals: list[Refusal] = field(default_factory=list)
    ledger_seq: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "session": self.session, "old_status": self.old_status,
                               "status": self.status, "evidence": self.evidence, "reason": self.reason,
                               "actor": self.actor, "role": self.role}
        if self.refusals:
            out["refusals"] = [r.as_dict() for r in self.refusals]
        else:
            out["ledger"] = self.ledger_seq
        return out


@dataclass(frozen=True, slots=True)
class ActionRow:
    id: str
    intent: str | None
    call_id: str | None
    status: str
    result_ref: str | None
    settled_by: dict[str, Any] | None = None  # the reconciliation that set the status, if any

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "intent": self.intent, "call_id": self.call_id, "status": self.status,
                "result_ref": self.result_ref, "reconciled": self.settled_by}


async def evidence_fact(db: aiosqlite.Connection, session: str, ref: str) -> EvidenceFact:
    """Whether ``ref`` (``evt:N`` or a material id) exists in the session, and when it was observed."""
    ref = ref.strip()
    if ref.startswith("evt:"):
        number = event_number(ref)
        if number is None:  # str.isdigit alone takes "٦" or "６" for 6
            return EvidenceFact(ref, False, "is not an event reference (expected evt:N)")
        ref = f"evt:{number}"  # recorded as every other reference is written: evt:0006 is evt:6
        seq = stored_seq(number)
        if seq is None:  # past SQLite's INTEGER (OverflowError): no event has it
            return EvidenceFact(ref, False, "is not an event of this session")
        row = await fetch_one(db, "SELECT 1 FROM events WHERE session = ? AND seq = ?", (session, seq))
        return EvidenceFact(ref, row is not None, "is not an event of this session", seq)
    row = await fetch_one(db, "SELECT deleted_at, source_event FROM materials WHERE session = ? AND id = ?",
                          (session, ref))
    if row is None:
        return EvidenceFact(ref, False, "is neither an evt:N nor a material stored in this session")
    if row[0] is not None:
        return EvidenceFact(ref, False, f"was deleted on {row[0]}")
    return EvidenceFact(ref, True, "", int(row[1]) if row[1] is not None else None)


async def _call_seq(db: aiosqlite.Connection, session: str, call_id: str | None) -> int | None:
    if not call_id:
        return None
    row = await fetch_one(db, "SELECT MIN(seq) FROM events WHERE session = ? AND call_id = ? AND kind = 'tool_call'",
                          (session, call_id))
    return int(row[0]) if row and row[0] is not None else None


async def reconcile(store: Store, action: str, *, status: str, evidence: str, reason: str, actor: str,
                    session: str | None = None) -> Reconciliation:
    if status not in RECONCILED_STATUSES:
        raise BadInput(f"--status {inert(status)}: one of {', '.join(RECONCILED_STATUSES)}")
    reason_text(reason)
    if not reason.strip():
        raise BadInput("a reconciliation needs a reason (recorded in the ledger)")
    async with store.transaction() as db:
        rec = await load_by_id(db, "action", action, session)
        sid = rec["session"]
        found = await session_rows.get(db, sid)
        role = "owner" if found and found.owner == actor else "reviewer"
        fact = await evidence_fact(db, sid, evidence) if evidence.strip() else None
        result = Reconciliation(action, sid, rec["status"], rec["status"], fact.ref if fact else evidence.strip(),
                                reason.strip(), actor, role)
        result.refusals = reconcile_refusals(action, rec["status"], status, fact,
                                             await _call_seq(db, sid, rec.get("call_id")))
        if result.refusals:
            return result
        await db.execute("UPDATE actions SET status = ? WHERE session = ? AND id = ?", (status, sid, action))
        entry = await ledger.append(db, [ledger.NewEntry(sid, "action.reconcile", actor, {
            "action": action, "old_status": rec["status"], "new_status": status, "evidence": result.evidence,
            "reason": result.reason, "role": role,
            "status_set": {"type": "action", "identity": [sid, action], "status": status}})])
        result.status, result.ledger_seq = status, entry[0].seq
    return result


async def list_actions(store: Store, session: str) -> list[ActionRow]:
    """The session's action ledger, unsettled first, each with the reconciliation that settled it."""
    async with store.snapshot() as db:
        rows = await db.execute_fetchall(
            "SELECT id, intent, call_id, status, result_ref FROM actions WHERE session = ? ORDER BY rowid", (session,))
        acts = await db.execute_fetchall(
            "SELECT seq, actor, at, json_extract(payload, '$.action'), json_extract(payload, '$.evidence'), "
            "json_extract(payload, '$.reason'), json_extract(payload, '$.role') FROM ledger WHERE session = ? AND kind = 'action.reconcile' ORDER BY seq",
            (session,))
    settled = {a[3]: {"ledger": a[0], "actor": a[1], "at": a[2], "evidence": a[4], "reason": a[5], "role": a[6]}
               for a in acts}
    out = [ActionRow(r[0], r[1], r[2], r[3], r[4], settled.get(r[0])) for r in rows]
    order = {"unknown": 0, "in_flight": 1, "planned": 2}
    return sorted(out, key=lambda a: order.get(a.status, 3))
