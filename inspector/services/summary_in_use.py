"""The summary in use after an accepted candidate (seed 002: a commit replaces the selection).

Accepting a candidate bumps the context version; the candidate's summary must then *be*
the summary the channel, drift and the budget read, so accept appends a generation of
kind ``accepted`` in the same transaction: parent = the generation it replaces, base =
the new context version, covering the log up to the accept. Its claims are the exact
fields (validated byte for byte, so they are true claims); its unresolved markers are
the active open issues its text names.
"""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

from inspector.domain.sif import identity_digest
from inspector.domain.textnorm import mentions, norm
from inspector.store.connection import fetch_one
from inspector.store.tables import SPECS


async def append_accepted(db: aiosqlite.Connection, cand: dict[str, Any], new_version: int) -> int:
    """Insert the ``accepted`` generation; returns its number."""
    sid = cand["session"]
    text = cand.get("summary") if isinstance(cand.get("summary"), str) else ""
    last = await fetch_one(db, "SELECT MAX(generation) FROM summaries WHERE session = ?", (sid,))
    parent = int(last[0]) if last and last[0] is not None else None
    top = await fetch_one(db, "SELECT MAX(seq) FROM events WHERE session = ?", (sid,))
    open_issues = [r[0] for r in await db.execute_fetchall(
        "SELECT value FROM state_records WHERE session = ? AND kind = 'open_issue' AND status = 'active' ORDER BY key",
        (sid,))]
    sources = {r[0]: json.loads(r[1] or "[]") for r in await db.execute_fetchall(
        "SELECT key, sources FROM state_records WHERE session = ? AND status = 'active'", (sid,))}
    flat = norm(text)
    record: dict[str, Any] = {
        "type": "summary", "session": sid, "generation": (parent or 0) + 1, "kind": "accepted", "text": text,
        "base_version": new_version, "unresolved": [v for v in open_issues if mentions(flat, v)],
        "sources": list(cand.get("sources") or []), "candidate": cand["id"],
        "claims": [{"key": k, "text": v, "sources": sources.get(k, [])}
                   for k, v in sorted((cand.get("exact_fields") or {}).items())],
    }
    if parent is not None:
        record["parent"] = parent
    if top and top[0] is not None:
        record["covers"] = [1, int(top[0])]
    spec = SPECS["summary"]
    await db.execute(spec.insert_sql, spec.to_row(record, identity_digest("summary", record)))
    return int(record["generation"])
