"""verify's column-type check against a table someone added (review-14).

The check read every table of the file: a table named with a double quote made its own
statement fail, and verify said "SQLite cannot read the store past this point … restore from a
copy" (sqlite_unreadable, 0 entries) of a store whose rows were all intact; an added table
holding a value of another type was "the type the inspector writes there" though the inspector
writes nothing there, and verify stopped before the schema check named the table. Now the
schema check says what was added (schema_changed), and the rows are still checked.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli

ADDED = {
    "quote in the table's name": ('CREATE TABLE "x""y" (a TEXT); INSERT INTO "x""y" VALUES (1)', 'table x"y'),
    "quote in a column's name": ('CREATE TABLE z ("a""b" TEXT); INSERT INTO z VALUES (1)', "table z"),
    "another type in an added table": ("CREATE TABLE w (a TEXT); INSERT INTO w VALUES (x'00')", "table w"),
}


@pytest.mark.parametrize("case", sorted(ADDED))
def test_an_added_table_is_named_by_the_schema_check(sample_store: Path, case: str) -> None:
    sql, named = ADDED[case]
    db = sqlite3.connect(sample_store)
    db.executescript(sql)
    db.commit()
    db.close()
    result = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1, doc
    assert [p["code"] for p in doc["problems"]] == ["schema_changed"], doc["problems"]
    assert f"added: {named}" in doc["problems"][0]["message"]
    assert doc["entries"] > 0, "the ledger was still read: the rows are intact"
