"""``facts``: the records the extractor proposes from a session's raw log, on demand.

Import proposes them for every transcript; this lists them for any session (a sif
session too) with what the store holds for each key, and ``write`` appends the ones not
stored yet as ``pending`` records by ``extractor`` — one transaction, one ledger entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.sif import identity_digest
from inspector.services.log_reads import log_events
from inspector.services.sessions import get_session
from inspector.store import ledger
from inspector.store.connection import Store
from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class FactRow:
    fact: ProposedFact
    status: str  # the stored record's status, or "not stored"

    def as_dict(self) -> dict[str, Any]:
        return {**self.fact.as_dict(), "status": self.status}


async def _stored(store: Store, session: str) -> dict[str, tuple[int, str, str]]:
    """key -> (newest version, its status, its value)."""
    out: dict[str, tuple[int, str, str]] = {}
    for key, version, status, value in await store.db.execute_fetchall(
            "SELECT key, version, status, value FROM state_records WHERE session = ? ORDER BY key, version",
            (session,)):
        out[key] = (int(version), status, value)
    return out


async def proposed(store: Store, session: str) -> list[FactRow]:
    await get_session(store, session)
    facts = extract(await log_events(store.db, session))
    stored = await _stored(store, session)
    return [FactRow(f, stored[f.key][1] if f.key in stored else "not stored") for f in facts]


async def write(store: Store, session: str, *, actor: str) -> list[ProposedFact]:
    """Append the proposals whose key the store does not hold yet (pending, by extractor)."""
    await get_session(store, session)
    async with store.transaction() as db:
        facts = extract(await log_events(db, session))
        stored = await _stored(store, session)
        fresh = [f for f in facts if f.key not in stored]
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
