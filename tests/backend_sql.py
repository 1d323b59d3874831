"""Raw SQL against a test store on either backend, as another tool (or an attacker) would run it.

Tests that edit a store behind the product's back (to check that verify finds it, or that
the guard triggers refuse it) say the edit once, in the services' SQL; on PostgreSQL it goes
through the same dialect and error mapping as the product (inspector/store/pg/adapter.py),
so a refused statement raises the same ``sqlite3`` exception on both.
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from inspector.store.location import is_url

GUARDS = ("ledger_no_update", "ledger_no_delete", "events_no_update", "chunks_no_update")


def run_sql(store: Path | str, *statements: str, guards_off: bool = False) -> list[list[Any]]:
    """Run ``statements`` in one transaction; ``guards_off`` drops the integrity triggers' effect first."""
    if is_url(store):
        return run_async(_run_pg(str(store), statements, guards_off))
    con = sqlite3.connect(store)
    try:
        guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall() \
            if guards_off else []
        for name, _ in guards:
            con.execute(f"DROP TRIGGER IF EXISTS {name}")
        out = [con.execute(sql).fetchall() for sql in statements]
        for _, sql in guards:  # put back, as a careful editor would (verify reports a missing guard on its own)
            con.execute(sql)
        con.commit()
        return out
    finally:
        con.close()


def run_async(coro: Any) -> Any:
    """Run a coroutine to its end from sync code, also when called inside a running loop (an async test)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _run_pg(url: str, statements: tuple[str, ...], guards_off: bool) -> list[list[Any]]:
    import asyncpg

    from inspector.store.pg.adapter import PgConnection

    conn = PgConnection(await asyncpg.connect(url))
    try:
        if guards_off:  # triggers do not fire for a replica session (superuser only: the test server's)
            await conn.raw.execute("SET session_replication_role = replica")
        await conn.raw.execute("BEGIN")
        out = [await conn.execute_fetchall(sql) for sql in statements]
        await conn.raw.execute("COMMIT")
        return out
    finally:
        await conn.close()


def store_sha(store: Path | str) -> str:
    """A fingerprint of everything a store holds: the file's bytes on SQLite, every table's
    rows (in key order) on PostgreSQL. Equal before and after means nothing was written (a
    rolled-back insert still advances PostgreSQL's identity counters; ids are internal)."""
    if not is_url(store):
        return hashlib.sha256(Path(store).read_bytes()).hexdigest()
    return run_async(_pg_sha(str(store)))


async def _pg_sha(url: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        digest = hashlib.sha256()
        tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                  "ORDER BY tablename")
        for (table,) in tables:
            rows = await conn.fetch(f"SELECT * FROM {table} ORDER BY 1, 2")
            digest.update(repr((table, [tuple(r.values()) for r in rows])).encode())
        return digest.hexdigest()
    finally:
        await conn.close()
