"""Every connection of an opened store carries the store's settings.

Since session 19 (index-speed) a connection's settings are sent to SQLite's thread as one script
(store/sqlite_connections.py ``configure``), not one statement a trip. A script that stopped
after its first statement would leave deleted text in free pages (secure_delete), let a row
point at nothing (foreign_keys), fail at once on a busy store (busy_timeout) or sync less than
meant: each is asked back from the writer, the shared reader, a lent reader and a read-only open.
"""

from __future__ import annotations

from pathlib import Path

import aiosqlite

from inspector.store.connection import open_store
from inspector.store.sqlite_connections import BUSY_TIMEOUT_MS

WANTED = {"busy_timeout": BUSY_TIMEOUT_MS, "secure_delete": 1, "foreign_keys": 1, "synchronous": 1}  # 1: NORMAL


async def settings(db: aiosqlite.Connection) -> dict[str, int]:
    return {name: int((await db.execute_fetchall(f"PRAGMA {name}"))[0][0]) for name in [*WANTED, "query_only"]}


async def test_the_writer_and_every_reader_carry_the_settings(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        shared = await settings(store.db)
        async with store.snapshot() as lent:
            borrowed = await settings(lent)
        async with store.transaction() as writer:
            writing = await settings(writer)
    assert writing == {**WANTED, "query_only": 0}
    assert shared == borrowed == {**WANTED, "query_only": 1}  # readers never write


async def test_a_store_opened_read_only_carries_them_too(sample_store: Path) -> None:
    async with await open_store(sample_store, read_only=True) as store:
        assert store.read_only
        found = await settings(store.db)
    assert {k: found[k] for k in WANTED} == WANTED
