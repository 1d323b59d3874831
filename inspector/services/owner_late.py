"""What drift and survival need to tell a value the owner corrected after a generation was written
(domain/owner_corrected.py): when each generation was written, and the value each correction replaced.

Read only when a current version cites a ledger entry and no event (a value written in review): every
other session pays one query of its state records, which drift and survival read anyway.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.domain.owner_corrected import corrected_at
from inspector.services.read_once import kept
from inspector.store.connection import Store
from inspector.store.ledger import iter_entries
from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class OwnerLate:
    """``written_at``: generation → the ledger entry that added it; ``replaced``: key → the value of
    the version before the owner's (the value the correction replaced)."""

    written_at: dict[int, int] = field(default_factory=dict)
    replaced: dict[str, str] = field(default_factory=dict)


async def owner_late(store: Store, session: str) -> OwnerLate:
    """Read once per ``read_once.reads_once()`` block (drift reads it for its records and its generations)."""
    return await kept("owner_late", session, lambda: _owner_late(store, session))


async def _owner_late(store: Store, session: str) -> OwnerLate:
    spec = SPECS["state"]
    # Only a version citing a ledger entry can be the owner's: most sessions stop at this query.
    rows = await store.db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM state_records WHERE session = ? AND status = 'active' "
        "AND sources LIKE ?", (session, "%ledger:%"))
    owned = {r["key"]: int(r["version"]) for r in map(spec.to_record, rows)
             if corrected_at(r.get("sources") or ()) is not None}
    if not owned:
        return OwnerLate()
    rows = await store.db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM state_records WHERE session = ? ORDER BY key, version", (session,))
    records = [spec.to_record(r) for r in rows]
    replaced: dict[str, str] = {}
    for r in records:  # ordered by version: the last one below the owner's is the value it replaced
        if r["key"] in owned and int(r["version"]) < owned[r["key"]]:
            replaced[r["key"]] = str(r["value"])
    gens = [int(g[0]) for g in await store.db.execute_fetchall(
        "SELECT generation FROM summaries WHERE session = ? ORDER BY generation", (session,))]
    written: dict[int, int] = {}
    async for entry in iter_entries(store.db, session=session):
        added = entry.payload.get("added") if isinstance(entry.payload, dict) else None
        n = added.get("summary", 0) if isinstance(added, dict) else 0
        named = entry.payload.get("generation")
        if isinstance(named, int) and n:  # a candidate accepted names its generation
            written.setdefault(named, entry.seq)
            continue
        for g in gens:  # an import adds its generations in order
            if n <= 0:
                break
            if g not in written:
                written[g] = entry.seq
                n -= 1
    return OwnerLate(written, replaced)


__all__ = ["OwnerLate", "owner_late"]
