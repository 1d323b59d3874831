"""What a failure of the store's file or disk means, in one sentence with a stable code.

SQLite answers every fault of the medium with an OperationalError whose text names the
symptom, not the cause a person can act on: a full disk, a write lock another process
holds past the busy timeout, an I/O error and a damaged page all came out as
``damaged_store`` ("`inspector verify` says where it is damaged"), which sent a reviewer
looking for damage that is not there. :func:`explain` maps SQLite's result code
(``sqlite_errorname``) to the code and sentence for the cause; :func:`path_problem`
refuses a store path that cannot be a store file — a folder, a FIFO, a device, a
symbolic link that leads nowhere — before SQLite opens it (opening a FIFO blocks or
fails with "disk I/O error", and a failed import used to remove whatever was at the path,
a FIFO or symbolic link included).
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from pathlib import Path

from inspector.domain.errors import InspectorError, NotAStore, StoreFileChanged
from inspector.store import file_writes, held_files


class StoreRefused(InspectorError):
    """The store could not take the act now (held by another writer): a refusal, exit 1 —
    the same act can be tried again; nothing was written."""

    exit_code = 1


def explain(exc: BaseException, where: str = "the store") -> InspectorError:
    """The product error for an SQLite (or OS) error met while using a store at ``where``."""
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        return _os_error(exc, where)
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or text in ("database is locked", "database table is locked"):
        return StoreRefused(f"another process kept {where} locked for writing past the wait; nothing was written — "
                            "try again when it has finished", code="store_busy")
    if name == "SQLITE_FULL" or "database or disk is full" in text:
        return InspectorError(f"the disk holding {where} is full: nothing was written; free some space and run it "
                              "again", code="disk_full")
    if name.startswith("SQLITE_READONLY"):
        return InspectorError(f"{where} cannot be written here (read-only): nothing was written", code="read_only")
    if name.startswith("SQLITE_IOERR") or text == "disk I/O error":
        return InspectorError(f"reading or writing {where} failed at the disk (disk I/O error: the medium is full, "
                              "removed or failing); nothing was written", code="io_error")
    copied = held_files.said_copied_over() if isinstance(exc, sqlite3.DatabaseError) else None
    if copied is not None:  # a read of a file copied over under an open store: that, not damage
        return StoreFileChanged(copied, code="store_file_replaced")
    failed = file_writes.read_fault(held_files.held()) if isinstance(exc, sqlite3.DatabaseError) else None
    if failed is not None:  # "malformed" from a disk that fails to read (a short read), not from the file
        return _os_error(failed, where)
    if name.startswith("SQLITE_CANTOPEN") or text == "unable to open database file":
        return NotAStore(f"cannot open {where}: SQLite could not open the file or make its -wal/-shm files beside "
                         "it")
    one_line = " ".join(text.split())
    return InspectorError(f"{where} cannot be read here ({one_line}); `inspector verify STORE` says where it is "
                          "damaged", code="damaged_store")


def _os_error(exc: OSError, where: str) -> InspectorError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return InspectorError(f"the disk holding {where} is full: nothing was written; free some space and run it "
                              "again", code="disk_full")
    if exc.errno == errno.EROFS:
        return InspectorError(f"{where} cannot be written here (a read-only medium): nothing was written",
                              code="read_only")
    if exc.errno in (errno.EIO, errno.ENXIO, errno.ENODEV):  # the device under the file failed
        return InspectorError(f"reading {where} failed at the disk ({exc.strerror or exc}: the medium is failing or "
                              "was removed, not the file's contents); nothing was written", code="io_error")
    return InspectorError(f"{where} could not be read or written ({exc.strerror or exc}); nothing was written",
                          code="io_error")


def path_problem(target: Path) -> NotAStore | None:
    """Why ``target`` cannot be a store file (None when it is a regular file or nothing yet)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return NotAStore(f"cannot look at {target}: {exc.strerror}")
    if stat.S_ISLNK(mode):
        try:
            mode = os.stat(target).st_mode
        except OSError as exc:
            why = "a loop of symbolic links" if exc.errno == errno.ELOOP else (
                f"a symbolic link to {os.readlink(target)}, which does not exist" if exc.errno == errno.ENOENT
                else f"a symbolic link that cannot be followed ({exc.strerror})")
            return NotAStore(f"{target} is {why}: not a store file")
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "not a regular file")
    return NotAStore(f"{target} is {kind}, not a store file")


