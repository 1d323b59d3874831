"""The bulk writes of an import, behind named functions.

An import writes many rows of one table at once inside the caller's one transaction (the
search indexes follow in inspector/store/search_index.py). Each backend writes them its own
way behind :func:`insert_rows`; services call only it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    goes through ``executemany`` instead; both store the same values. So do rows carrying
    much text (``JSON_ROW_TEXT_MAX``), which SQLite's JSON reader takes longer to read than
    ``executemany`` takes to bind.
    """
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await db.executemany(spec.insert_sql, rows)  # the PostgreSQL connection's own bulk path
        return
    if orjson is not None and len(rows) >= JSON_BATCH_MIN and _short_rows(rows):
        try:
            batch = orjson.dumps(rows, option=orjson.OPT_STRICT_INTEGER)
        except TypeError:  # orjson.JSONEncodeError is one: an integer past 2^53 (kept exact so), a lone surrogate
            batch = b""
        if batch and b"\\u0000" not in batch:
            await db.execute(_json_insert_sql(spec), (batch,))
            return
    await db.executemany(spec.insert_sql, rows)


JSON_BATCH_MIN = 64  # below this, executemany's per-row cost is smaller than a JSON round trip
# Above this much text per row (sampled), the JSON batch costs more than executemany: SQLite
# reads JSON strings slower than Python binds them. Measured on the events table (CPU per row,
# JSON / executemany): 50 characters 5.1 / 5.2 µs, 200: 5.8 / 5.3, 500: 7.0 / 5.3, 1,000:
# 9.2 / 5.5, 8,000: 48 / 7.9. A real transcript's events average ~1.5 KB (issue #18).
JSON_ROW_TEXT_MAX = 300
SAMPLE_ROWS = 32


def _short_rows(rows: Sequence[tuple[Any, ...]]) -> bool:
    """True when the first rows average at most ``JSON_ROW_TEXT_MAX`` characters of text."""
    sample = rows[:SAMPLE_ROWS]
    text = sum(len(v) for row in sample for v in row if type(v) is str)
    return text <= JSON_ROW_TEXT_MAX * len(sample)


def _json_insert_sql(spec: TableSpec) -> str:
    sql = _JSON_INSERTS.get(spec.table)
    if sql is None:
        names = spec.insert_sql.split("(", 1)[1].split(")", 1)[0]
        count = len(names.split(","))
        values = ", ".join(f"value ->> {i}" for i in range(count))
        sql = _JSON_INSERTS[spec.table] = f"INSERT INTO {spec.table} ({names}) SELECT {values} FROM json_each(?)"
    return sql


_JSON_INSERTS: dict[str, str] = {}
