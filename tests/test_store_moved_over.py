"""A store file replaced by ``mv`` (a new inode at the path) while the app holds it open.

SQLite reads through the descriptor it opened, so the app went on showing the file that was
moved away with no word at all; only an act was refused (``store_file_replaced``). The app's
half-second look now compares the path's device and inode with the open file's and says so,
once. A ``touch`` seen by that look is taken as the file's own, so a read after it cannot make
it look like a copy put back later (store/file_content.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from inspector.domain.errors import StoreFileChanged
from inspector.services.candidates import reject
from inspector.services.sessions import ChangeWatch
from inspector.store.connection import open_store


async def test_the_watch_says_a_file_moved_over_the_open_store_once(sample_store: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    shutil.copyfile(sample_store, other)
    async with await open_store(sample_store) as store:
        watch = ChangeWatch(store)
        assert watch.file_said() is None
        os.replace(other, sample_store)  # mv other.db samples.db
        said = watch.file_said()
        assert said is not None and said.code == "store_file_replaced"
        assert "moved over it" in said.message and "reopen the store" in said.message
        assert watch.file_said() is None  # said once
        with pytest.raises(StoreFileChanged):  # and acts stay refused
            await reject(store, "cand-goal", actor="lin", reason="stale")


async def test_the_watch_says_a_deleted_store_file(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        sample_store.unlink()
        said = ChangeWatch(store).file_said()
        assert said is not None and said.code == "store_file_gone"


async def test_a_touch_the_watch_saw_stays_a_touch_after_a_read(sample_store: Path) -> None:
    """The watch looks before a read moves the access time: the act after it is taken."""
    async with await open_store(sample_store) as store:
        await reject(store, "cand-goal", actor="lin", reason="stale")
        later = sample_store.stat().st_mtime_ns + 1_000_000_000
        os.utime(sample_store, ns=(later, later))
        assert ChangeWatch(store).file_said() is None
        with sample_store.open("rb") as fh:  # a read: the access time moves on (relatime)
            fh.read(100)
        os.utime(sample_store, ns=(later + 5, later))  # as that read would leave it, whatever the mount
        decided = await reject(store, "cand-stale", actor="lin", reason="stale")
        assert decided.validation.status == "rejected"
    assert not list(sample_store.parent.glob("*.kept"))


async def test_the_app_says_the_store_file_was_replaced(sample_store: Path, tmp_path: Path) -> None:
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    other = tmp_path / "other.db"
    shutil.copyfile(sample_store, other)
    app = InspectorApp(sample_store, session="s-privacy")
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        os.replace(other, sample_store)
        app.screen.check_for_changes()  # type: ignore[attr-defined]  # the live watch's next look
        await settle(app, pilot)
        said = [n.message for n in app._notifications if n.title == "Store file replaced"]
        assert len(said) == 1 and "moved over it" in said[0] and "store_file_replaced" in said[0]


_HOLDER = """
import asyncio, sys
from pathlib import Path
from inspector.services.candidates import reject
from inspector.store.connection import open_store

async def main():
    store = await open_store(Path(sys.argv[1]))
    await reject(store, "cand-stale", actor="app", reason="stale")  # in the log, not yet the file
    print("held", flush=True)
    sys.stdin.readline()
    await store.close()

asyncio.run(main())
"""


async def test_a_backup_moved_over_a_store_another_program_holds_is_not_opened_with_its_log(
        sample_store: Path, tmp_path: Path) -> None:
    """``mv backup.db s.db`` while the app holds the store: the app's log stays beside the new
    file, and the next command opened the backup *through that log* — the app's reject applied to
    the restored copy (its ledger chains on, so it passed as the file's own), and written into it
    for good by that command's close. Another process's lock on the log with none on the file says
    whose log it is: refused, nothing opened; once the app has closed, the backup opens as it is."""
    import sqlite3
    import subprocess
    import sys

    backup = tmp_path / "backup.db"
    shutil.copyfile(sample_store, backup)
    entries = sqlite3.connect(backup).execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(sample_store)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        os.replace(backup, sample_store)
        refused: StoreFileChanged | None = None
        try:
            opened = await open_store(sample_store)
        except StoreFileChanged as exc:
            refused = exc
        else:
            await opened.close()  # opened through the app's log (before): closed, so the test can end
        assert refused is not None and refused.code == "store_file_replaced"
        assert "close that program" in refused.message
    finally:
        holder.communicate("\n", timeout=60)
    # The app closed. SQLite does not checkpoint a moved file on close and left its log beside
    # the path: the next program (any, here sqlite3) replayed the app's reject into the backup.
    assert sqlite3.connect(sample_store).execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == entries


async def test_a_store_moved_away_under_its_holder_keeps_the_holders_acts(sample_store: Path, tmp_path: Path) -> None:
    """``mv s.db away.db`` (then a backup put at s.db) while a program holds the store: its acts
    go into the file it opened (away.db) when it closes, not into whatever is at the path."""
    import sqlite3
    import subprocess
    import sys

    backup, away = tmp_path / "backup.db", tmp_path / "away.db"
    shutil.copyfile(sample_store, backup)
    entries = sqlite3.connect(backup).execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(sample_store)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        os.replace(sample_store, away)
        os.replace(backup, sample_store)
    finally:
        holder.communicate("\n", timeout=60)
    assert sqlite3.connect(sample_store).execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == entries
    assert sqlite3.connect(away).execute("SELECT COUNT(*) FROM ledger").fetchone()[0] == entries + 1
