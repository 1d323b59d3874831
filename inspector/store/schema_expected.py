"""The tables, indexes, triggers and views a store of the current format holds, as SQLite spells them.

Read by verify (a schema changed outside the inspector) and by the foreign-log check
(store/wal_owner.py: a log that adds a table no migration makes is another database's)."""

from __future__ import annotations

import functools
import sqlite3

from inspector.store import grams
from inspector.store.schema import FORMAT_VERSION, MIGRATIONS

SCHEMA_SQL = "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"


def schema_of(db: sqlite3.Connection) -> dict[tuple[str, str], str | None]:
    """(type, name) -> SQL of what ``db`` holds, as :func:`expected_schema` spells it."""
    return {(str(t), str(n)): s for t, n, s in db.execute(SCHEMA_SQL)}


@functools.cache
def expected_schema() -> dict[tuple[str, str], str | None]:
    """(type, name) -> SQL of every table, index, trigger and view a store of the current
    format holds: the migrations run on an empty database in memory."""
    db = sqlite3.connect(":memory:")
    try:
        grams.register(db)
        db.executescript("".join(MIGRATIONS[v] for v in range(FORMAT_VERSION)))
        return schema_of(db)
    finally:
        db.close()
