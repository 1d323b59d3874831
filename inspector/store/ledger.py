"""The append-only, hash-chained ledger (DESIGN rule 2).

An entry's hash covers its body and the previous entry's hash, so editing, removing
or reordering any row breaks every hash after it, and ``verify`` finds the first.
The ledger holds ids, versions, reasons and keyed digests, never raw content, so
carrying out a deletion never has to break the chain.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.canonical import GENESIS_HASH, canonical_json, ledger_hash
from inspector.domain.errors import InspectorError
from inspector.store import seals
from inspector.store.connection import fetch_one, utc_now


@dataclass(slots=True)
class NewEntry:
    """An entry a service wants appended; seq, time and hashes are filled in on append."""

    session: str | None
    kind: str
    actor: str
    payload: dict[str, Any] = field(default_factory=dict)
    at: str | None = None
    source: str = "inspector"
    record_digest: str | None = None


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    seq: int
    session: str | None
    kind: str
    actor: str
    at: str
    payload: dict[str, Any]
    source: str
    record_digest: str | None
    prev_hash: str
    hash: str

    def body(self) -> dict[str, Any]:
        return entry_body(self.seq, self.session, self.kind, self.actor, self.at, self.payload,
                          self.source, self.record_digest)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "session": self.session, "kind": self.kind, "actor": self.actor,
            "at": self.at, "payload": self.payload, "source": self.source,
            "prev_hash": self.prev_hash, "hash": self.hash,
        }


def entry_body(seq: int, session: str | None, kind: str, actor: str, at: str, payload: dict[str, Any],
               source: str, record_digest: str | None) -> dict[str, Any]:
    """Exactly what an entry's hash covers (documented in docs/store-format.md)."""
    return {
        "seq": seq, "session": session, "kind": kind, "actor": actor, "at": at,
        "payload": payload, "source": source, "record_digest": record_digest,
    }


COLUMNS = _COLUMNS = "seq, session, kind, actor, at, payload, source, record_digest, prev_hash, hash"


def _entry(row: Sequence[Any]) -> LedgerEntry:
    try:
        payload = json.loads(row[5])
    except (ValueError, TypeError):
        raise InspectorError(f"ledger entry {row[0]}'s payload is no longer JSON: the store was damaged or edited; "
                             "`inspector verify STORE` reports what else broke", code="damaged_store") from None
    return LedgerEntry(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], row[8], row[9])


async def ledger_tail(db: aiosqlite.Connection) -> tuple[int, str]:
    row = await fetch_one(db, "SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1")
    return (int(row[0]), str(row[1])) if row else (0, GENESIS_HASH)


async def append(db: aiosqlite.Connection, entries: Sequence[NewEntry],
                 known: Mapping[tuple[str, str], seals.RowDigests] | None = None) -> list[LedgerEntry]:
    """Append entries inside the caller's write transaction and return them as stored.

    Each entry the inspector writes for a session also seals the record types it changed
    (inspector/store/seals.py), computed here from the rows the transaction leaves, so no
    service can forget it. ``known``: the row digests a caller that wrote every row of a
    session holds already (``seals.seals_for``), not read back."""
    seq, prev = await ledger_tail(db)
    now = utc_now()
    stored: list[LedgerEntry] = []
    key: bytes | None = None
    sealed: dict[tuple[str, str], str] = {}  # this batch's seals, which a later entry's link chains on
    for new in entries:
        seq += 1
        at = new.at or now
        payload = new.payload
        if new.source == "inspector" and new.session is not None and seals.sealed_types(new.kind, payload):
            key = key or await seals.store_key(db)
            if key is not None:
                payload = {**payload, seals.SEALED: await seals.seals_for(db, key, new.session, new.kind, payload,
                                                                              sealed, known)}
        body = entry_body(seq, new.session, new.kind, new.actor, at, payload, new.source, new.record_digest)
        digest = ledger_hash(prev, body)
        stored.append(LedgerEntry(seq, new.session, new.kind, new.actor, at, payload, new.source,
                                  new.record_digest, prev, digest))
        prev = digest
    await db.executemany(
        f"INSERT INTO ledger ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(e.seq, e.session, e.kind, e.actor, e.at, canonical_json(e.payload), e.source, e.record_digest,
          e.prev_hash, e.hash) for e in stored],
    )
    return stored


async def iter_entries(db: aiosqlite.Connection, *, session: str | None = None,
                       batch: int = 2000) -> AsyncIterator[LedgerEntry]:
    """All entries in order, read in keyset pages so a long ledger never sits in memory."""
    after = 0
    where = "AND session = ?" if session is not None else ""
    while True:
        params: tuple[Any, ...] = (after, session, batch) if session is not None else (after, batch)
        rows = await db.execute_fetchall(f"SELECT {_COLUMNS} FROM ledger WHERE seq > ? {where} ORDER BY seq LIMIT ?", params)
        if not rows:
            return
        for row in rows:
            yield _entry(row)
        after = int(rows[-1][0])
