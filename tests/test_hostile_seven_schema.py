"""A table and a trigger the format does not make (hostile review seven).

verify compared the store's schema with the format's, but read it with ``name NOT LIKE
'sqlite_%'``: LIKE's ``_`` matches any character and LIKE ignores case, so every object whose
name starts ``sqlite`` + one more character (``sqlitexcopy``, ``SQLITE1t`` — names SQLite lets
anyone create) was never compared. Before: a table ``sqlitexcopy`` and a trigger copying every new
event into it passed verify (exit 0); an import then put a phone number into it, ``delete`` said
"done", verify still said ok, and the number stayed in the ``.db``. And a deletion never looked at
the schema at all: with a trigger of any name, it removed what it knew and left the copy.
Now: verify reports ``schema_changed`` for them, and ``delete`` refuses ``schema_changed`` while the
store holds an object the format does not make (the listing warns), nothing removed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.backend_sql import run_sql
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
PHONE = "13912345678"
COPYING = ("CREATE TABLE {table}(c)",
           "CREATE TRIGGER {trigger} AFTER INSERT ON events BEGIN INSERT INTO {table} VALUES (new.content); END")


def _run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("edit", [
    ["CREATE TABLE sqlitexcopy(c)"],
    ["CREATE VIEW SQLITE1v AS SELECT 1"],
    [s.format(table="sqlite0copy", trigger="sqlitextrig") for s in COPYING],
])
def test_an_object_named_like_sqlites_own_is_compared(sample_store: Path, edit: list[str]) -> None:
    assert _run("verify", str(sample_store))[0] == 0
    run_sql(sample_store, *edit)
    code, doc = _run("verify", str(sample_store))
    assert code == 1, doc
    assert doc["first_break"]["code"] == "schema_changed", doc


def test_the_planners_statistics_stay_out_of_the_comparison(sample_store: Path) -> None:
    run_sql(sample_store, "ANALYZE")
    assert _run("verify", str(sample_store))[0] == 0


def _secret_session(tmp_path: Path) -> Path:
    return write_sif(tmp_path / "secret.jsonl", [
        {"type": "session", "id": "s-sec", "title": "t", "owner": "o", "created_at": AT},
        {"type": "event", "session": "s-sec", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
         "content": f"call me on {PHONE} tomorrow"},
        {"type": "event", "session": "s-sec", "seq": 2, "kind": "assistant_message", "trust": "model", "at": AT,
         "content": "noted"},
        {"type": "deletion_request", "session": "s-sec", "id": "del-sec", "targets": ["evt:1"],
         "requested_by": "user", "reason": "remove my number"},
    ])


@pytest.mark.parametrize("names", [("sqlitexcopy", "sqlitextrig"), ("shadow", "keep_a_copy")])
def test_a_deletion_refuses_while_a_table_it_does_not_know_may_hold_a_copy(
        sample_store: Path, tmp_path: Path, names: tuple[str, str]) -> None:
    table, trigger = names
    run_sql(sample_store, *(s.format(table=table, trigger=trigger) for s in COPYING))
    assert _run("import", str(_secret_session(tmp_path)), "--into", str(sample_store), "--reviewer", "r")[0] == 0
    assert run_sql(sample_store, f"SELECT COUNT(*) FROM {table} WHERE c LIKE '%{PHONE}%'")[0] == [(1,)]

    code, listing = _run("deletion", str(sample_store), "del-sec")
    assert any(table in w and "format does not make" in w for w in listing["warnings"]), listing
    before = sample_store.read_bytes()
    code, doc = _run("delete", str(sample_store), "del-sec", "--reviewer", "r")
    assert code == 1, doc
    assert [r["code"] for r in doc["refusals"]] == ["schema_changed"], doc
    assert table in doc["refusals"][0]["message"] and trigger in doc["refusals"][0]["message"]
    assert sample_store.read_bytes() == before  # nothing removed, nothing written
    code, doc = _run("verify", str(sample_store))
    assert code == 1 and doc["first_break"]["code"] == "schema_changed", doc


def test_a_deletion_on_an_untouched_schema_is_carried_out(sample_store: Path, tmp_path: Path) -> None:
    assert _run("import", str(_secret_session(tmp_path)), "--into", str(sample_store), "--reviewer", "r")[0] == 0
    code, doc = _run("delete", str(sample_store), "del-sec", "--reviewer", "r")
    assert code == 0 and doc["status"] == "done", doc
    assert PHONE.encode() not in sample_store.read_bytes()
    assert _run("verify", str(sample_store))[0] == 0
