"""The tables, indexes, triggers and views a store of the current format holds, as SQLite spells them.

Read by verify (a schema changed outside the inspector) and by the foreign-log check
(store/wal_owner.py: a log that adds a table no migration makes is another database's)."""

from __future__ import annotations

import functools
import sqlite3

from inspector.store import grams
from inspector.store.schema import FORMAT_VERSION, MIGRATIONS

# Every object but the query planner's statistics (ANALYZE / PRAGMA optimize make them; plans, never
# results: declared in verify's ``not_bound``). Not ``name NOT LIKE 'sqlite_%'``: LIKE's ``_`` matches
# any character and ignores case, so a table and a trigger named ``sqlitexcopy`` / ``SQLITE1t`` (names
# SQLite lets anyone create) were never compared — a trigger copying every new event into a table of
# its own passed verify, and kept what a deletion removed (docs/reviews/untrusted-seven.md). SQLite's
# own objects (``sqlite_autoindex_*``) are compared too: the migrations make them the same way.
SCHEMA_SQL = ("SELECT type, name, sql FROM sqlite_master WHERE NOT (type = 'table' AND name IN "
              "('sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3', 'sqlite_stat4'))")


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


def foreign_objects(have: dict[tuple[str, str], str | None]) -> list[str]:
    """``type name`` of every object in ``have`` (a store's :data:`SCHEMA_SQL` rows) that the
    current format does not make, or makes with other SQL: a table, trigger or view added
    behind the inspector's back can hold, or keep making, copies no deletion knows of."""
    want = expected_schema()
    return sorted(f"{t} {n}" for (t, n), sql in have.items() if want.get((t, n), _ABSENT) != sql)


_ABSENT = object()
