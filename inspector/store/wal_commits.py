"""The commits a write-ahead log holds, read from the file as SQLite would replay them, and the
commit mark every write of the inspector leaves in each one.

SQLite applies a ``-wal`` file to whatever database bears its name, and nothing in the log
says whose it is (store/wal_owner.py). A copy of the store whose rows were changed by another
program (``sqlite3``, a script) has a log that keeps the schema and leaves the ledger alone:
it reads as the store's own, and its edits became the store's. So every transaction the
inspector commits also counts itself in ``store_meta`` (key ``commits``): each of its commits
writes that table's page. A commit in the log that wrote none of ``store_meta``'s pages was
not made by the inspector. Its pages are read from the frame headers (24 bytes per frame);
checksums are checked only when a commit lacks the mark, to be sure SQLite would replay it
(a frame torn by a crash is not).

Format: https://sqlite.org/fileformat2.html#walformat (a 32-byte header, then frames of a
24-byte header and one page; a frame whose "size after commit" is not 0 ends a commit).
"""

from __future__ import annotations

import struct
from pathlib import Path

MARK_KEY = "commits"
# Run by every write transaction just before COMMIT (store/sqlite_store.py) and by each format
# migration: the count itself is read by nobody, writing it is the point.
MARK_SQL = ("INSERT INTO store_meta(key, value) VALUES ('commits', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums over big-endian words
HEADER, FRAME_HEADER = 32, 24


def _checksum(data: bytes, big_endian: bool, s0: int, s1: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def commits(wal: Path, *, checked: bool = False) -> list[frozenset[int]]:
    """The pages each commit of ``wal`` wrote, in order: the frames SQLite replays (its salts,
    and with ``checked`` its checksums too), up to the last whole commit. Empty for a file that
    is not a log or holds no commit."""
    with wal.open("rb") as fh:
        head = fh.read(HEADER)
        if len(head) < HEADER:
            return []
        magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", head)
        if magic not in MAGIC or page_size < 512:
            return []
        big = bool(magic & 1)
        sums = (0, 0)
        if checked:
            sums = _checksum(head[:24], big, 0, 0)
            if sums != (c0, c1):
                return []
        done: list[frozenset[int]] = []
        pages: set[int] = set()
        while True:
            frame = fh.read(FRAME_HEADER)
            if len(frame) < FRAME_HEADER:
                break
            page, after, s1, s2, f0, f1 = struct.unpack(">6I", frame)
            if (s1, s2) != (salt1, salt2):
                break  # a frame of an earlier generation of the log: SQLite stops here
            if checked:
                data = fh.read(page_size)
                if len(data) < page_size:
                    break
                sums = _checksum(data, big, *_checksum(frame[:8], big, *sums))
                if sums != (f0, f1):
                    break
            else:
                fh.seek(page_size, 1)
            pages.add(page)
            if after:
                done.append(frozenset(pages))
                pages = set()
        return done


def unmarked(wal: Path, mark_pages: set[int]) -> int:
    """How many commits SQLite would replay from ``wal`` wrote none of ``mark_pages``."""
    if all(found & mark_pages for found in commits(wal)):
        return 0
    return sum(1 for found in commits(wal, checked=True) if not found & mark_pages)
