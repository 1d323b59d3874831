"""Opening a store: recognising it, migrating it forward, and running transactions.

Every write goes through :meth:`Store.transaction` (``BEGIN IMMEDIATE``), so a
service's projection changes and its ledger entries commit together or not at all.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.domain.errors import NotAStore
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _check_file_is_sqlite(path: Path) -> None:
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise NotAStore(f"cannot read {path}: {exc.strerror}") from None
    if head != SQLITE_MAGIC:
        raise NotAStore(f"{path} is not a Context Inspector store (not an SQLite file)")


class Store:
    """An open session store. Use :func:`open_store` to get one."""

    def __init__(self, path: Path, db: aiosqlite.Connection, key: bytes) -> None:
        self.path = path
        self.db = db
        self.digest_key = key

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; rolled back on any exception, so a refusal writes nothing."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        await self.db.execute("COMMIT")

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction, so several queries see one consistent state."""
        await self.db.execute("BEGIN")
        try:
            yield self.db
        finally:
            await self.db.execute("COMMIT")


async def _configure(db: aiosqlite.Connection) -> None:
    await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    # Deleted content is overwritten, not left in free pages, whatever this SQLite build's
    # default is (upstream's default is off).
    await db.execute("PRAGMA secure_delete = ON")
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute("PRAGMA synchronous = NORMAL")


async def _scalar(db: aiosqlite.Connection, sql: str) -> int:
    async with db.execute(sql) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def _migrate(db: aiosqlite.Connection, version: int) -> None:
    while version < FORMAT_VERSION:
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_sql(MIGRATIONS[version]):
                await db.execute(statement)
            if version == 0:
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                await db.execute(
                    "INSERT INTO store_meta(key, value) VALUES ('digest_key', ?), ('created_at', ?)",
                    (secrets.token_hex(32), utc_now()),
                )
            await db.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
        version += 1


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


async def open_store(path: str | os.PathLike[str], *, create: bool = False) -> Store:
    """Open (or, with ``create``, make) a store; refuse anything that is not one.

    A file of a newer format version is refused rather than guessed at; an older one
    is migrated forward.
    """
    target = Path(path)
    exists = target.exists() and target.stat().st_size > 0
    if exists:
        _check_file_is_sqlite(target)
    elif not create:
        raise NotAStore(f"no store at {target}")
    try:
        db = await aiosqlite.connect(target, isolation_level=None)
    except sqlite3.Error as exc:
        raise NotAStore(f"cannot open {target}: {exc}") from None
    try:
        await _configure(db)
        app_id = await _scalar(db, "PRAGMA application_id")
        version = await _scalar(db, "PRAGMA user_version")
        if exists and app_id != APPLICATION_ID:
            raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
        if version > FORMAT_VERSION:
            raise NotAStore(
                f"{target} has store format {version}; this version of Context Inspector reads up to "
                f"{FORMAT_VERSION}. Upgrade the inspector to open it.",
                code="unknown_format_version",
            )
        await db.execute("PRAGMA journal_mode = WAL")
        await _migrate(db, version)
        async with db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'") as cur:
            row = await cur.fetchone()
        if row is None:
            raise NotAStore(f"{target} is missing its store metadata")
        return Store(target, db, bytes.fromhex(row[0]))
    except sqlite3.DatabaseError as exc:
        await db.close()
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except BaseException:
        await db.close()
        raise


async def fetch_one(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
    """First row or None, in one trip to the database thread (a cursor costs three)."""
    rows = await db.execute_fetchall(sql, params)
    for row in rows:
        return row
    return None


async def checkpoint(store: Store) -> bool:
    """Copy the WAL into the database file and truncate it to zero bytes (after a deletion,
    so no old frame keeps deleted content). False when a reader still holds an older
    snapshot after the busy timeout: the WAL is then truncated by the next checkpoint."""
    row = await fetch_one(store.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    return row is not None and int(row[0]) == 0


async def data_version(db: aiosqlite.Connection) -> int:
    """Changes whenever *another* connection commits to the file (SQLite's own change counter)."""
    row = await fetch_one(db, "PRAGMA data_version")
    return int(row[0]) if row else 0
