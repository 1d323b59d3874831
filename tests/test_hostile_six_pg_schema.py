"""verify on PostgreSQL checks the store's schema (hostile review six).

Before: verify's schema check returned at once on PostgreSQL. A guard trigger dropped or
disabled, the guard function ``ci_refuse`` made a no-op, the schema's ``json_extract`` (every
SQL read of a JSON column) replaced to return forged values, a trigger, rule or row-level
policy added: verify said ok to each (exit 0). Now ``guards_removed`` / ``schema_changed``.
"""

from __future__ import annotations

import asyncio

import pytest

from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.backend_sql import run_sql

EDITS = {
    "guard dropped": ("guards_removed", "DROP TRIGGER ledger_no_update ON ledger"),
    "guard disabled": ("guards_removed", "ALTER TABLE events DISABLE TRIGGER events_no_update"),
    "guard function a no-op": ("schema_changed", "CREATE OR REPLACE FUNCTION ci_refuse() RETURNS trigger "
                               "LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$"),
    "json_extract forged": ("schema_changed", "CREATE OR REPLACE FUNCTION json_extract(doc text, path text) RETURNS "
                            "text LANGUAGE sql IMMUTABLE AS $$ SELECT 'forged' $$"),
    "trigger added": ("schema_changed", "CREATE TRIGGER sneaky BEFORE INSERT ON ledger FOR EACH ROW EXECUTE "
                      "FUNCTION ci_notify_change()"),
    "rule added": ("schema_changed", "CREATE RULE quiet AS ON INSERT TO summaries DO INSTEAD NOTHING"),
    "policy added": ("schema_changed", "CREATE POLICY hide ON events USING (seq <> 1)"),
    "index dropped": ("schema_changed", "DROP INDEX ledger_time"),
    "primary key dropped": ("schema_changed", "ALTER TABLE ledger DROP CONSTRAINT ledger_pkey"),
    "not null dropped": ("schema_changed", "ALTER TABLE ledger ALTER COLUMN hash DROP NOT NULL"),
    "default set": ("schema_changed", "ALTER TABLE events ALTER COLUMN content SET DEFAULT 'x'"),
    "collation changed": ("schema_changed", 'ALTER TABLE sessions ALTER COLUMN title TYPE text COLLATE "POSIX"'),
    "column added": ("schema_changed", "ALTER TABLE events ADD COLUMN sneaky text"),
    "table added": ("schema_changed", "CREATE TABLE sneaky (x text)"),
}


@pytest.fixture
def pg_store(pg_databases, pg_sample_master: str) -> str:  # type: ignore[no-untyped-def]
    return str(pg_databases.create("hostile_six_schema", template=pg_sample_master))


async def _codes(url: str) -> tuple[bool, set[str]]:
    async with await open_store(url) as opened:
        report = await verify_store(opened)
    return report.ok, {p["code"] for p in report.problems}


async def test_an_untouched_postgresql_store_passes(pg_store: str) -> None:
    assert (await _codes(pg_store)) == (True, set())


@pytest.mark.parametrize("edit", sorted(EDITS))
async def test_a_schema_edit_on_postgresql_is_a_break(pg_store: str, edit: str) -> None:
    code, sql = EDITS[edit]
    await asyncio.to_thread(run_sql, pg_store, sql)
    ok, codes = await _codes(pg_store)
    assert not ok and code in codes, codes


async def test_a_role_that_cannot_build_the_reference_says_what_was_not_compared(
        pg_store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncpg

    from inspector.services import verify_pg_tables

    async def refused(store: object) -> None:
        raise asyncpg.InsufficientPrivilegeError("permission denied to create temporary tables")

    monkeypatch.setattr(verify_pg_tables, "_reference", refused)
    async with await open_store(pg_store) as opened:
        report = await verify_store(opened)
    assert report.ok
    assert any("columns and constraints" in n and "InsufficientPrivilegeError" in n for n in report.not_checked)


def test_the_expected_indexes_are_the_names_the_migrations_create() -> None:
    """An index made ``IF NOT EXISTS`` (format 7's ledger_kind) was read as an index named
    ``IF``: every PostgreSQL store then failed verify with ``schema_changed``."""
    from inspector.services.verify_pg_schema import expected
    from inspector.store.pg.schema import PG_MIGRATIONS

    indexes = expected()[2]
    assert "ledger_kind" in indexes
    assert not indexes & {"IF", "if", "NOT", "EXISTS"}
    assert any("INDEX IF NOT EXISTS" in script for _, script in PG_MIGRATIONS.values())
