"""The file a store opened, as a stat and as its own header tells it: identity, names and key.

Split from store/sqlite_store.py (which asks these at every act and look); none of them opens a
plain descriptor on the store file: closing one would drop this process's SQLite locks.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote


def file_state(path: Path) -> tuple[int, int, int, tuple[int, int]] | None:
    """(device, inode, size, (mtime, ctime)) of the file at ``path`` now, or None when nothing is
    there. A stat, never an open: closing a descriptor of the file would drop this process's SQLite locks."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, (st.st_mtime_ns, st.st_ctime_ns)


def names(path: Path) -> int:
    """How many names (hard links) the file at ``path`` has; 1 when that cannot be told."""
    try:
        return path.stat().st_nlink
    except OSError:
        return 1


def file_key(path: Path) -> bytes | None:
    """The digest key the store file itself holds (read without its log), or None when that
    cannot be told (a store whose key is still only in its log, a file being written).

    ``cp backup.db s.db`` under an open store keeps the inode and, for a file at least as long,
    the size: check_file took it for the same file, the next act "succeeded" on a mix of the new
    file and the old store's log, and closing checkpointed that log into the new file
    (store-fault-six). Through SQLite (``immutable``), not a plain open: SQLite keeps the
    descriptor of a file this process holds locks on instead of closing it."""
    try:
        db = sqlite3.connect(f"file:{quote(os.fsencode(path.resolve()))}?immutable=1", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        db.close()
    try:
        return bytes.fromhex(row[0]) if row is not None and isinstance(row[0], str) else None
    except ValueError:
        return b""  # a key that is not hex: not this store's
