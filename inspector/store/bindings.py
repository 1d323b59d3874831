"""Materials bound in the ledger entry that imported them.

A material row carries its content hash, its chunk hashes and a binding of the two
(``chunk_binding``); someone who rewrites a chunk can recompute all three in place. The
import's ledger entry therefore records, per material, a keyed digest of that binding
(``payload.materials``): changing it means rewriting the hash chain from that entry on,
which ``verify`` reports (and ``verify --head`` catches even when the whole chain was
recomputed). Keyed with the store's secret, so the ledger reveals nothing of the content.
"""

from __future__ import annotations

import json

import aiosqlite

from inspector.domain.canonical import keyed_digest


def bound_digest(key: bytes, chunk_binding: str) -> str:
    return keyed_digest(key, chunk_binding.encode("ascii"))


async def material_bindings(db: aiosqlite.Connection, session: str) -> dict[str, str] | None:
    """Material id -> bound digest from the session's import entries; None when an import entry
    predates binding (a store written before it: nothing to compare against)."""
    out: dict[str, str] = {}
    rows = await db.execute_fetchall(
        "SELECT payload FROM ledger WHERE session = ? AND kind = 'import' AND source = 'inspector' ORDER BY seq",
        (session,))
    for (payload,) in rows:
        try:
            body = json.loads(payload)
        except ValueError:
            return None  # verify reports the broken entry; an expansion cannot rely on it
        mats = body.get("materials") if isinstance(body, dict) else None
        if not isinstance(mats, dict):
            if isinstance(body, dict) and (body.get("added") or {}).get("material"):
                return None
            continue
        out.update({str(k): str(v) for k, v in mats.items()})
    return out
