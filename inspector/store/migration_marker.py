"""The mark of a copy in progress: ``inspector migrate`` writes it into the target's
``store_meta`` before its first row and removes it once every row is in.

The copy commits as it goes (a page of rows per transaction), so a run that is killed — no
handler runs on SIGKILL or a power cut — leaves part of a store behind. Without the mark that
part reads as a store whose sessions simply end early, and ``verify`` may even pass on it.
With it, every command refuses the target as ``migration_unfinished``, naming the source and
the command that finishes the copy (the same ``migrate`` again: it checks what is there and
copies what is missing). The mark is a ``store_meta`` row on both backends, so it commits in
the same transaction as the copy's first rows.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.errors import InspectorError
from inspector.store.sqlite_connections import fetch_one, utc_now

KEY = "migration_unfinished"


async def read(db: Any) -> dict[str, Any] | None:
    """The mark ({"source", "started_at"}) when the store is a copy in progress, else None."""
    row = await fetch_one(db, "SELECT value FROM store_meta WHERE key = ?", (KEY,))
    if row is None:
        return None
    try:
        mark = json.loads(row[0])
    except ValueError:
        mark = None
    return mark if isinstance(mark, dict) else {"source": "", "started_at": ""}


async def mark(db: Any, source: str) -> None:
    """Inside the copy's first writing transaction."""
    value = json.dumps({"source": source, "started_at": utc_now()}, ensure_ascii=False)
    await db.execute("INSERT INTO store_meta (key, value) VALUES (?, ?) "
                     "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (KEY, value))


async def clear(db: Any) -> None:
    """Inside the transaction that ends the copy (every row in)."""
    await db.execute("DELETE FROM store_meta WHERE key = ?", (KEY,))


def refusal(where: str, found: dict[str, Any]) -> InspectorError:
    source = str(found.get("source") or "its source")
    started = f" started {found['started_at']}" if found.get("started_at") else ""
    return InspectorError(
        f"{where} is an unfinished copy of {source}: the `inspector migrate`{started} has not put every row in "
        f"(it is still running, or it was stopped), so it holds only part of that store; if it was stopped, run "
        f"`inspector migrate {source} --to {where}` again to finish it (or remove it and copy afresh)",
        code="migration_unfinished")
