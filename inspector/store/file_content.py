"""Whether a store file written by something other than SQLite still holds what it held: a
``touch`` (new times, the same bytes) told from a copy put back (new bytes).

store/file_writes.py tells a file SQLite wrote (a checkpoint moved the log's mark) from one
written by something else; it cannot tell what the something else did. A ``touch`` of an open
store was taken for a backup put back: the next act was refused ``store_file_replaced`` and
closing forgot the store's own log (kept beside it as ``.kept``; store-fault-seven, found 1).

Two looks, in this order:

1. **Content.** At each look that finds the file's times changed, the store keeps a digest of
   the file's bytes (read through SQLite's own descriptor: closing another would drop its
   locks): the whole file up to :data:`FULL_BYTES`, else its header, its last page, the pages
   the log's checkpointed frames name (what a checkpoint wrote) and :data:`SAMPLES` pages spread
   over the file — a look costs a millisecond or two at any size, and it runs at open and
   after a checkpoint only. A digest that differs is a copy put back, whatever the times say; a
   sample can miss a difference, and then the second look still stands between a copy and a
   touch.
2. **The bytes are the same.** A backup of the file as it is (review-14's case: the copy taken
   at open, the store's acts still only in its log) is byte for byte the file, and putting it
   back means "without the log": it must still be refused. ``touch`` sets the access and
   modification times to one instant (``utimensat``, both ``UTIME_NOW``); ``cp`` writes the bytes
   and leaves the access time as it was (a later read may move it, to a later instant). Only
   equal times with equal bytes are taken for a touch; anything else stays a copy.

What stays (each taken for a copy put back, as before: refused, and the log kept beside the
store as ``.kept``, so nothing is lost for good): a ``touch -m`` (modification time only); and a
touch whose file was read before the store looked again — a read moves an access time that is
not after the modification time (``relatime``), so the times are no longer one instant. The
store looks when it next acts, and the app looks every half second (sessions.ChangeWatch).
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from inspector.store.file_writes import BACKFILL, HEADER, own_fd

FULL_BYTES = 256 << 10  # a file up to this size is digested whole
SAMPLES = 64  # a larger one: this many pages spread over it, besides its header, last page and checkpointed pages
WAL_HEADER, FRAME_HEADER = 32, 24
MAX_FRAMES = 1024  # frames of the log looked at for the pages a checkpoint wrote


def digest(path: Path) -> bytes | None:
    """A digest of the store file at ``path`` as it is now, or None when it cannot be read
    through a descriptor SQLite holds (then nothing is concluded from content)."""
    fd = own_fd(path)
    if fd is None:
        return None
    try:
        size = os.fstat(fd).st_size
        head = os.pread(fd, HEADER, 0)
        crc = zlib.crc32(head)
        if size <= FULL_BYTES:
            crc = zlib.crc32(os.pread(fd, size, 0), crc)
            return size.to_bytes(8, "big") + crc.to_bytes(4, "big")
        page = _page_size(head)
        pages = size // page
        spread = range(1, pages + 1, max(1, pages // SAMPLES))
        for number in sorted({pages, *spread, *_checkpointed_pages(path, page)}):
            if 1 <= number <= pages:
                crc = zlib.crc32(os.pread(fd, page, (number - 1) * page), crc)
        return size.to_bytes(8, "big") + crc.to_bytes(4, "big")
    except OSError:
        return None


def touched(path: Path) -> bool:
    """The file's access and modification times are one instant, as ``touch`` leaves them."""
    try:
        st = path.stat()
    except OSError:
        return False
    return st.st_atime_ns == st.st_mtime_ns


def _page_size(head: bytes) -> int:
    page = int.from_bytes(head[16:18], "big") if len(head) >= 18 else 4096
    return 65536 if page == 1 else max(page, 512)


def _checkpointed_pages(path: Path, page: int) -> set[int]:
    """The page numbers of the log's frames a checkpoint has copied into the file (its index's
    ``nBackfill``), read through SQLite's own descriptors; empty when that cannot be told."""
    wal, shm = own_fd(Path(f"{path}-wal")), own_fd(Path(f"{path}-shm"))
    if wal is None or shm is None:
        return set()
    try:
        backfill = int.from_bytes(os.pread(shm, HEADER, 0)[BACKFILL], "little")
        salts = os.pread(wal, WAL_HEADER, 0)[16:24]
        found: set[int] = set()
        for frame in range(min(backfill, MAX_FRAMES)):
            head = os.pread(wal, FRAME_HEADER, WAL_HEADER + frame * (FRAME_HEADER + page))
            if len(head) < FRAME_HEADER or head[8:16] != salts:
                break
            found.add(int.from_bytes(head[0:4], "big"))
        return found
    except OSError:
        return set()
