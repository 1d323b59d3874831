"""verify while another program holds the store's write lock (store-fault-six).

verify compares the search indexes with their text through a write transaction it rolls
back (FTS5 spells that check as a write). With another program's write holding the store,
that transaction waited out the busy timeout and verify printed no report at all —
``{"error": {"code": "store_busy", …"nothing was written"}}``, exit 1 — although every other
check had run. Now it reads the index text as it does on a read-only store and reports: ok,
with what that leaves out in ``not_checked``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


def test_verify_reports_while_another_write_holds_the_store(sample_store: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 200)
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(tmp_path / "data"))
    hog = sqlite3.connect(sample_store, isolation_level=None)
    hog.execute("BEGIN IMMEDIATE")
    try:
        held = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    finally:
        hog.execute("ROLLBACK")
        hog.close()
    assert held.exit_code == 0, held.output
    report = json.loads(held.stdout)
    assert report["ok"] is True and report["problems"] == [] and report["entries"] > 0, report
    assert any("another program's write held" in line for line in report["not_checked"]), report["not_checked"]
