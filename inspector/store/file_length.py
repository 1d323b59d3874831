"""Whether an SQLite file is as long as its own header says (services/verify_length.py keeps
the reasoning): read by ``verify`` before SQLite opens a store, and by ``open_store`` when
SQLite refused one, so a store cut at a page boundary is said to be cut short — with what to
do — where it used to be "not a readable store: database disk image is malformed"."""

from __future__ import annotations

import os
from pathlib import Path

HEADER = 100
SQLITE_MAGIC = b"SQLite format 3\x00"


def geometry(path: Path, application_id: int | None) -> tuple[int, int | None, int] | None:
    """(page size, page count from the header or None when the header does not vouch for it,
    file length), or None when the file is not an SQLite database (of ``application_id``, when
    given) this can judge. A header itself cut (under 100 bytes) still names its page size and
    application: any SQLite file is at least one page of 512 bytes or more."""
    try:
        with open(path, "rb") as f:
            header = f.read(HEADER)
            length = os.fstat(f.fileno()).st_size
    except OSError:
        return None
    if len(header) < 72 or not header.startswith(SQLITE_MAGIC):
        return None
    if application_id is not None and int.from_bytes(header[68:72], "big") != application_id:
        return None
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):  # not a power of two from 512 to 65536: SQLite refuses it itself
        return None
    counted = int.from_bytes(header[28:32], "big")
    valid = len(header) == HEADER and counted > 0 and header[24:28] == header[92:96]
    return page, counted if valid else None, length


def shortfall(geometry: tuple[int, int | None, int]) -> str | None:
    page, counted, length = geometry
    if length % page:
        return (f"the file is {length:,} bytes, not a whole number of its {page:,}-byte pages "
                f"({length // page:,} pages and {length % page:,} bytes): it was cut short inside a page "
                "(SQLite writes whole pages only)")
    if counted is not None and length < counted * page:
        return (f"the file is {length:,} bytes ({length // page:,} pages of {page:,} bytes), but its header "
                f"counts {counted:,} pages ({counted * page:,} bytes): its tail was cut off")
    return None


def said_cut(path: Path, application_id: int) -> str | None:
    """One look (no waiting for a checkpoint to finish growing the file): why the store file at
    ``path`` is short, or None."""
    found = geometry(path, application_id)
    if found is not None:
        return shortfall(found)
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER)
    except OSError:
        return None
    if head.startswith(SQLITE_MAGIC) and len(head) < HEADER:  # too short to name its application: any SQLite file
        return (f"the file is {len(head):,} bytes, shorter than SQLite's {HEADER}-byte header: it was cut inside "
                "its first page")
    return None
