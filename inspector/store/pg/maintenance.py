"""What SQLite's PRAGMAs do for a store, done on PostgreSQL: reclaiming and checking.

After a deletion SQLite overwrites freed pages (``secure_delete``) and truncates its WAL;
PostgreSQL keeps deleted rows as dead tuples, and a plain VACUUM only marks their space free —
the bytes stay in the table files until the page is reused. :func:`reclaim` therefore runs
``VACUUM FULL`` on the tables a deletion touches: each is rewritten into a new file holding only
live rows (and its indexes rebuilt), the old file removed. It holds an exclusive lock on each
table while it runs, so other reviewers wait for it — deletions are rare and deliberate, and
"every copy removed" is the rule. It cannot scrub the server's own write-ahead log, replicas or
base backups: docs/store-format.md says so (that is the server operator's retention policy).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import asyncpg

from inspector.store.pg.store import PgStore, _connect

# The tables a deletion removes rows or bytes from, or rewrites a row of (a session's title made
# from a target's text: the old row version stays in ``sessions``' pages until rewritten).
RECLAIMED = ("sessions", "events", "events_search", "calls_search", "reasoning_search", "material_chunks",
             "materials_fts", "materials", "state_records", "summaries", "stubs", "actions", "candidates", "handoffs",
             "deletion_requests", "tool_defs")


RECLAIM_TRIES = 10  # a snapshot open elsewhere on the server usually ends within a second
RECLAIM_WAIT_S = 0.2
# VACUUM FULL needs each table to itself: a transaction elsewhere that read it holds it until
# it ends. Waiting without bound would stall the deletion, and every reviewer queued behind it.
RECLAIM_LOCK_TIMEOUT_MS = 3000
_KEPT = re.compile(r"(\d+) dead row versions cannot be removed yet")


async def reclaim(store: Any) -> bool:
    """Rewrite the touched tables without the deleted rows (outside any transaction, on a
    connection of its own). False when the server refused, or when after a few tries a
    transaction still open elsewhere on the server needs the deleted rows, so the rewrite had
    to copy them (VACUUM VERBOSE says how many it kept): the deletion is committed, the bytes
    go with the next reclaim — the caller says so rather than claiming they are gone. A table
    held by another transaction past ``RECLAIM_LOCK_TIMEOUT_MS`` is the same case."""
    assert isinstance(store, PgStore)
    conn = await _connect(store.location)
    kept: list[int] = []
    conn.add_log_listener(lambda _c, message: kept.extend(int(n) for n in _KEPT.findall(
        f"{message.message} {getattr(message, 'detail', '') or ''}")))
    try:
        await conn.execute(f"SET lock_timeout = {int(RECLAIM_LOCK_TIMEOUT_MS)}")
        for attempt in range(RECLAIM_TRIES):
            kept.clear()
            await conn.execute(f"VACUUM (FULL, ANALYZE, VERBOSE) {', '.join(RECLAIMED)}")
            if not any(kept):
                return True
            if attempt + 1 < RECLAIM_TRIES:
                await asyncio.sleep(RECLAIM_WAIT_S)
        return False
    except asyncpg.PostgresError:
        return False
    finally:
        await conn.close()


async def has_amcheck(store: Any) -> bool:
    rows = await store.db.execute_fetchall("SELECT count(*) FROM pg_extension WHERE extname = 'amcheck'")
    return bool(rows and rows[0][0])


async def integrity(store: Any) -> list[str]:
    """What the server reports wrong with the store's indexes (``amcheck``'s ``bt_index_check`` on
    every B-tree, when the extension is installed in the database); without it there is nothing
    to add here: PostgreSQL checks its own pages (data checksums) as it reads them."""
    if not await has_amcheck(store):
        return []
    problems: list[str] = []
    for (index,) in await store.db.execute_fetchall(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON "
            "a.oid = c.relam WHERE a.amname = 'btree' AND c.relnamespace = current_schema()::regnamespace"):
        try:
            await store.db.execute_fetchall("SELECT bt_index_check(?::regclass)", (index,))
        except Exception as exc:  # noqa: BLE001 - every finding is reported, none stops the check
            problems.append(f"{index}: {exc}")
    return problems
