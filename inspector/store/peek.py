"""Reading a store without writing anything to it: for hints beside a usage error.

Opening the store as a command does migrated an older one (review-14) and, on a current one,
checkpointed the log a killed process had left into the file when it closed: a usage error
("nothing changed") wrote to the store. A peek is read-only instead: a file with no log beside
it is read as ``immutable`` (no lock, no ``-wal`` or ``-shm`` made), one with a log through it
with ``mode=ro`` (which never checkpoints), and an index that reading made is removed again.
The file and its log are first checked as every open checks them (another database's log is
never read). A store of another format reads as None: the command itself deals with it.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from urllib.parse import quote

import aiosqlite

from inspector.store import wal_owner
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION
from inspector.store.sqlite_connections import check_file_is_sqlite


@contextmanager
def _read_only_uri(path: Path) -> Iterator[str]:
    check_file_is_sqlite(path)
    logged = Path(f"{path}-wal").exists()
    had_shm = os.path.lexists(f"{path}-shm")
    try:
        yield f"file:{quote(os.fsencode(path.resolve()))}?" + ("mode=ro" if logged else "immutable=1")
    finally:
        if logged and not had_shm:
            wal_owner.remove_made_shm(path)


def _current(application_id: object, user_version: object) -> bool:
    return application_id == APPLICATION_ID and user_version == FORMAT_VERSION


def session_ids(path: Path) -> list[str] | None:
    """The store's session ids in stored order, or None when it is not of this version's format.
    Synchronous: a command already running its event loop asks it too (export's usage error)."""
    with _read_only_uri(path) as uri:
        db = sqlite3.connect(uri, uri=True, timeout=1)
        try:
            if not _current(db.execute("PRAGMA application_id").fetchone()[0],
                            db.execute("PRAGMA user_version").fetchone()[0]):
                return None
            return [str(r[0]) for r in db.execute("SELECT id FROM sessions ORDER BY rowid")]
        finally:
            db.close()


@asynccontextmanager
async def connected(path: Path) -> AsyncIterator[aiosqlite.Connection | None]:
    """A read-only connection to the store for the services' readers, or None when it is not of
    this version's format."""
    with _read_only_uri(path) as uri:
        async with aiosqlite.connect(uri, uri=True, timeout=1) as db:
            application_id = (await db.execute_fetchall("PRAGMA application_id"))[0][0]
            user_version = (await db.execute_fetchall("PRAGMA user_version"))[0][0]
            yield db if _current(application_id, user_version) else None
