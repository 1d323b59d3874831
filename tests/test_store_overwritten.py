"""A store file overwritten in place (``cp other.db s.db``: same inode) while a store is open
on it (store-fault-six).

``check_file`` compared device, inode and size: a copy at least as long as the store passed,
and the next act "succeeded" — written over a mix of the new file and the old store's log
(a reject said ``rejected``, then ``verify`` found the file damaged). Now a file written since
the last look is asked for its digest key (read without the log): another store's key refuses
the act ``store_file_replaced``, nothing written. A checkpoint by another process (the same
store's key) still writes as before.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from inspector.domain.errors import StoreFileChanged
from inspector.services.candidates import reject
from inspector.store.connection import open_store


def _status(store: Path, candidate: str) -> str:
    with sqlite3.connect(f"file:{store}?immutable=1", uri=True) as db:
        return str(db.execute("SELECT status FROM candidates WHERE id = ?", (candidate,)).fetchone()[0])


def _copy_over(source: Path, target: Path) -> None:
    """What ``cp -p source target`` does to an existing target: same inode, new bytes and times."""
    with source.open("rb") as fh, target.open("r+b") as out:
        out.truncate(0)
        out.write(fh.read())
    shutil.copystat(source, target)


@pytest.mark.parametrize("act_after", [True, False])
async def test_another_stores_file_copied_over_an_open_store_refuses_the_next_act(
        sample_store: Path, tmp_path: Path, act_after: bool) -> None:
    other = tmp_path / "other.db"
    shutil.copyfile(sample_store, other)
    db = sqlite3.connect(other)  # another store: same rows, a key of its own (closed: in the file, not its log)
    db.execute("UPDATE store_meta SET value = ? WHERE key = 'digest_key'", ("ab" * 32,))
    db.commit()
    db.close()
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")  # the store's log now holds a commit
        inode = sample_store.stat().st_ino
        _copy_over(other, sample_store)
        assert sample_store.stat().st_ino == inode and sample_store.stat().st_size >= other.stat().st_size
        if act_after:  # else only closed (the app read it, or the reviewer quit): the copy must survive that too
            with pytest.raises(StoreFileChanged) as refused:
                await reject(store, "cand-stale", actor="lin", reason="stale")
            assert refused.value.code == "store_file_replaced"
            assert "overwritten by another store's file" in refused.value.message
            assert "nothing was written" in refused.value.message
    # closing did not checkpoint the old store's log into the copy: it is byte for byte the other store
    assert sample_store.read_bytes() == other.read_bytes()
    assert not Path(f"{sample_store}-wal").exists()
    assert _status(sample_store, "cand-stale") == "pending"


async def test_the_same_stores_file_written_by_another_process_still_takes_acts(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        db = sqlite3.connect(sample_store)  # another program's commit and checkpoint: the same store's file
        db.execute("INSERT INTO store_meta(key, value) VALUES ('commits', '1') "
                   "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
        db.commit()
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()
        later = sample_store.stat().st_mtime_ns + 1_000_000_000
        os.utime(sample_store, ns=(later, later))  # written since the store's last look, whatever the clock's tick
        decided = await reject(store, "cand-stale", actor="lin", reason="stale")
        assert decided.validation.status == "rejected"


async def test_a_check_that_raises_at_close_still_ends_every_connection(sample_store: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The overwritten-file check at close raised on a store path that is not UTF-8 (its URI was
    built from ``str``): the error went up before the connections closed, their threads kept the
    process waiting for ever (CI: ``import --into store-\\xff.db`` timed out)."""
    store = await open_store(sample_store)
    every = [*store._idle, *store._lent, store._reader, *([store._writer] if store._writer else [])]

    def broken() -> bool:
        raise UnicodeEncodeError("utf-8", "\udcff", 0, 1, "surrogates not allowed")

    monkeypatch.setattr(store, "_overwritten", broken)
    with pytest.raises(UnicodeEncodeError):
        await store.close()
    for connection in every:  # asked to stop: its thread ends once its queue is done
        connection._thread.join(timeout=30)
    assert every and not any(c._thread.is_alive() for c in every)
