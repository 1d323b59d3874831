"""Whether a store file written by something other than SQLite still holds what it held: a
``touch`` (new times, the same bytes) told from a copy put back (new bytes).

store/file_writes.py tells a file SQLite wrote (a checkpoint moved the log's mark) from one
written by something else; it cannot tell what the something else did. A ``touch`` of an open
store was taken for a backup put back: the next act was refused ``store_file_replaced`` and
closing forgot the store's own log (kept beside it as ``.kept``; store-fault-seven, found 1).

What the file holds is told two ways, and both must agree for "unchanged":

1. **Its bytes.** At each look that finds the file's times changed, the store keeps a digest of
   the file's bytes (read through SQLite's own descriptor: closing another would drop its
   locks): the whole file up to :data:`FULL_BYTES`, else its header, its last page, the pages
   the log's checkpointed frames name (what a checkpoint wrote) and :data:`SAMPLES` pages spread
   over the file — a look costs a millisecond or two at any size, and it runs at open and
   after a checkpoint only.
2. **Its ledger head and commit count** (:func:`stored_head`: the last entry's seq and hash,
   ``store_meta.commits``, read from the file alone). Every write transaction of the inspector
   raises the count and every act appends an entry, so a copy of the same store from before any
   checkpoint since differs here even where a sampled digest would miss it.

The times are never the evidence (storefault-nine): ``touch``, ``touch -m``, a backup tool or
an editor that reads the file (the access time moves), or one that writes back the same bytes
(the modification time moves) all left the file as it was, and were taken for a backup put back
(the act refused, the log kept aside as ``.kept``) unless ``touch`` had set both times to one
instant and nothing read the file before the store looked. A backup that is byte for byte the
file (review-14's copy taken while the acts were only in the log) is now no change either: the
file is exactly what the log was written against, so the log still belongs to it — putting such
a copy back undoes nothing, and the store says nothing. To go back to a backup, close the
programs that hold the store, then copy it (and remove the ``-wal`` beside it).
"""

from __future__ import annotations

import os
import sqlite3
import zlib
from pathlib import Path
from urllib.parse import quote

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


def stored_head(path: Path) -> tuple[object, ...] | None:
    """(commit count, last ledger seq, its hash) of the store file at ``path``, read from the file
    alone (``immutable``: not its log, and SQLite keeps the descriptor of a file this process holds
    locks on instead of closing it); None when it cannot be read so (a file being written)."""
    try:
        db = sqlite3.connect(f"file:{quote(os.fsencode(path.resolve()))}?immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        commits = db.execute("SELECT value FROM store_meta WHERE key = 'commits'").fetchone()
        head = db.execute("SELECT seq, hash FROM ledger ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    finally:
        db.close()
    return (commits[0] if commits else None, *(head or (None, None)))


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
