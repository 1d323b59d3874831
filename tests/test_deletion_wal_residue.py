"""A deletion whose checkpoint copied the log into the file but could not empty it (a program
reading the store: the app, a second window) — store-fault-seven, found 3.

The file is clean, but the log's older frames (the import's, in the same generation of the log)
still hold the phone number, and nothing named or finished it: ``deletion_residue`` looked only
at the file's ledger head. Now the deletion leaves a note beside the store, the next writable
open empties the log once the reader has gone and says so (``deletion_finished``), and while the
reader stays, the open names the ``-wal`` (``deleted_text_in_file``, ``where: wal``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

PHONE = b"138-0013-8000"  # in 05_privacy_deletion
SAMPLE = Path(__file__).resolve().parent.parent / "sample_sessions" / "05_privacy_deletion.jsonl"


async def _deleted_with_a_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, sqlite3.Connection]:
    """The store, and a reader connection (idle now) that held a snapshot during the deletion's checkpoint."""
    store = tmp_path / "s.db"
    async with await open_store(store, create=True):
        pass
    reader = sqlite3.connect(store, check_same_thread=False)  # keeps the log: no close of ours is the last
    reader.execute("SELECT COUNT(*) FROM ledger").fetchall()
    await import_file(SAMPLE, store, actor="zhou")  # the phone number is written into the log's frames
    real = deletions.checkpoint

    async def with_a_reader(opened):  # type: ignore[no-untyped-def]
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM ledger").fetchall()  # a snapshot after the deletion's commit
        await opened.db.execute("PRAGMA busy_timeout = 50")
        return await real(opened)

    monkeypatch.setattr(deletions, "checkpoint", with_a_reader)
    async with await open_store(store) as opened:
        result = await deletions.delete(opened, "del-1", actor="zhou")
    monkeypatch.undo()
    assert not result.wal_truncated
    wal = Path(f"{store}-wal")
    assert PHONE not in store.read_bytes() and PHONE in wal.read_bytes()  # the case: only the log holds it
    return store, reader


async def test_the_next_open_empties_the_log_once_the_reader_is_gone(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store, reader = await _deleted_with_a_reader(tmp_path, monkeypatch)
    try:
        reader.rollback()  # the reader's snapshot ends; the program stays open
        async with await open_store(store) as opened:
            assert PHONE not in Path(f"{store}-wal").read_bytes()
            assert opened.deleted_text_in_file is None
            assert opened.deletion_finished is not None and "-wal file" in opened.deletion_finished["message"]
            report = await verify_store(opened)
        assert report.ok and any("finished carrying out deletion 'del-1'" in n for n in report.notes())
        assert not Path(f"{store}-deletion").exists()
    finally:
        reader.close()


async def test_while_the_reader_stays_the_open_names_the_wal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, reader = await _deleted_with_a_reader(tmp_path, monkeypatch)
    try:
        async with await open_store(store) as opened:  # the reader still holds its snapshot
            said = opened.deleted_text_in_file
            assert said is not None and said["where"] == "wal" and said["request"] == "del-1"
            assert "-wal file" in said["message"]
            report = await verify_store(opened)
        assert report.ok and report.as_dict()["deleted_text_in_file"]["where"] == "wal"
    finally:
        reader.close()
