"""A usage error on an older store writes nothing (review-14).

The hint for a missing ``--session`` opened the store as ``sessions`` does, and opening a store
of an older format migrates it: ``inspector search old.db x`` (exit 2, "Missing option
'--session'") moved a format-6 store made by the previous version to format 7.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.store.schema import FORMAT_VERSION
from tests.conftest import event_record, session_record, write_sif


def test_a_missing_session_leaves_an_older_store_as_it_was(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", [session_record("only-one"), event_record(1, "only-one")]),
                            store, actor="t"))
    db = sqlite3.connect(store)
    db.execute(f"PRAGMA user_version = {FORMAT_VERSION - 1}")  # a store the previous version made
    db.commit()
    db.close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = CliRunner().invoke(cli, ["search", str(store), "x"])
    assert result.exit_code == 2, result.output
    assert "Missing option '--session'" in result.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # not migrated, nothing beside it
