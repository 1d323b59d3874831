"""``verify`` on a store with a damaged page: SQLite's integrity report can run to a hundred
lines ("Page 57 is never used" …). The person reads a short summary (the first lines and how
many more); ``--json`` keeps every line; the exit code (1) and the break's place stay."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


def _damage_root(store: Path) -> Path:
    """The material chunks' root page made an invalid b-tree page."""
    con = sqlite3.connect(store)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'material_chunks'").fetchone()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(store.read_bytes())
    data[(root - 1) * page_size] = 0x77
    store.write_bytes(bytes(data))
    return store


@pytest.fixture
def damaged(sample_store: Path) -> Path:
    """At SQLite's default 4 KiB pages (a store made before format 4, or by ``open_store``):
    every page below the damaged root is lost to SQLite's check, which lists each as never used."""
    small = sample_store.with_name("4k.db")
    with sqlite3.connect(sample_store) as con:
        con.execute("PRAGMA page_size = 4096")
        con.execute(f"VACUUM INTO '{small}'")
    with sqlite3.connect(small) as con:
        assert con.execute("PRAGMA page_size").fetchone()[0] == 4096
        con.execute("PRAGMA journal_mode = WAL")  # as a store is kept (VACUUM INTO writes a rollback journal's)
    return _damage_root(small)


def test_a_long_integrity_report_is_summarised_and_kept_whole_in_json(damaged: Path) -> None:
    before = damaged.read_bytes()
    plain = CliRunner().invoke(cli, ["verify", str(damaged)])
    assert plain.exit_code == 1, plain.output
    lines = plain.stdout.strip().splitlines()
    assert len(lines) <= 8, plain.stdout
    first = lines[0]
    assert first.startswith("BROKEN: ") and "btreeInitPage" in first and "more" in first, first
    assert "--json" in plain.stdout  # where the whole report is
    document = CliRunner().invoke(cli, ["verify", str(damaged), "--json"])
    assert document.exit_code == 1
    report = json.loads(document.stdout)
    assert report["ok"] is False and report["first_break"]["where"] == "sqlite"
    full = report["first_break"]["report"]
    assert len(full) > 20 and any("never used" in line for line in full) and "\n" not in "".join(full)
    assert "\n" not in report["first_break"]["message"]
    assert damaged.read_bytes() == before  # verify only reads


def test_a_check_sqlite_stops_on_names_the_table_it_cannot_read(sample_store: Path) -> None:
    """On a new store's 16 KiB pages SQLite's whole-file check stops with an error at the same
    damage instead of listing pages: verify checks table by table and names the table."""
    with sqlite3.connect(sample_store) as con:
        assert con.execute("PRAGMA page_size").fetchone()[0] == 16384
    damaged = _damage_root(sample_store)
    before = damaged.read_bytes()
    document = CliRunner().invoke(cli, ["verify", str(damaged), "--json"])
    assert document.exit_code == 1, document.output
    report = json.loads(document.stdout)
    first = report["first_break"]
    assert first["where"] == "sqlite" and "table material_chunks: SQLite cannot read its pages" in first["message"]
    assert "table material_chunks: SQLite cannot read its pages" in first["report"][0]
    assert damaged.read_bytes() == before
