"""A log whose commits only changed rows (no schema change, the ledger untouched) is refused
when another program made them, and read when the inspector did (store/wal_commits.py).

Before: a copy of the store, a row changed in it with ``sqlite3``, its ``-wal`` moved beside
the original — the schema check and the ledger-head check both passed, and opening the store
wrote the copy's edit into it (nothing said so until someone ran ``verify``).
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.corrections import correct
from inspector.services.importing import import_file
from inspector.store import wal_commits
from inspector.store.connection import open_store

SAMPLE = Path(__file__).resolve().parent.parent / "sample_sessions" / "01_export_timeout.jsonl"


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "rita"}, prog_name="inspector")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout_bytes.decode() + result.stderr_bytes.decode()


def _store(folder: Path) -> Path:
    store = folder / "s.db"
    asyncio.run(import_file(SAMPLE, store, actor="tester"))
    return store


def _copys_log(store: Path, folder: Path, *, inspector_first: bool = False, edit: bool = True) -> bytes:
    """The -wal of a copy of ``store`` in which a row was changed by plain sqlite3 (after a correction
    made by the inspector, with ``inspector_first``), read while the copy was still open."""
    copy = folder / "copy.db"
    shutil.copy(store, copy)

    async def write() -> bytes:
        async with await open_store(copy) as opened:
            await opened.db.execute("PRAGMA wal_autocheckpoint = 0")
            if inspector_first:
                await correct(opened, "s-export", "constraint.from_copy", "written by the inspector", reason="r",
                              actor="rita", kind="constraint")
            if edit:
                db = sqlite3.connect(copy)
                db.execute("PRAGMA wal_autocheckpoint = 0")
                db.execute("UPDATE state_records SET value = '\"谨慎修改生产数据\"' WHERE key = 'constraint.prod'")
                db.commit()
                db.close()
            return Path(f"{copy}-wal").read_bytes()

    return asyncio.run(write())


def _value(store: Path) -> str:
    db = sqlite3.connect(f"file:{store}?immutable=1", uri=True)
    try:
        return str(db.execute("SELECT value FROM state_records WHERE key = 'constraint.prod'").fetchone()[0])
    finally:
        db.close()


def test_a_copys_log_that_changed_a_row_is_refused_and_the_store_kept(tmp_path: Path) -> None:
    store = _store(tmp_path)
    (tmp_path / "other").mkdir()
    before, original = _value(store), store.read_bytes()
    for inspector_first in (False, True):
        Path(f"{store}-wal").write_bytes(_copys_log(store, tmp_path / "other", inspector_first=inspector_first))
        for args in (("sessions", str(store)), ("verify", str(store))):
            code, out = _invoke(*args)
            assert code == 3 and "s.db-wal lies beside the store" in out, (inspector_first, args, out)
            assert "1 of its commits was not made by Context Inspector" in out, out
        assert store.read_bytes() == original and _value(store) == before
        Path(f"{store}-wal").unlink()
    assert _invoke("verify", str(store))[0] == 0


def test_a_log_of_the_inspectors_own_commits_is_read(tmp_path: Path) -> None:
    """The store's own log (a crash left it) is read as ever: every commit in it carries the mark."""
    store = _store(tmp_path)
    (tmp_path / "other").mkdir()
    Path(f"{store}-wal").write_bytes(_copys_log(store, tmp_path / "other", inspector_first=True, edit=False))
    code, out = _invoke("history", str(store), "--session", "s-export", "--key", "constraint.from_copy")
    assert code == 0 and "written by the inspector" in out, out
    assert _invoke("verify", str(store))[0] == 0


def test_a_torn_commit_sqlite_would_not_replay_is_not_counted(tmp_path: Path) -> None:
    """A commit whose frame fails its checksum (a crash tore it) is dropped by SQLite: not a foreign commit."""
    store = _store(tmp_path)
    (tmp_path / "other").mkdir()
    log = bytearray(_copys_log(store, tmp_path / "other", inspector_first=True))
    wal = Path(f"{store}-wal")
    wal.write_bytes(log)
    found = wal_commits.commits(wal, checked=True)
    assert len(found) == 2  # the inspector's correction, then the sqlite3 edit
    page_size = int.from_bytes(log[8:12], "big")
    log[-page_size // 2] ^= 0xFF  # inside the last frame's page: the edit's commit frame
    wal.write_bytes(log)
    assert len(wal_commits.commits(wal, checked=True)) == 1
    code, out = _invoke("history", str(store), "--session", "s-export", "--key", "constraint.from_copy")
    assert code == 0 and "written by the inspector" in out, out


def test_a_row_changed_by_a_program_that_still_holds_the_store_is_named_by_verify(tmp_path: Path) -> None:
    """Its commit is in the store's own live log: moving that log away (the refusal's advice) would
    lose it, so the store opens and verify names the edit, as before the mark."""
    import subprocess
    import sys

    store = _store(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute('PRAGMA wal_autocheckpoint = 0'); "
        "db.execute(\"UPDATE state_records SET value = '1' WHERE key = 'constraint.prod'\"); db.commit(); "
        "print('held', flush=True); sys.stdin.read()"), str(store)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        code, out = _invoke("verify", str(store))
        assert code == 1 and "state" in out and "not made by Context Inspector" not in out, out
    finally:
        holder.communicate("")
