"""Which deletion removed a target a request names that is gone already.

``deletion`` of a pending request whose target an earlier request removed said "(not found:
evt:4 — already deleted, or never stored)" while the timeline said "deleted by ledger entry
L10" (review-15, item 6): the deletion's ledger entry lists what it removed, so the request's
reader is told which entry, and which request, took it.
"""

from __future__ import annotations

import json
from typing import Any

import aiosqlite

_REMOVED_WHERE = frozenset({"events", "materials"})


def _plain(target: str) -> str:
    return target[4:] if target.startswith("mat:") else target


async def gone_by(db: aiosqlite.Connection, session: str, targets: list[str]) -> dict[str, dict[str, Any]]:
    """``target -> {"ledger": N, "request": "del-2"}`` for each of ``targets`` a carried-out
    deletion of ``session`` removed (the first that did); a target never stored is left out."""
    wanted = {_plain(t): t for t in targets}
    out: dict[str, dict[str, Any]] = {}
    if not wanted:
        return out
    for seq, payload in await db.execute_fetchall(
            "SELECT seq, payload FROM ledger WHERE session = ? AND kind = 'deletion' ORDER BY seq", (session,)):
        try:
            entry = json.loads(payload)
        except ValueError:
            continue
        for copy in entry.get("copies") or [] if isinstance(entry, dict) else []:
            if not isinstance(copy, dict) or copy.get("where") not in _REMOVED_WHERE:
                continue
            target = wanted.get(str(copy.get("id")))
            if target is not None and target not in out:
                out[target] = {"ledger": int(seq), "request": str(entry.get("request") or "")}
    return out
