"""Is the store's file as long as its own header says? (verify's ``damaged_store`` for a file
cut short, whatever its page size.)

SQLite refuses to open a file whose header counts more pages than the file holds, so a file
cut by whole pages fails to open and verify reports ``damaged_store``. A cut *inside* a page
does not: SQLite rounds the file's length up to whole pages and reads the missing tail of the
last page as zeros. On 4 KiB pages a 4 KB cut is a whole page; on the 16 KiB pages of a new
store (inspector/store/fresh.py) it is a quarter of one, the store opens, and the zeros show
up wherever that page's cells were — a material's bytes "no longer hash", a ledger entry
"was changed" — a break that blames a record for what the file lost. So verify reads the
length itself, before SQLite does:

- a file whose length is not a whole number of its pages was cut (or grown) by something
  other than SQLite, which writes whole pages only;
- a file shorter than the page count its header holds (when the header says that count is
  valid: SQLite's change counter at offset 24 equals the "version valid for" at 92) lost
  its tail.

A checkpoint by another process grows the file page by page after writing page 1 (which
holds the new count), so for a moment a healthy file can be shorter than its header says:
a short file is read again until its length stops changing, and only a length that stays
short is reported.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from inspector.store.file_length import geometry as _geometry
from inspector.store.file_length import shortfall as _shortfall

STEADY_READS = 3  # the same short length this many times in a row: not a checkpoint at work
PAUSE = 0.05  # seconds between two reads of a short file
PATIENCE = 5.0  # seconds a file still growing is waited for at most


def cut_short(path: Any, application_id: int | None = None) -> dict[str, Any] | None:
    """verify's ``damaged_store`` problem when the SQLite file at ``path`` (whose header names
    ``application_id``, when given) is shorter than a whole number of pages or than its header's
    page count, and stays so; None otherwise (also for anything that is not such a file: other
    checks judge those)."""
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(path):  # a URL, a FIFO: not read here
        return None
    geometry = _geometry(Path(path), application_id)
    if geometry is None or _shortfall(geometry) is None:
        return None
    deadline = time.monotonic() + PATIENCE
    steady = 1
    while steady < STEADY_READS and time.monotonic() < deadline:
        time.sleep(PAUSE)
        again = _geometry(Path(path), application_id)
        if again is None or _shortfall(again) is None:
            return None  # a checkpoint finished growing it (or it was replaced): whole
        steady = steady + 1 if again == geometry else 1
        geometry = again
    reason = _shortfall(geometry)
    return {"where": "sqlite", "code": "damaged_store",
            "message": f"the store's file was cut short: {reason}; restore it from a copy"}
