"""The bulk writes of an import, behind named functions.

An import writes many rows of one table at once and then brings the search indexes up to
date for every event it added, all inside the caller's one transaction. These are the
statements a second backend (PostgreSQL) implements its own way; services call only these.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from inspector.store.tables import TableSpec

try:
    import orjson
except ImportError:  # pragma: no cover - a declared dependency; executemany alone is correct too
    orjson = None


async def insert_rows(db: aiosqlite.Connection, spec: TableSpec, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (built by ``spec.to_row``) into the spec's table; an identity that is
    already there raises ``sqlite3.IntegrityError`` and the caller's savepoint undoes the batch.

    Many rows go in as one JSON array read by one ``INSERT … SELECT … FROM json_each``: the
    statement runs start to end in SQLite without calling back into Python per row, so it
    holds no interpreter lock and the import parses its next chunk meanwhile
    (services/import_stream.py). SQLite's JSON reader cuts a string at an escaped NUL, so a
    batch holding one (orjson always writes it ``\\u0000``), or values orjson cannot write,
    goes through ``executemany`` instead; both store the same values.
    """
    if orjson is not None and len(rows) >= JSON_BATCH_MIN:
        try:
            batch = orjson.dumps(rows, option=orjson.OPT_STRICT_INTEGER)
        except TypeError:  # orjson.JSONEncodeError is one: an integer past 2^53 (kept exact so), a lone surrogate
            batch = b""
        if batch and b"\\u0000" not in batch:
            await db.execute(_json_insert_sql(spec), (batch,))
            return
    await db.executemany(spec.insert_sql, rows)


JSON_BATCH_MIN = 64  # below this, executemany's per-row cost is smaller than a JSON round trip


def _json_insert_sql(spec: TableSpec) -> str:
    sql = _JSON_INSERTS.get(spec.table)
    if sql is None:
        names = spec.insert_sql.split("(", 1)[1].split(")", 1)[0]
        count = len(names.split(","))
        values = ", ".join(f"value ->> {i}" for i in range(count))
        sql = _JSON_INSERTS[spec.table] = f"INSERT INTO {spec.table} ({names}) SELECT {values} FROM json_each(?)"
    return sql


_JSON_INSERTS: dict[str, str] = {}


async def last_event_id(db: aiosqlite.Connection) -> int:
    """The highest event id so far: events added later have higher ones."""
    rows = await db.execute_fetchall("SELECT COALESCE(MAX(event_id), 0) FROM events")
    return int(next(iter(rows))[0])


async def index_events_after(db: aiosqlite.Connection, event_id: int) -> None:
    """Put every event with an id above ``event_id`` into the search indexes: the trigram FTS
    (its content read from the events table) and the short-query gram index, each filled by
    one statement after the rows are in (cheaper than per-row maintenance)."""
    await db.execute("INSERT INTO events_fts (rowid, content) SELECT event_id, content FROM events "
                     "WHERE event_id > ? AND content IS NOT NULL", (event_id,))
    await db.execute("INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams(content) FROM events "
                     "WHERE event_id > ? AND content IS NOT NULL", (event_id,))
