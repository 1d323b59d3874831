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


@pytest.fixture
def damaged(sample_store: Path) -> Path:
    """The material chunks' root page made an invalid b-tree page: every page below it is lost
    to SQLite's check, which then lists each as never used."""
    con = sqlite3.connect(sample_store)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'material_chunks'").fetchone()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(sample_store.read_bytes())
    data[(root - 1) * page_size] = 0x77
    sample_store.write_bytes(bytes(data))
    return sample_store


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
