"""A program holding the store is killed after the store's file was moved (storefault-nine, gap 3).

A killed holder never copies its log into the file, and SQLite keeps the log at the old name
(``s.db-wal``) with no lock on it. Two ways it went wrong before:

* ``mv s.db away.db``, holder killed: ``sessions s.db`` said only "no store at s.db"; ``import
  --into s.db`` made a new store there and, when it failed or closed, removed ``s.db-wal`` —
  the holder's last acts, which belong to away.db, gone for good. Now ``orphan_wal`` (exit 3),
  nothing made or removed, and moved beside away.db the log gives it its acts back.
* ``mv backup.db s.db`` of a backup older than the file the log was written on, holder killed:
  the next open laid the log's pages over the backup (its ledger chains on from the backup's last
  entry) — the restore undone, pages of two states mixed. Now ``foreign_wal``: the log's commits
  lead further from the file's commit count than the log holds commits.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from tests.test_store_faults import _child

_HOLDER = """
import asyncio, sys
from inspector.services.candidates import reject
from inspector.store.connection import open_store

async def main():
    store = await open_store(sys.argv[1])
    await reject(store, sys.argv[2], actor="holder", reason="stale")  # in the log, not the file
    print("acted", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _hold_and_act(store: Path, candidate: str) -> subprocess.Popen[str]:
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(store), candidate], stdout=subprocess.PIPE,
                              text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert holder.stdout is not None and holder.stdout.readline().strip() == "acted"
    return holder


def _kill(holder: subprocess.Popen[str]) -> None:
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)


def _entries(store: Path) -> int:
    with closing(sqlite3.connect(f"file:{store}?immutable=1", uri=True)) as db:
        return int(db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])


def _folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


def test_a_store_moved_away_under_a_killed_holder_keeps_its_log_and_says_whose(sample_store: Path,
                                                                              tmp_path: Path) -> None:
    away = tmp_path / "away.db"
    entries = _entries(sample_store)
    holder = _hold_and_act(sample_store, "cand-goal")
    os.replace(sample_store, away)
    _kill(holder)
    wal = Path(f"{sample_store}-wal")
    assert wal.stat().st_size > 0  # the holder's act, only here
    before = _folder(tmp_path)
    listed = _child(["sessions", str(sample_store), "--json"])
    assert listed.returncode == 3 and json.loads(listed.stdout)["error"]["code"] == "orphan_wal", listed.stdout
    assert "samples.db-wal" in json.loads(listed.stdout)["error"]["message"]
    made = _child(["import", str(Path(__file__).parents[1] / "sample_sessions" / "01_export_timeout.jsonl"),
                   "--into", str(sample_store), "--json"])
    assert made.returncode == 3 and json.loads(made.stdout)["error"]["code"] == "orphan_wal", made.stdout
    assert _folder(tmp_path) == before  # nothing made at s.db, the log not removed
    os.replace(wal, Path(f"{away}-wal"))  # what the refusal says to do
    Path(f"{sample_store}-shm").unlink(missing_ok=True)
    assert _child(["verify", str(away)]).returncode == 0
    assert _entries(away) == entries + 1  # the holder's act is away.db's


def test_an_older_backup_moved_over_under_a_killed_holder_is_not_opened_through_its_log(
        sample_store: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    entries = _entries(backup)
    holder = _hold_and_act(sample_store, "cand-goal")
    with closing(sqlite3.connect(sample_store)) as db:  # the log copied into the file, then started again
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    second = _hold_and_act(sample_store, "cand-space")
    _kill(second)
    shutil.copyfile(backup, tmp_path / "put.db")
    os.replace(tmp_path / "put.db", sample_store)  # `mv` of a copy of the backup over the store
    _kill(holder)
    before = _folder(tmp_path)
    done = _child(["sessions", str(sample_store), "--json"])
    assert done.returncode == 3, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "foreign_wal" and "later state" in error["message"], error
    shm = f"{sample_store.name}-shm"  # SQLite's index of the log, rebuilt by the check's read: not data
    assert {k: v for k, v in _folder(tmp_path).items() if k != shm} == {k: v for k, v in before.items() if k != shm}
    assert sample_store.read_bytes() == backup.read_bytes() and _entries(sample_store) == entries


def test_a_copy_byte_for_byte_the_file_moved_over_under_a_killed_holder_takes_its_log(
        sample_store: Path, tmp_path: Path) -> None:
    """Guard: the log was written against exactly these bytes (no checkpoint since the copy), so it
    is the file's own (store/file_content.py says why): opened, its act there, verify ok."""
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    entries = _entries(backup)
    holder = _hold_and_act(sample_store, "cand-goal")
    shutil.copyfile(backup, tmp_path / "put.db")
    os.replace(tmp_path / "put.db", sample_store)
    _kill(holder)
    assert _child(["verify", str(sample_store)]).returncode == 0
    with closing(sqlite3.connect(sample_store)) as db:
        assert db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == entries + 1
