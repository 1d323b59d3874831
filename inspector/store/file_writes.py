"""Whether the store file was written by SQLite since an open store last looked at it.

In WAL mode SQLite writes a store's file only when it checkpoints: it copies log frames into
the file and then records how far it got in the log's index (``-shm``: ``nBackfill``), and a
log that is started again gets new salts. So a file whose times changed while that mark did
not was written by something else — a backup of the same store put back with ``cp`` (same
inode, same digest key), which the key check (file_identity.file_key) cannot tell apart.
The store's old log then no longer belongs to the file: writing on top of it, or closing
(which checkpoints the log into the file), silently undid the restore (review-14, seen 4).

The index is read through a descriptor SQLite already holds (found in ``/proc/self/fd``), never
a new one: POSIX locks belong to the process, and closing any descriptor of ``-shm`` drops the
locks SQLite holds there (store/held_files.py). Where that cannot be done (no ``/proc``), the
mark is None and nothing is concluded from it.
"""

from __future__ import annotations

import fcntl
import os
import struct
from pathlib import Path

from inspector.store import held_files

SALTS = slice(32, 40)  # the log's two salts in the index header: new ones each time the log starts again
BACKFILL = slice(96, 100)  # nBackfill: how many of the log's frames have been copied into the file
CKPT_LOCK = 121  # the byte of -shm a checkpointer holds a write lock on for the whole checkpoint
HEADER = 100  # the database file's header

Mark = tuple[bytes, bytes]


def own_fd(path: Path) -> int | None:
    """A descriptor this process already holds on ``path``'s file (SQLite's), or None."""
    try:
        target = os.stat(path)
    except OSError:
        return None
    return fd_of(target.st_dev, target.st_ino)


def fd_of(device: int, inode: int) -> int | None:
    """A descriptor this process already holds on the file (device, inode), or None."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return None
    for name in names:
        try:
            st = os.stat(f"/proc/self/fd/{name}")  # the file it names; nothing is opened
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (device, inode):
            return int(name)
    return None


PROBE_BYTES, PROBE_CHUNK = 256 << 20, 1 << 20  # how much of a held store file a failed read probes, and in what steps


def read_fault(files: list[tuple[int, int]]) -> OSError | None:
    """The I/O error the disk gives reading one of ``files`` (device, inode: the store files this
    process holds), through SQLite's own descriptors, or None. SQLite reports some failed reads
    of a failing medium as "database disk image is malformed" (a short read), which says the
    file is damaged when it may be whole; a read that fails here tells the disk apart."""
    for device, inode in files:
        fd = fd_of(device, inode)
        if fd is None:
            continue
        try:
            size = min(os.fstat(fd).st_size, PROBE_BYTES)
            for offset in range(0, size, PROBE_CHUNK):
                os.pread(fd, PROBE_CHUNK, offset)
        except OSError as exc:
            return exc
    return None


def checkpoint_mark(path: Path) -> Mark | None:
    """The log's salts and how far it was copied into the file, from the index of the store at
    ``path``; None when it cannot be read this way."""
    fd = own_fd(Path(f"{path}-shm"))
    if fd is None:
        return None
    try:
        head = os.pread(fd, HEADER, 0)
    except OSError:
        return None
    return (head[SALTS], head[BACKFILL]) if len(head) >= BACKFILL.stop else None


def checkpoint_running(path: Path) -> bool:
    """Another process holds the checkpoint lock of the store at ``path`` now: it may have written
    the file and not yet recorded how far (F_GETLK sees other processes' locks only)."""
    fd = own_fd(Path(f"{path}-shm"))
    if fd is None:
        return False
    try:
        probe = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, CKPT_LOCK, 1, 0)
        return struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, probe))[0] != fcntl.F_UNLCK
    except OSError:
        return False


def written_elsewhere(path: Path, before: Mark | None) -> bool:
    """The file at ``path`` (whose times changed since ``before`` was read) was written by
    something other than a checkpoint. Asked in this order — the lock, then the mark — so a
    checkpoint that finished in between has recorded its mark by the time it is read."""
    if before is None or held_files.being_written(path) or checkpoint_running(path):
        return False
    now = checkpoint_mark(path)
    return now is not None and now == before


def header_whole(path: Path) -> bool:
    """The file's header counts exactly the pages the file holds (a whole store, not one cut),
    read through SQLite's own descriptor of the file."""
    fd = own_fd(path)
    if fd is None:
        return False
    try:
        head = os.pread(fd, HEADER, 0)
        length = os.fstat(fd).st_size
    except OSError:
        return False
    if len(head) < HEADER or head[24:28] != head[92:96]:
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    return page >= 512 and int.from_bytes(head[28:32], "big") * page == length
