"""Review compression candidates: validate, accept (compare-and-swap), reject.

Accepting re-validates inside ``BEGIN IMMEDIATE`` and bumps ``context_version`` only if
it still equals the candidate's base, so of two reviewers accepting different candidates
on the same base exactly one wins; the other is refused ``stale_base`` and nothing of
its attempt is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiosqlite

from inspector.domain.candidates import Validation, validate_candidate
from inspector.domain.errors import BadInput, Refusal
from inspector.domain.terminal_safe import quoted
from inspector.domain.text_checks import rule_sentences
from inspector.domain.trust import reason_text, reviewer_name
from inspector.services.lookup import load_by_id
from inspector.services.session_facts import session_facts
from inspector.services.summary_in_use import append_accepted
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS


@dataclass(slots=True)
class Decision:
    validation: Validation
    context_version: int
    session: str

    def as_dict(self) -> dict[str, Any]:
        v = self.validation
        if v.refusals:
            return {"candidate": v.candidate, "status": v.status, "context_version": self.context_version,
                    "refusals": [r.as_dict() for r in v.refusals]}
        return {"candidate": v.candidate, "status": v.status, "context_version": self.context_version,
                "warnings": [w.as_dict() for w in v.warnings]}


async def _load(db: aiosqlite.Connection, record_id: str, session: str | None) -> dict[str, Any]:
    return await load_by_id(db, "candidate", record_id, session)


async def _validate(db: aiosqlite.Connection, cand: dict[str, Any]) -> Validation:
    summary = cand.get("summary")
    needs_texts = isinstance(summary, str) and bool(rule_sentences(summary))
    facts = await session_facts(db, cand["session"], with_texts=needs_texts)
    return validate_candidate(cand, facts)


async def validate_record(db: aiosqlite.Connection, cand: dict[str, Any]) -> Validation:
    """Validate a candidate record already read inside the caller's transaction."""
    return await _validate(db, cand)


async def validate(store: Store, candidate: str, session: str | None = None) -> Validation:
    async with store.snapshot() as db:
        return await _validate(db, await _load(db, candidate, session))


async def list_candidates(store: Store, session: str) -> list[tuple[dict[str, Any], Validation]]:
    """Every candidate of the session with its validation now (pending first)."""
    spec = SPECS["candidate"]
    async with store.snapshot() as db:
        cands = [spec.to_record(r) for r in await db.execute_fetchall(f"SELECT {spec.select_columns} FROM candidates WHERE session = ? ORDER BY rowid",
                              (session,))]
        out = [(c, await _validate(db, c)) for c in cands]
    return sorted(out, key=lambda cv: cv[0]["status"] != "pending")


def _status_set(session: str, candidate: str, status: str) -> dict[str, Any]:
    return {"type": "candidate", "identity": [session, candidate], "status": status}


async def accept(store: Store, candidate: str, *, actor: str, session: str | None = None) -> Decision:
    actor = reviewer_name(actor)
    async with store.transaction() as db:
        cand = await _load(db, candidate, session)
        sid = cand["session"]
        result = await _validate(db, cand)
        facts_version = await _context_version(db, sid)
        if cand["status"] != "pending":
            result.refusals.insert(0, Refusal("already_decided", f"candidate {quoted(candidate)} was already "
                                              f"{cand['status']}; a decided candidate cannot be decided again."))
        if result.refusals:
            return Decision(result, facts_version, sid)
        cur = await db.execute("UPDATE sessions SET context_version = context_version + 1 "
                               "WHERE id = ? AND context_version = ?", (sid, cand["base_version"]))
        if cur.rowcount != 1:  # unreachable under BEGIN IMMEDIATE; kept as the compare-and-swap itself
            result.refusals.append(Refusal("stale_base", "another commit changed the context version first."))
            return Decision(result, facts_version, sid)
        await db.execute("UPDATE candidates SET status = 'accepted' WHERE session = ? AND id = ?", (sid, candidate))
        new_version = cand["base_version"] + 1
        generation = await append_accepted(db, cand, new_version)
        await ledger.append(db, [ledger.NewEntry(sid, "candidate.accept", actor, {
            "candidate": candidate, "base_version": cand["base_version"], "context_version": new_version,
            "goal_revision": cand["goal_revision"], "warnings": [w.code for w in result.warnings],
            "generation": generation, "added": {"summary": 1},
            "status_set": _status_set(sid, candidate, "accepted")})])
        result.status = "accepted"
        return Decision(result, new_version, sid)


async def reject(store: Store, candidate: str, *, actor: str, reason: str, session: str | None = None) -> Decision:
    actor = reviewer_name(actor)
    reason_text(reason)  # no escape or bidi character kept in the ledger for good (reason_invalid)
    if not reason.strip():  # the app's dialog asks for one; `reject --reason ''` said "rejected cand-x: "
        raise BadInput("a rejection needs a reason (--reason), recorded in the ledger; nothing was written",
                       code="reason_required")
    async with store.transaction() as db:
        cand = await _load(db, candidate, session)
        sid = cand["session"]
        result = await _validate(db, cand)
        version = await _context_version(db, sid)
        if cand["status"] != "pending":
            result.refusals = [Refusal("already_decided", f"candidate {quoted(candidate)} was already {cand['status']}; "
                                       "a decided candidate cannot be decided again.")]
            return Decision(result, version, sid)
        result.refusals = []  # rejecting an invalid candidate is always allowed
        await db.execute("UPDATE candidates SET status = 'rejected' WHERE session = ? AND id = ?", (sid, candidate))
        await ledger.append(db, [ledger.NewEntry(sid, "candidate.reject", actor, {
            "candidate": candidate, "reason": reason, "status_set": _status_set(sid, candidate, "rejected")})])
        result.status = "rejected"
        return Decision(result, version, sid)


async def _context_version(db: aiosqlite.Connection, session: str) -> int:
    row = await session_rows.get(db, session)
    return row.context_version if row else 0


@dataclass(slots=True)
class ReviewView:
    """Everything the review screen compares, read in one snapshot."""

    candidate: dict[str, Any]
    validation: Validation
    required_exact: dict[str, str]
    open_actions: list[str]
    unknowns: list[str]
    context_version: int
    goal_revision: int
    latest_summary: str | None
    latest_generation: int | None


async def review_view(store: Store, candidate: str, session: str | None = None) -> ReviewView:
    async with store.snapshot() as db:
        cand = await _load(db, candidate, session)
        summary = cand.get("summary")
        facts = await session_facts(db, cand["session"],
                                    with_texts=isinstance(summary, str) and bool(rule_sentences(summary)))
        latest = await fetch_one(db, "SELECT generation, text FROM summaries WHERE session = ? "
                                 "ORDER BY generation DESC LIMIT 1", (cand["session"],))
    return ReviewView(cand, validate_candidate(cand, facts), facts.required_exact, facts.open_actions, facts.unknowns,
                      facts.context_version, facts.goal_revision, latest[1] if latest else None,
                      latest[0] if latest else None)
