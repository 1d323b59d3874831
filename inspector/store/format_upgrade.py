"""Bringing an SQLite store file to this version's format: recognised as a store, refused when
newer than this version reads, migrated forward one format at a time otherwise (each step one
transaction, so a killed upgrade leaves the file at the last whole version)."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

import aiosqlite

from inspector.domain.errors import NotAStore
from inspector.store import wal_commits
from inspector.store.digest_key import parse_key
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS
from inspector.store.sqlite_connections import scalar, utc_now


async def migrate(db: aiosqlite.Connection, version: int) -> None:
    while version < FORMAT_VERSION:
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in split_sql(MIGRATIONS[version]):
                await db.execute(statement)
            if version == 0:
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                await db.execute(
                    "INSERT INTO store_meta(key, value) VALUES ('commits', '0'), ('digest_key', ?), ('created_at', ?)",
                    (secrets.token_hex(32), utc_now()),
                )
            await db.execute(f"PRAGMA user_version = {version + 1}")
            await db.execute(wal_commits.MARK_SQL)  # a migration's commit is the inspector's too
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
        version += 1


def split_sql(script: str) -> list[str]:
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


async def check_and_migrate(db: aiosqlite.Connection, target: Path, exists: bool) -> bytes:
    """Refuse a file that is not a store of a format this version reads, migrate an older one
    forward, and return the store's digest key."""
    app_id = await scalar(db, "PRAGMA application_id")
    version = await scalar(db, "PRAGMA user_version")
    if exists and app_id != APPLICATION_ID:
        raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
    if version > FORMAT_VERSION:
        raise NotAStore(
            f"{target} has store format {version}; this version of Context Inspector reads up to "
            f"{FORMAT_VERSION}. Upgrade the inspector to open it.",
            code="unknown_format_version",
        )
    await db.execute("PRAGMA journal_mode = WAL")
    await migrate(db, version)
    async with db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'") as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotAStore(f"{target} is missing its store metadata")
    return parse_key(row[0], target)
