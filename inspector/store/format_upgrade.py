"""Bringing an SQLite store file to this version's format: recognised as a store, refused when
newer than this version reads, migrated forward one format at a time otherwise (each step one
transaction, so a killed upgrade leaves the file at the last whole version)."""

from __future__ import annotations

import re
import secrets
import sqlite3
from pathlib import Path

import aiosqlite

from inspector.domain.errors import NotAStore
from inspector.store import wal_commits
from inspector.store.digest_key import parse_key
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS
from inspector.store.sqlite_connections import scalar, utc_now

# What a format step creates, named in its SQL (an ``IF NOT EXISTS`` object may be there already),
# and what it drops first (format 2 drops ``events_call`` and makes it again with the kind).
_CREATED = re.compile(r"^\s*CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)\s+(?!IF\s)(\w+)",
                      re.IGNORECASE | re.MULTILINE)
_DROPPED = re.compile(r"^\s*DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW)\s+(?:IF\s+EXISTS\s+)?(\w+)", re.IGNORECASE | re.MULTILINE)


async def _already_there(db: aiosqlite.Connection, version: int) -> tuple[str, int] | None:
    """An object a later format adds that the file already holds, with that format: its format
    number was lowered behind the tool (``PRAGMA user_version``), since no inspector writes a later
    format's objects without the number. Before (hostile review eight) the upgrade then failed on
    "table reasoning_fts already exists" or a UNIQUE constraint, reported as a store cut short or
    damaged — or, lowered by one step whose only statement is ``IF NOT EXISTS``, went unnoticed."""
    adds = {name: step + 1 for step in range(max(version, 1), FORMAT_VERSION)
            for name in _CREATED.findall(MIGRATIONS[step]) if name not in _DROPPED.findall(MIGRATIONS[step])}
    if not adds:
        return None
    marks = ", ".join("?" for _ in adds)
    async with db.execute(f"SELECT name FROM sqlite_master WHERE name IN ({marks})", list(adds)) as cur:
        found = [str(name) for (name,) in await cur.fetchall()]
    return min(((name, adds[name]) for name in found), key=lambda f: (f[1], f[0]), default=None)


async def migrate(db: aiosqlite.Connection, version: int, target: Path | None = None) -> None:
    there = await _already_there(db, version) if 0 < version < FORMAT_VERSION else None
    if there is not None:
        raise NotAStore(f"{target or 'the store'} says it is store format {version}, yet it already holds {there[0]}, "
                        f"which format {there[1]} adds: its format number (PRAGMA user_version) was changed behind "
                        "the tool; nothing was changed", code="format_number_differs")
    while version < FORMAT_VERSION:
        await db.execute("BEGIN IMMEDIATE")
        try:
            steps = split_sql(MIGRATIONS[version])
            if version == 7 and await scalar(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'events_long'"):
                # format 8's number lowered to 7 behind the tool: its long events are indexed by their
                # prefix already, and "deleting" their entries with the whole text again left the
                # search index malformed (verify: damaged_store, "restore it from a copy" — review-16);
                # only the number is set right, as for a store lowered to 6 (format 7: an index)
                steps = steps[:1]
            for statement in steps:
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
    await migrate(db, version, target)
    async with db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'") as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotAStore(f"{target} is missing its store metadata")
    return parse_key(row[0], target)
