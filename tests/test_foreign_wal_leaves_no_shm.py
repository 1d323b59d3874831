"""A refused foreign ``-wal`` leaves the store's folder as it found it: no ``-shm`` made by the check.

Checking whether a log beside a store is its own reads the store through the log (``mode=ro``),
and SQLite makes a ``-shm`` index to read a log: a refused open ("nothing was opened") left that
file behind, and the refusal then told the person to move away a file that had not been there.
Bad input changes nothing on disk (DESIGN rule 7), so the check removes the ``-shm`` it made —
only when no other process has the store open (one that has uses that index).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli


def _wal_only_edit(store: Path, into: Path) -> Path:
    """A copy of ``store`` whose last commit — another program's edit — is only in its -wal (no -shm)."""
    con = sqlite3.connect(store)
    con.isolation_level = None
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute("BEGIN")  # an edit by another program: a commit without the inspector's mark
    con.execute("DROP TRIGGER events_no_update")
    con.execute("UPDATE events SET content = content || ' (edited)' WHERE rowid = (SELECT MIN(rowid) FROM events "
                "WHERE content IS NOT NULL)")
    con.execute("COMMIT")
    copy = into / "s.db"
    into.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{store}{suffix}", f"{copy}{suffix}")
    con.close()
    return copy


def _refused(path: Path, *command: str) -> str:
    result = CliRunner().invoke(cli, [*command, str(path), "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "foreign_wal"
    return str(error["message"])


def test_a_refused_foreign_wal_leaves_the_folder_as_it_was(sample_store: Path, tmp_path: Path) -> None:
    copy = _wal_only_edit(sample_store, tmp_path / "edited")
    before = sorted(os.listdir(copy.parent))
    assert before == ["s.db", "s.db-wal"]
    said = _refused(copy, "verify")
    assert "move s.db-wal away" in said  # no index to move: none is there
    _refused(copy, "sessions")
    assert sorted(os.listdir(copy.parent)) == before
    Path(f"{copy}-shm").write_bytes(b"")  # one there before (whoever made the log left it): not the check's
    assert "move s.db-wal (and s.db-shm) away" in _refused(copy, "verify")
    assert sorted(os.listdir(copy.parent)) == ["s.db", "s.db-shm", "s.db-wal"]


def test_another_databases_log_is_refused_leaving_the_folder_as_it_was(sample_store: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    shutil.copy(sample_store, other)
    con = sqlite3.connect(other)
    con.isolation_level = None
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute("CREATE TABLE extra(x)")  # a table no migration makes: another database's log
    folder = tmp_path / "laid"
    folder.mkdir()
    shutil.copy(sample_store, folder / "s.db")
    shutil.copy(f"{other}-wal", folder / "s.db-wal")
    con.close()
    before = sorted(os.listdir(folder))
    _refused(folder / "s.db", "verify")
    assert sorted(os.listdir(folder)) == before
