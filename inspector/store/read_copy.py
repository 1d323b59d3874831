"""A private, upgraded copy of an older store, read by a command until its first act (storefault-eleven).

The held upgrade (storefault-ten) made an older store's upgrade in a transaction left open on the
writer and read everything through it, so a command refused afterwards left the file byte for byte
— but the open transaction held the store's write lock for as long as the command ran: a second
``inspector sessions`` on the same older store waited for the first (3.5 s behind a ``survival``
asking a judge) or was refused ``store_busy`` after 10 s, though neither writes anything.

Three ways were weighed (lead-18 #4). Reading the old format directly would need every read to know
what each older format lacks (formats 8 and 9 change what the search indexes hold for long events,
so a search on a format-7 file would answer differently, unsaid). A lock of our own that readers
share cannot help: the upgrade itself is a write, and SQLite lets one connection write at a time.
So the store is copied here with SQLite's backup API — one read transaction, which in WAL mode no
writer or reader waits for — into a folder of this process's own (``tempfile``, mode 0700, under
``TMPDIR``), upgraded there, and read there; the file is upgraded only by the command's first act,
in that act's transaction (store/held_upgrade.py). The price is a copy of the file per command
until the store is upgraded (bench/older_store_read.py measures it against a read of a current
store) and, for that long, the copy's disk space in the temporary folder. A folder left by a killed
process is removed by the next copy made on this machine.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import aiosqlite

from inspector.domain.errors import InspectorError
from inspector.store import call_index, format_upgrade, grams, reasoning_index, sqlite_connections
from inspector.store.process_alive import alive
from inspector.store.schema import FORMAT_VERSION

PREFIX = "inspector-older-store-"
# A copy per command costs time and temporary disk in proportion to the store (×29–×101 on 66.5 MB,
# bench/older_store_read.py), with no bound: a larger older store is upgraded at open instead, and says so.
COPY_BELOW = 256 * 1024 * 1024


def too_large(target: Path) -> str:
    """Why ``target`` is not read through a private copy (empty: it may be), so its upgrade is made at
    open rather than held: a copy of a store this size on every command until the first act would cost
    seconds and as much temporary disk as the store."""
    try:
        size = os.path.getsize(target) + (os.path.getsize(f"{target}-wal") if os.path.exists(f"{target}-wal") else 0)
    except OSError:
        return ""
    if size < COPY_BELOW:
        return ""
    return (f"the store is {size / (1 << 20):,.0f} MiB, too large to read through a private copy on every command "
            f"(the limit is {COPY_BELOW >> 20} MiB), so a refused or read-only command no longer leaves it at its format")


@dataclass(frozen=True)
class ReadCopy:
    """The copy a store reads while its file is at an older format."""

    folder: Path
    path: Path
    data_version: int  # the file's data_version on the writer when copied: another commit changes it


async def make(writer: aiosqlite.Connection, target: Path) -> tuple[ReadCopy, format_upgrade.Upgrade | None]:
    """Copy the file ``writer`` holds and upgrade the copy (its progress said as a read, not as an
    upgrade of ``target``). The upgrade is None when the file was current by the time it was copied
    (another process upgraded it): the copy is then removed and the caller reads the file."""
    sweep()
    started = time.monotonic()
    try:
        folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    except OSError as exc:
        raise await _cannot_copy(writer, target, Path(tempfile.gettempdir()), exc) from None
    path = folder / "copy.db"
    try:
        seen = int((await writer.execute_fetchall("PRAGMA data_version"))[0][0])
        db = await sqlite_connections.connection(str(path))
        try:
            await writer.backup(db)  # every page, in one read transaction of the writer's connection
            await sqlite_connections.configure(db)
            await db.create_function(grams.FUNCTION, 1, grams.grams, deterministic=True)
            await call_index.register_async(db)
            await reasoning_index.REASONING.register_async(db)
            version = int((await db.execute_fetchall("PRAGMA user_version"))[0][0])
            done = await format_upgrade.migrate(db, version, target, hold=True, reading=True)
            if done is not None:
                await db.execute("COMMIT")
        finally:
            await sqlite_connections.close_all([db])
    except sqlite3.DatabaseError as exc:
        remove(folder)
        if not sqlite_connections.medium_fault(exc):
            raise
        raise await _cannot_copy(writer, target, folder.parent, exc) from None
    except BaseException:
        remove(folder)
        raise
    if done is None:
        remove(folder)
        return ReadCopy(folder, path, seen), None
    return ReadCopy(folder, path, seen), replace(done, seconds=time.monotonic() - started)  # the copy's whole cost


async def _cannot_copy(writer: aiosqlite.Connection, target: Path, where: Path, exc: BaseException) -> InspectorError:
    """``disk_full`` when the copy cannot be made where temporary files go (a full or failing disk, a
    file-size limit): the store was said "not a readable store: disk I/O error" — its own disk blamed."""
    version = int((await writer.execute_fetchall("PRAGMA user_version"))[0][0])
    why = getattr(exc, "strerror", None) or str(exc)
    return InspectorError(f"{target} has store format {version}, which this version reads through an upgraded copy "
                          f"(it must be upgraded to {FORMAT_VERSION} first), and the copy could not be written in "
                          f"{where} ({why}: the disk there is full or failing, or the process may not write a file "
                          "that large); nothing was changed — free some space there (or point TMPDIR at a folder "
                          f"with room), or run `inspector upgrade {target}` once where the store can be written",
                          code="disk_full")


def remove(folder: Path | None) -> None:
    """Remove a copy's folder (its -wal and -shm with it); a folder already gone is no error."""
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def sweep() -> None:
    """Remove the copies of processes that ended without removing theirs (killed, or the machine
    stopped): their folder names carry the process id. Another user's folders are left alone."""
    base = Path(tempfile.gettempdir())
    try:
        entries = list(base.glob(f"{PREFIX}*"))
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or alive(int(pid)):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink() and entry.stat().st_uid == os.getuid():
                remove(entry)
        except OSError:
            continue


