"""Seals: each act binds, in its ledger entry, the rows it leaves behind.

A record row carries a digest of its own columns, so a naive edit shows; but whoever edits
a row can recompute that digest, add a row with a fresh one, delete one, or swap two rows'
order — and the row digests alone cannot tell. So every ledger entry the inspector writes
*seals* the record types it changed in its session: a keyed digest over the digests of
all that session's rows of the type, in insertion (rowid) order. ``verify`` recomputes
each (session, type)'s latest seal; changing the rows then means rewriting the hash chain
from that entry on, which verify reports (and ``verify --head`` catches even when the
whole chain was recomputed).

Which types an entry seals: those its payload names as ``added``, ``removed`` or
``rewritten``; an entry that creates a session (``import``, ``session.created``) seals
every type, so a row of a type the session never had still shows. Keyed with the store's
secret (DESIGN rule 2): a seal over a single short record cannot be brute-forced. Only
the order of rows counts, never their rowid values, so a copy to another backend (which
hands out its own ids, in the same order) keeps its seals.
"""

from __future__ import annotations

import hashlib
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.store.tables import SPECS, WRITE_ORDER

CREATING_KINDS = ("import", "session.created")
SEALED = "seals"  # the payload key


def _order_column(type_: str) -> str:
    return {"event": "event_id", "material": "material_id"}.get(type_, "rowid")


async def seal(db: aiosqlite.Connection, key: bytes, session: str, type_: str) -> str:
    """The keyed digest of ``session``'s rows of ``type_``: their digests, in insertion order."""
    spec = SPECS[type_]
    column = "id" if type_ == "session" else "session"
    rows = await db.execute_fetchall(
        f"SELECT digest FROM {spec.table} WHERE {column} = ? ORDER BY {_order_column(type_)}", (session,))
    lines = "".join(f"{row[0]}\n" for row in rows)  # one buffer, hashed once: cheap at a million rows
    digest = hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest()
    return keyed_digest(key, f"{type_}:{len(rows)}:{digest}".encode("ascii"))


def sealed_types(kind: str, payload: dict[str, Any]) -> list[str]:
    """The record types an entry of ``kind`` with ``payload`` changed, so must seal."""
    if kind in CREATING_KINDS:
        return list(WRITE_ORDER)
    named: set[str] = set()
    for field in ("added", "removed"):
        value = payload.get(field)
        if isinstance(value, dict):
            named |= {t for t, n in value.items() if n}
    rewritten = payload.get("rewritten")
    if isinstance(rewritten, list):
        named |= {t for t in rewritten if isinstance(t, str)}
    return [t for t in WRITE_ORDER if t in named]


async def store_key(db: aiosqlite.Connection) -> bytes | None:
    rows = await db.execute_fetchall("SELECT value FROM store_meta WHERE key = 'digest_key'")
    return bytes.fromhex(str(rows[0][0])) if rows else None


async def seals_for(db: aiosqlite.Connection, key: bytes, session: str, kind: str,
                    payload: dict[str, Any]) -> dict[str, str]:
    return {t: await seal(db, key, session, t) for t in sealed_types(kind, payload)}
