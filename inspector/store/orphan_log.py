"""The log of a store whose file was replaced under it: kept aside, then made empty to SQLite.

When a copy is put back over an open store (or its file is moved over), the log beside it
belongs to the store that is gone: closing would checkpoint it into the copy. ``keep`` saves
it beside the store first (nothing is lost for good), ``forget`` makes it hold no frame.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

WAL_HEADER, SHM_HEADERS = 32, 136  # bytes: the log's header; the index's two header copies and checkpoint info


def keep(path: Path) -> str | None:
    """Copy the log about to be forgotten beside the store (``s.db-wal.TIME.kept``), or None.

    A file whose times changed while no checkpoint ran is taken for a copy put back; so is a
    ``touch`` of the file, whose log is the store's own: the copy keeps what it held
    recoverable (moved back to ``-wal`` with the store closed, SQLite replays it)."""
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size <= WAL_HEADER:
            return None
        kept = wal.with_name(f"{wal.name}.{time.strftime('%Y%m%dT%H%M%S', time.gmtime())}.kept")
        shutil.copyfile(wal, kept)
    except OSError:  # a full or read-only medium: the log is forgotten all the same (nothing is written over the copy)
        return None
    return kept.name


def forget(path: Path) -> None:
    """Make the old store's log empty to SQLite before its last connection closes, so the close
    does not checkpoint it into the file now at ``path`` (another store's, copied over it).

    Closing checkpointed the old store's WAL frames into the copy and cut it to the old store's
    page count: the copy a reviewer had just put back was damaged (store-fault-six). With the
    log's header and its index's headers zeroed, the closing connection rebuilds the index from
    a log with no valid header — no frame — checkpoints nothing and removes the log. What the
    log held belonged to a store whose file is gone: it could not be applied to anything."""
    for name, size in ((f"{path}-shm", SHM_HEADERS), (f"{path}-wal", WAL_HEADER)):
        try:
            fd = os.open(name, os.O_WRONLY)
        except OSError:
            continue
        try:
            os.pwrite(fd, bytes(size), 0)
        except OSError:  # a medium that refuses the write: the act was already refused store_file_replaced
            pass
        finally:
            os.close(fd)
