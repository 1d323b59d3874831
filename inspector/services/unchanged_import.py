"""Re-importing a file already imported whole: answered from the ledger, not by re-parsing it.

Every import that adds records leaves a ledger entry per session with the file's keyed
digest, the byte extent it covered, and what it added and skipped. Records are immutable,
so when the same bytes were imported whole before and no deletion has touched those
sessions since, importing them again can only skip every record: the report says so at
the cost of one digest and a ledger look-up, instead of parsing and comparing each record.
Anything else (a changed file, a partial earlier import, a deletion since) takes the full
path.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.canonical import keyed_digest
from inspector.store.connection import Store


async def unchanged_import(store: Store, original: bytes,
                           fmt: str) -> tuple[int, dict[str, int], list[str]] | None:
    """(the earliest matching ledger entry's seq, what a full re-import would skip, its sessions), or None."""
    digest = keyed_digest(store.digest_key, original)
    rows = await store.db.execute_fetchall(
        "SELECT seq, session, payload FROM ledger WHERE kind = 'import' AND json_extract(payload, '$.file_digest') = ? "
        "ORDER BY seq", (digest,))
    if not rows:
        return None
    skipped: dict[str, int] = {}
    sessions: list[str] = []
    first = int(rows[0][0])
    for _seq, session, payload in rows:
        data: dict[str, Any] = json.loads(payload)
        if data.get("bytes") != [0, len(original)] or data.get("format") != fmt or session in sessions:
            return None  # a partial (followed) import, another format's reading, or imported twice: take the full path
        sessions.append(session)
        for kind, count in [*data.get("added", {}).items(), *data.get("skipped", {}).items()]:
            skipped[kind] = skipped.get(kind, 0) + int(count)
    marks = ", ".join("?" for _ in sessions)
    later = await store.db.execute_fetchall(
        f"SELECT 1 FROM ledger WHERE session IN ({marks}) AND kind = 'deletion' AND seq > ? LIMIT 1",
        (*sessions, first))
    return None if later else (first, skipped, sessions)
