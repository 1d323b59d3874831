"""``facts``: the records the extractor proposes from a session's raw log, on demand.

Import proposes them for every transcript; this lists them for any session (a sif
session too) with what the store holds for each key, and ``write`` appends the ones not
stored yet as ``pending`` records by ``extractor`` — one transaction, one ledger entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiosqlite

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.facts_running import NeedsWhole, RunningExtraction
from inspector.domain.facts_window import USER, WHOLE_BELOW, in_part_note
from inspector.domain.sif import identity_digest
from inspector.services.log_reads import log_events, user_readings
from inspector.services.sessions import get_session
from inspector.store import ledger
from inspector.store.connection import Store
from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class FactRow:
    fact: ProposedFact
    status: str  # the status of the stored version holding the proposal (else the key's newest), or "not stored"
    stale: tuple[int, int] | None = None  # (its stored version, the active one it is behind): reject only

    def as_dict(self) -> dict[str, Any]:
        out = {**self.fact.as_dict(), "status": self.status}
        if self.stale is not None:  # as the app's "◌ stale proposal: reject only" (flow-19)
            out["stale"] = {"version": self.stale[0], "behind": self.stale[1], "message": self.stale_text()}
        return out

    def stale_text(self) -> str:
        """The sentence ``facts`` says beside a stale proposal (empty for any other)."""
        if self.stale is None:
            return ""
        return (f"stale proposal: reject only — v{self.stale[0]} was proposed before v{self.stale[1]} became "
                "active; confirm refuses it (stale_pending)")


Stored = dict[str, list[tuple[int, str, str]]]


async def _stored(store: Store, session: str) -> Stored:
    """key -> every stored (version, status, value), oldest first."""
    out: Stored = {}
    for key, version, status, value in await store.db.execute_fetchall(
            "SELECT key, version, status, value FROM state_records WHERE session = ? ORDER BY key, version",
            (session,)):
        out.setdefault(key, []).append((int(version), status, value))
    return out


async def proposed(store: Store, session: str) -> list[FactRow]:
    return (await proposed_and_read_in_part(store, session))[0]


async def proposed_and_read_in_part(store: Store, session: str) -> tuple[list[FactRow], list[dict[str, Any]]]:
    """The proposals, and a note for each event the rules read only in its head and tail
    (``facts_window.in_part_note``: its ``message`` is the sentence): the import said it once;
    ``facts`` listed what a paste's middle did not give with no word of it (review-16)."""
    await get_session(store, session)
    facts = extract(await log_events(store.db, session, for_facts=True))
    stored = await _stored(store, session)
    long = await store.db.execute_fetchall(
        "SELECT seq, length(content), kind FROM events WHERE session = ? AND length(content) >= ? ORDER BY seq",
        (session, WHOLE_BELOW))
    readings = await user_readings(store.db, session, [int(r[0]) for r in long if r[2] == USER])
    return ([_row(f, stored) for f in facts],
            [in_part_note(int(seq), int(n), readings.get(int(seq))) for seq, n, _ in long])


def _row(fact: ProposedFact, stored: Stored) -> FactRow:
    """The proposal with what the store holds for it. The key's newest status alone read "[active]"
    beside the extractor's value after the owner corrected it: the active value is the owner's, the
    proposal a pending version behind it that confirm refuses (flow-19). So the status is the one of
    the newest version holding the proposal's value, when one does, and a stale one says so."""
    key = _stored_key(fact, stored)
    if key is None:
        return FactRow(fact, "not stored")
    versions = stored[key]
    version, status, _ = next((v for v in reversed(versions) if v[2] == fact.value), versions[-1])
    active = max((n for n, st, _ in versions if st == "active"), default=None)
    stale = (version, active) if status == "pending" and active is not None and version < active else None
    return FactRow(fact, status, stale)


def _stored_key(fact: ProposedFact, stored: Stored) -> str | None:
    """The key the store holds ``fact`` under: its own, or the one a store made before keys left
    sensitive values out holds (domain/fact_keys.py) — that fact is stored, not new."""
    if fact.key in stored:
        return fact.key
    return fact.former_key if fact.former_key in stored else None


class Followed:
    """The extractor's reading of one followed session, kept between looks: each look reads
    only the events appended since the last (``domain/facts_running.py``) instead of the
    whole log — a few events per look, not the session's 100,000 — and proposes the same."""

    def __init__(self) -> None:
        self.running: RunningExtraction | None = None

    async def facts(self, db: aiosqlite.Connection, session: str) -> list[ProposedFact]:
        if self.running is not None:
            try:
                self.running.feed(await log_events(db, session, after=self.running.last_seq, for_facts=True))
                return self.running.facts()
            except NeedsWhole:
                self.running = None
        events = await log_events(db, session, for_facts=True)
        try:
            self.running = RunningExtraction.of(events)
        except NeedsWhole:  # a log that reuses a call id: read whole at every look, as before
            return extract(events)
        return self.running.facts()


async def write(store: Store, session: str, *, actor: str, followed: Followed | None = None) -> list[ProposedFact]:
    """Append the proposals whose key the store does not hold yet (pending, by extractor).
    ``followed``: the reading kept by a live follow of this session (the same proposals)."""
    await get_session(store, session)
    async with store.transaction() as db:
        facts = await followed.facts(db, session) if followed is not None else extract(await log_events(db, session, for_facts=True))
        stored = await _stored(store, session)
        fresh = [f for f in facts if _stored_key(f, stored) is None]
        spec = SPECS["state"]
        for f in fresh:
            rec = f.state_record(session)
            await db.execute(spec.insert_sql, spec.to_row(rec, identity_digest("state", rec)))
        if fresh:
            await ledger.append(db, [ledger.NewEntry(session, "facts.proposed", actor, {
                "keys": [[f.key, f.version] for f in fresh], "writer": "extractor", "status": "pending",
                "added": {"state": len(fresh)},
                "initial_status": {"state": {"pending": [[session, f.key, f.version] for f in fresh]}}})])
    return fresh
