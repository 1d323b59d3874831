"""verify's check of a PostgreSQL store's tables: their columns and constraints are the format's.

SQLite's schema check compares each table's whole ``CREATE TABLE`` text, so a column added, a
default set or a constraint dropped is ``schema_changed``. On PostgreSQL ``ALTER TABLE`` does
the same without touching a row — the ledger's primary key dropped (a later entry can repeat a
seq), a NOT NULL dropped, a column's collation changed (every ``ORDER BY`` on it sorts
otherwise), a column or a table added — and verify said ok. The reference is the format
itself: the migrations run, on a connection of their own, into that session's temporary
schema inside a transaction that is rolled back (nothing of it stays, and the store's own
schema is not written), and both catalogs are compared.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspector.store.connection import Store

Fail = Callable[[dict[str, Any]], None]

_COLUMNS = """
SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), COALESCE(co.collname, ''), a.attnotnull,
       a.attidentity, COALESCE(pg_get_expr(d.adbin, d.adrelid), '')
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE c.relnamespace = {schema} AND c.relkind IN ('r', 'p')"""
_CONSTRAINTS = """
SELECT c.relname, k.conname, pg_get_constraintdef(k.oid)
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = {schema}"""


async def _reference(store: Any) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    from inspector.store.pg.schema import PG_MIGRATIONS
    from inspector.store.pg.store import _connect

    conn = await _connect(store.location)
    try:
        tr = conn.transaction()
        await tr.start()
        try:
            await conn.execute("SET LOCAL search_path = pg_temp, " + await conn.fetchval("SELECT current_schema()"))
            for version in sorted(PG_MIGRATIONS):
                await conn.execute(PG_MIGRATIONS[version][1])
            columns = {tuple(r) for r in await conn.fetch(_COLUMNS.format(schema="pg_my_temp_schema()"))}
            constraints = {tuple(r) for r in await conn.fetch(_CONSTRAINTS.format(schema="pg_my_temp_schema()"))}
        finally:
            await tr.rollback()
        return columns, constraints
    finally:
        await conn.close()


SKIPPED = ("the PostgreSQL tables' columns and constraints: this role cannot build the reference in a temporary "
           "schema ({error}); the triggers, functions and indexes were compared")


async def check_pg_tables(store: Store, fail: Fail) -> str | None:
    """None, or what was not compared and why (verify's ``not_checked``)."""
    import asyncpg

    try:
        want_columns, want_constraints = await _reference(store)
    except asyncpg.PostgresError as exc:  # a role without the TEMP privilege cannot build the reference
        return SKIPPED.format(error=type(exc).__name__)
    here = "current_schema()::regnamespace"
    columns = {tuple(r) for r in await store.db.execute_fetchall(_COLUMNS.format(schema=here))}
    constraints = {tuple(r) for r in await store.db.execute_fetchall(_CONSTRAINTS.format(schema=here))}
    tables = {r[0] for r in want_columns}
    changed = sorted({f"table {r[0]}" + ("" if r[0] in tables else " (added)") for r in columns ^ want_columns} |
                     {f"constraint {r[1]} of {r[0]}" for r in constraints ^ want_constraints})
    if changed:
        fail({"where": "schema", "code": "schema_changed",
              "message": "the store's tables were changed outside the inspector (" + ", ".join(changed[:6]) +
                         "): a column, default or constraint other than the format's changes what is stored or how "
                         "it is read"})
    return None
