"""verify against JSON text rewritten in a form the digests cannot see (docs/reviews/untrusted-five.md).

A row's digest and a ledger entry's hash are computed over the *parsed* JSON (the canonical
text of the value Python's parser returns). Python keeps a repeated key's last value, SQLite's
``json_extract`` its first. So ``{"evidence":"evt:99","reason":"…forged…", …the real payload…}``
hashes exactly as the real entry did — the chain, the seals and a pinned head all hold — while
every SQL read of it (``actions``' reconciliation, ``history``, which entry holds a seal, the
timeline's filters, the budget, the protocol check) shows the forged values. Before: verify said
ok to each edit below. Now: ``ledger_text_differs`` / ``row_text_differs``, exit 1.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.backend_sql import run_sql


def _run(*args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "olga"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def _codes(store: Path) -> tuple[int, set[str]]:
    code, doc = _run("verify", str(store))
    return code, {p["code"] for p in doc.get("problems", [])} | (
        {doc["first_break"]["code"]} if doc.get("first_break") else set())


def _first_key_prepended(store: Path, table: str, column: str, where: str, extra: dict[str, Any]) -> None:
    """The column's JSON object with ``extra``'s keys written again in front of it (a repeated key)."""
    con = sqlite3.connect(store)
    text = con.execute(f"SELECT {column} FROM {table} WHERE {where}").fetchone()[0]
    con.close()
    forged = json.dumps(extra, separators=(",", ":"), ensure_ascii=False)[:-1] + "," + text[1:]
    assert json.loads(forged) == json.loads(text)  # Python reads the real value: the digest holds
    run_sql(store, f"UPDATE {table} SET {column} = '{forged.replace(chr(39), chr(39) * 2)}' WHERE {where}",
            guards_off=True)


def test_a_reconciliation_rewritten_with_repeated_keys_is_a_break(sample_store: Path) -> None:
    store = str(sample_store)
    assert _run("reconcile", store, "a7", "--status", "failed", "--evidence", "evt:5",
                "--reason", "migration log shows rollback")[0] == 0
    _, head = _run("verify", store)
    _first_key_prepended(sample_store, "ledger", "payload", "kind = 'action.reconcile'",
                         {"evidence": "evt:99", "reason": "the owner checked prod: it succeeded", "role": "owner"})
    shown = next(a for a in _run("actions", store, "--session", "s-orders")[1] if a["id"] == "a7")["reconciled"]
    assert shown["reason"] == "the owner checked prod: it succeeded"  # what the edit makes every SQL read show
    code, codes = _codes(sample_store)
    assert code == 1 and "ledger_text_differs" in codes, codes
    # the hash still matches: a pinned head cannot see it either
    assert head["head"] == _run("verify", store)[1]["head"]


def test_an_events_extra_with_a_repeated_key_is_a_break(sample_store: Path) -> None:
    where = "session = 's-weather' AND seq = 7"
    _first_key_prepended(sample_store, "events", "extra", where, {"tools_present": False})
    con = sqlite3.connect(sample_store)
    assert con.execute(f"SELECT json_extract(extra, '$.tools_present') FROM events WHERE {where}").fetchone()[0] == 0
    con.close()
    code, codes = _codes(sample_store)
    assert code == 1 and "row_text_differs" in codes, codes


@pytest.mark.parametrize(("table", "column", "where"), [
    ("summaries", "claims", "claims IS NOT NULL AND claims LIKE '[{%'"),
    ("state_records", "extra", "extra <> '{}'"),
])
def test_a_json_column_respelled_is_a_break(sample_store: Path, table: str, column: str, where: str) -> None:
    con = sqlite3.connect(sample_store)
    row = con.execute(f"SELECT rowid, {column} FROM {table} WHERE {where} LIMIT 1").fetchone()
    con.close()
    if row is None:
        pytest.skip(f"no {table}.{column} to respell in the samples")
    rowid, text = row
    value = json.loads(text)
    respelled = json.dumps(value, ensure_ascii=False, indent=1)  # the same value, spaced: same digest
    assert json.loads(respelled) == value and respelled != text
    run_sql(sample_store, f"UPDATE {table} SET {column} = '{respelled.replace(chr(39), chr(39) * 2)}' "
                          f"WHERE rowid = {rowid}", guards_off=True)
    code, codes = _codes(sample_store)
    assert code == 1 and "row_text_differs" in codes, codes


def test_the_untouched_samples_verify(sample_store: Path) -> None:
    """Control: every row and entry the inspector writes is in its canonical text."""
    assert _codes(sample_store) == (0, set())
