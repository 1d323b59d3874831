"""The bulk writes of an import, behind named functions.

An import writes many rows of one table at once inside the caller's one transaction (the
search indexes follow in inspector/store/search_index.py). Each backend writes them its own
way behind :func:`insert_rows`; services call only it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.store.tables import TableSpec

try:
    import orjson
except ImportError:  # pragma: no cover - a declared dependency; executemany alone is correct too
    orjson = None


async def insert_rows(db: Any, spec: TableSpec, rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert ``rows`` (built by ``spec.to_row``) into the spec's table; an identity that is
    already there raises ``sqlite3.IntegrityError`` and the caller's savepoint undoes the batch.

    Many rows go in as one JSON array read by one ``INSERT … SELECT … FROM json_each``: the
    statement runs start to end in SQLite without calling back into Python per row, so it
    holds no interpreter lock and the import parses its next chunk meanwhile
    (services/import_stream.py). SQLite's JSON reader cuts a string at an escaped NUL, so a
    batch holding one (orjson always writes it ``\\u0000``), or values orjson cannot write,
    goes through ``executemany`` instead; both store the same values.
    """
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await _pg_insert_rows(db, spec, rows)
        return
    if orjson is not None and len(rows) >= JSON_BATCH_MIN:
        try:
            batch = orjson.dumps(rows, option=orjson.OPT_STRICT_INTEGER)
        except TypeError:  # orjson.JSONEncodeError is one: an integer past 2^53 (kept exact so), a lone surrogate
            batch = b""
        if batch and b"\\u0000" not in batch:
            await db.execute(_json_insert_sql(spec), (batch,))
            return
    await db.executemany(spec.insert_sql, rows)


async def _pg_insert_rows(db: Any, spec: TableSpec, rows: Sequence[tuple[Any, ...]]) -> None:
    """PostgreSQL: a large batch is sent by COPY *behind* (inspector/store/pg/adapter.py), so the
    server stores it while the import builds the next one. Its error would then surface at a
    later statement, not here, where the caller's savepoint expects it; so a repeated identity
    is found here first, against this batch and every row this transaction bulk-inserted into
    the table, and raised before anything is sent. Rows already stored are not repeats the
    import can send (it compares a stored session's rows by digest first, and events of a
    session not stored cannot exist). Once a table had a repeat (and the caller inserted its
    rows one by one), its later batches go in step, with the error in place as before."""
    if spec.table in db.in_step or len(rows) < COPY_BEHIND_MIN:
        await db.executemany(spec.insert_sql, rows)
        return
    width = len(IDENTITY_FIELDS[spec.type])
    keys = [row[:width] for row in rows]
    batch = set(keys)
    seen = db.written.setdefault(spec.table, set())
    if len(batch) < len(keys) or not seen.isdisjoint(batch):
        db.in_step.add(spec.table)
        raise sqlite3.IntegrityError(f"a repeated identity in {spec.table} (found before sending the batch)")
    names = spec.insert_sql.split("(", 1)[1].split(")", 1)[0]
    await db.copy_behind(spec.table, [n.strip() for n in names.split(",")], rows)
    seen |= batch


COPY_BEHIND_MIN = 200  # smaller batches go as one executemany, in step
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
