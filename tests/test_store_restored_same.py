"""A backup of the *same* store put back over it while it is open (``cp backup.db s.db``, the
usual restore: same inode, the same digest key), then an act or only a close (review-14, seen 4).

``store_file_replaced`` only caught another store's key. The restore passed: an act after it
said ``rejected`` on a mix of the restored file and the old log, and closing checkpointed the old
log over the restored copy — the restore was silently undone. Now a file written since the last
look while no checkpoint ran (the log's index says how far the log was copied into the file)
is one written by something other than SQLite: the act is refused, and closing forgets the old
log, so the restored copy stays byte for byte. A checkpoint by another process still writes
(tests/test_store_overwritten.py).
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from inspector.domain.errors import StoreFileChanged
from inspector.services.candidates import reject
from inspector.services.sessions import ChangeWatch
from inspector.store.connection import open_store


def _status(store: Path, candidate: str) -> str:
    with sqlite3.connect(f"file:{store}?immutable=1", uri=True) as db:
        return str(db.execute("SELECT status FROM candidates WHERE id = ?", (candidate,)).fetchone()[0])


def _copy_over(source: Path, target: Path) -> None:
    """What ``cp source target`` does to an existing target: same inode, new bytes and times."""
    with source.open("rb") as fh, target.open("r+b") as out:
        out.truncate(0)
        out.write(fh.read())


@pytest.mark.parametrize("act_after", [True, False])
async def test_a_backup_of_the_same_store_put_back_under_it_is_not_undone(
        sample_store: Path, tmp_path: Path, act_after: bool) -> None:
    """A backup from before a checkpoint put back (its bytes differ from the file's): refused, and
    closing forgets the old log, so the restore stands byte for byte."""
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)  # the copy a reviewer keeps: the file as it is at open
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        db = sqlite3.connect(sample_store)  # the log copied into the file: it now differs from the backup
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()
        await reject(store, "cand-space", actor="lin", reason="stale")  # the store looks at the file; in its log
        inode = sample_store.stat().st_ino
        _copy_over(backup, sample_store)
        assert sample_store.stat().st_ino == inode
        if act_after:
            with pytest.raises(StoreFileChanged) as refused:
                await reject(store, "cand-stale", actor="lin", reason="stale")
            assert refused.value.code == "store_file_replaced"
            assert "put back" in refused.value.message and "nothing was written" in refused.value.message
    assert sample_store.read_bytes() == backup.read_bytes()  # the restore stands: no old log checkpointed over it
    assert not Path(f"{sample_store}-wal").exists()
    [kept] = sample_store.parent.glob("samples.db-wal.*.kept")  # what the log held stays recoverable
    assert kept.stat().st_size > 0
    assert _status(sample_store, "cand-goal") == "pending" and _status(sample_store, "cand-stale") == "pending"


@pytest.mark.parametrize("act_after", [True, False])
async def test_a_copy_byte_for_byte_the_file_put_back_changes_nothing(
        sample_store: Path, tmp_path: Path, act_after: bool) -> None:
    """review-14's copy, taken while the acts were only in the log, is byte for byte the file: the
    log was written against exactly these bytes and still belongs to them. It was refused by its
    times (unless they were one instant); now the contents decide (storefault-nine): nothing changed,
    the acts stay, nothing is kept aside."""
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")  # in the store's log, not yet its file
        _copy_over(backup, sample_store)
        if act_after:
            assert (await reject(store, "cand-stale", actor="lin", reason="stale")).validation.status == "rejected"
    assert _status(sample_store, "cand-goal") == "rejected"
    assert _status(sample_store, "cand-stale") == ("rejected" if act_after else "pending")
    assert not list(sample_store.parent.glob("*.kept"))


async def test_an_older_shorter_backup_put_back_is_said_as_put_back_not_cut(sample_store: Path, tmp_path: Path) -> None:
    """A backup from before the store grew is shorter than the file: it was refused as
    ``store_file_cut`` ("was cut"), and closing checkpointed the log into it."""
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    async with await open_store(sample_store) as store:
        db = sqlite3.connect(sample_store)  # the store grows and its log is copied into the file
        db.execute("CREATE TABLE IF NOT EXISTS filler(x BLOB)")
        db.execute("INSERT INTO filler VALUES (zeroblob(200000))")
        db.commit()
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()
        await reject(store, "cand-goal", actor="lin", reason="stale")  # the store looks at the grown file
        assert sample_store.stat().st_size > backup.stat().st_size
        _copy_over(backup, sample_store)
        with pytest.raises(StoreFileChanged) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
        assert refused.value.code == "store_file_replaced" and "put back" in refused.value.message
    assert sample_store.read_bytes() == backup.read_bytes()


_HOLD_CKPT_LOCK = """
import fcntl, os, struct, sys
fd = os.open(sys.argv[1] + "-shm", os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, 121, 1, 0))
print("held", flush=True)
sys.stdin.readline()
"""


async def test_a_file_written_while_another_process_checkpoints_still_takes_acts(sample_store: Path) -> None:
    """A checkpointer writes the file first and records how far it got after: between the two the
    file's times have changed and the mark has not. Its lock says a checkpoint is under way."""
    import subprocess
    import sys

    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        holder = subprocess.Popen([sys.executable, "-c", _HOLD_CKPT_LOCK, str(sample_store)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            with sample_store.open("r+b") as out:  # the checkpointer's write (same bytes, new times)
                out.write(sample_store.read_bytes()[:100])
            decided = await reject(store, "cand-stale", actor="lin", reason="stale")
            assert decided.validation.status == "rejected"
        finally:
            holder.communicate("\n", timeout=30)
    assert _status(sample_store, "cand-stale") == "rejected"


async def test_a_chmod_under_an_open_store_is_not_a_copy(sample_store: Path) -> None:
    """Guard (passes before and after): only the inode's change time moves — the log still
    belongs to the file, and is not forgotten."""
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        sample_store.chmod(0o600)
        await reject(store, "cand-stale", actor="lin", reason="stale")
    assert _status(sample_store, "cand-goal") == "rejected" and _status(sample_store, "cand-stale") == "rejected"


@pytest.mark.parametrize("act_after", [True, False])
async def test_a_touch_of_an_open_store_is_not_a_copy_put_back(sample_store: Path, act_after: bool) -> None:
    """``touch`` (access and modification times set to one instant, the bytes unchanged) was
    taken for a byte-identical backup put back: the next act was refused ``store_file_replaced``
    and closing forgot the store's own log (kept only as ``.kept``; store-fault-seven, found 1).
    The bytes are compared with those of the last look (store/file_content.py)."""
    import os

    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        later = sample_store.stat().st_mtime_ns + 1_000_000_000
        os.utime(sample_store, ns=(later, later))  # what touch does: both times, one instant
        if act_after:
            decided = await reject(store, "cand-stale", actor="lin", reason="stale")
            assert decided.validation.status == "rejected"
    assert _status(sample_store, "cand-goal") == "rejected"
    assert _status(sample_store, "cand-stale") == ("rejected" if act_after else "pending")
    assert not list(sample_store.parent.glob("*.kept"))


async def test_an_older_backup_put_back_with_touch_times_is_still_a_copy(sample_store: Path, tmp_path: Path) -> None:
    """Guard (refused before and after): a copy whose bytes differ from the file's at the last
    look is a copy put back, even with both times one instant (``cp -p``, or a touch after it)."""
    import os

    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        db = sqlite3.connect(sample_store)  # the log copied into the file: it now differs from the backup
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()
        await reject(store, "cand-stale", actor="lin", reason="stale")  # the store looks at the file
        _copy_over(backup, sample_store)
        later = sample_store.stat().st_mtime_ns + 1_000_000_000
        os.utime(sample_store, ns=(later, later))
        with pytest.raises(StoreFileChanged) as refused:
            await reject(store, "cand-good", actor="lin", reason="stale")
        assert refused.value.code == "store_file_replaced"
    assert sample_store.read_bytes() == backup.read_bytes()


async def test_a_read_that_fails_after_a_copy_put_back_says_the_copy(sample_store: Path, tmp_path: Path) -> None:
    """A read after the copy sees a mix of the copy and the old log (or SQLite's cache of the old
    file) and fails "database disk image is malformed": ``damaged_store``, "verify says where it is
    damaged" (store-fault-six seen 2; a ``follow`` after a backup was put back said it and ended).
    Now the copy is said — while the store is open (the app), and by the block a command's error
    ends (``async with``). Opened again, the file is the store's: damage is damage."""
    from inspector.store.connection import store_error

    malformed = sqlite3.DatabaseError("database disk image is malformed")
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    with pytest.raises(StoreFileChanged) as ended:  # a command's block ended by the read's error
        async with await open_store(sample_store) as store:
            await reject(store, "cand-goal", actor="lin", reason="stale")
            db = sqlite3.connect(sample_store)  # the log copied into the file: the backup differs from it now
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            db.close()
            await reject(store, "cand-space", actor="lin", reason="stale")  # the store looks at the file
            _copy_over(backup, sample_store)
            said = store_error(malformed)  # the app: said while the store is open
            assert said is not None and said.code == "store_file_replaced" and "put back" in said.message
            raise malformed
    assert ended.value.code == "store_file_replaced"
    async with await open_store(sample_store):
        said = store_error(malformed)
        assert said is not None and said.code == "damaged_store"
    assert sample_store.read_bytes() == backup.read_bytes()


async def test_a_checkpoint_by_another_store_of_this_process_is_not_a_copy(sample_store: Path) -> None:
    """The app and its follower hold the same file in one process. The follower's commit may run
    a checkpoint on its own thread: the file is written before the mark moves, and the checkpoint
    lock it holds is this process's, which F_GETLK does not report — the app's act beside it took
    the file for a copy put back, refused, and closing forgot the log (its commits kept only in the
    ``.kept`` copy). A commit or checkpoint under way in this process now says the file is its own."""
    import os

    from inspector.store import held_files

    async with await open_store(sample_store) as app, await open_store(sample_store):
        await reject(app, "cand-goal", actor="lin", reason="stale")
        with held_files.writing(sample_store):  # the follower's commit, its checkpoint mid-way
            later = sample_store.stat().st_mtime_ns + 1_000_000_000
            os.utime(sample_store, ns=(later, later))  # pages written, the mark not yet moved
            decided = await reject(app, "cand-stale", actor="lin", reason="stale")
        assert decided.validation.status == "rejected"
    assert _status(sample_store, "cand-goal") == "rejected" and _status(sample_store, "cand-stale") == "rejected"
    assert not list(sample_store.parent.glob("*.kept"))


@pytest.mark.parametrize("how", ["touch -m", "touch, then a read", "an editor saving the same bytes"])
async def test_new_times_on_the_same_contents_are_no_change(sample_store: Path, how: str) -> None:
    """Times alone were evidence of a copy put back (storefault-nine, gap 2): ``touch -m``, a touch
    whose file was read before the store looked (the access time moves on), or a program that
    wrote the same bytes back — each refused the next act ``store_file_replaced`` and set the
    store's own log aside as ``.kept``. The file's identity and contents (its bytes, its ledger
    head and commit count) are what decide now."""
    import os

    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        later = sample_store.stat().st_mtime_ns + 1_000_000_000
        if how == "touch -m":
            os.utime(sample_store, ns=(sample_store.stat().st_atime_ns, later))
        elif how == "touch, then a read":
            os.utime(sample_store, ns=(later, later))
            os.utime(sample_store, ns=(later + 7, later))  # the access time a read leaves (relatime)
        else:
            data = sample_store.read_bytes()
            with sample_store.open("r+b") as out:
                out.write(data)
        assert ChangeWatch(store).file_said() is None  # the app's look says nothing
        decided = await reject(store, "cand-stale", actor="lin", reason="stale")
        assert decided.validation.status == "rejected"
    assert _status(sample_store, "cand-goal") == "rejected" and _status(sample_store, "cand-stale") == "rejected"
    assert not list(sample_store.parent.glob("*.kept"))


async def test_a_copy_the_sampled_digest_cannot_tell_is_told_by_its_ledger_head(
        sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard: with the bytes' digest blind (as a sample over a large file can be), an older copy
    put back is still a copy: its ledger head and commit count are not the file's."""
    from inspector.store import file_content

    monkeypatch.setattr(file_content, "digest", lambda path: b"same")
    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        db = sqlite3.connect(sample_store)
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        db.close()
        await reject(store, "cand-space", actor="lin", reason="stale")
        _copy_over(backup, sample_store)
        with pytest.raises(StoreFileChanged) as refused:
            await reject(store, "cand-good", actor="lin", reason="stale")
        assert refused.value.code == "store_file_replaced"
    assert sample_store.read_bytes() == backup.read_bytes()