def companion_problem(target: Path) -> InspectorError | None:
    """``log_not_a_file`` when the name SQLite needs beside the store for its log (``-wal``), the
    log's index (``-shm``) or a rollback journal (``-journal``) is taken by something that is not a
    regular file: a folder, a FIFO, a device, a socket, a symbolic link (SQLite never makes one).

    Before (storefault-nine): a folder at ``s.db-wal`` said "not a readable store: unable to open
    database file" (verify: ``damaged_store``, "restore it from a copy" — of an intact store); a
    FIFO there was opened as the log and removed at close; a folder or FIFO at ``s.db-shm`` made
    ``accept`` say the disk was full or failing and ``verify`` report the store unreadable."""
    for suffix in ("-wal", "-shm", "-journal"):
        name = Path(f"{target}{suffix}")
        try:
            mode = os.lstat(name).st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode):
            continue
        kind = ("a symbolic link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
                else "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        return InspectorError(f"{name.name} beside {target} is {kind}: SQLite needs that name for the store's "
                              f"{'log' if suffix == '-wal' else 'log index' if suffix == '-shm' else 'journal'} and "
                              f"only ever makes a plain file there; nothing was opened or changed — move {name.name} "
                              "away, then open the store again", code="log_not_a_file")
    return None


FULL_DISK = "the disk holding it is full or failing"  # why an open fell back to read-only (store/connection.py)
FREE_ENOUGH = 1 << 20  # bytes free on the disk beyond which a failed open was not for want of space


def full_disk_refusal(path: Path, error: str) -> InspectorError | None:
    """An act on a store opened read-only because its disk was full (or failing) when it opened.

    Every act there was refused ``read_only`` "is open read-only (…full or failing): it can be
    read and verified, not changed" — the code of a read-only medium, and no word of the remedy,
    where the same act a moment later on a nearly full disk said ``disk_full`` "free some space
    and run it again" (store-fault-eight). None when the disk has room now (a failing medium, a
    file-size limit): then the read-only refusal stands, naming both."""
    try:
        st = os.statvfs(path.parent)
        free: int | None = st.f_bavail * st.f_frsize
    except OSError:
        free = None
    if error != "SQLITE_FULL" and (free is None or free >= FREE_ENOUGH):
        return None
    left = "" if free is None or free >= FREE_ENOUGH else f" ({free:,} bytes free: too little for the store's log)"
    return InspectorError(f"the disk holding {path} is full{left}: the store was opened read-only and nothing was "
                          "written — free some space and run it again", code="disk_full")


def read_failure(path: Path, limit: int = 256 << 20) -> OSError | None:
    """The I/O error reading the file at ``path`` gives (the first ``limit`` bytes), or None — for
    a store this process holds no connection to (a plain open and close would drop its locks).

    A failing medium under a fresh open came out of SQLite as "vtable constructor failed:
    events_fts" or "unable to open database file" (an ext4 journal that failed remounts the disk
    read-only): ``not_a_store`` "is not a readable store", as if the file were something else
    (store-fault-eight, a loop device cut under the store)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        return exc if exc.errno in (errno.EIO, errno.ENXIO, errno.ENODEV) else None
    try:
        for offset in range(0, min(os.fstat(fd).st_size, limit), 1 << 20):
            os.pread(fd, 1 << 20, offset)
    except OSError as exc:
        return exc
    finally:
        os.close(fd)
    return None
