"""Making SQLite connections to a store file: configured alike, readers kept from writing,
and read-only ones that still read a store on a medium that cannot be written.

Kept apart from the :class:`~inspector.store.sqlite_store.Store` that lends them and from
:func:`~inspector.store.connection.open_store` that decides which kind a store gets, so each
of the three reads as one job.
"""

from __future__ import annotations

import asyncio
import errno
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from inspector.domain.errors import NotAStore
from inspector.store import faults, held_files, wal_owner

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


async def fetch_one(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
    """First row or None, in one trip to the database thread (a cursor costs three)."""
    rows = await db.execute_fetchall(sql, params)
    for row in rows:
        return row
    return None


async def scalar(db: aiosqlite.Connection, sql: str) -> int:
    """The first row's first value as an int (0: no row), in one trip to the database thread
    (a cursor's execute, fetch and close were three; a store's open asks four)."""
    row = await fetch_one(db, sql)
    return int(row[0]) if row else 0


def check_file_is_sqlite(path: Path) -> None:
    """The file starts with SQLite's magic — read only when this process holds no connection to
    it (store/held_files.py): a file it holds was checked when first opened."""
    if held_files.holds(path):
        return
    try:
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        if exc.errno in (errno.EIO, errno.ENXIO, errno.ENODEV):  # the medium failed, not the file's contents
            raise faults.explain(exc, str(path)) from None
        raise NotAStore(f"cannot read {path}: {exc.strerror}") from None
    if head[:len(SQLITE_MAGIC)] != SQLITE_MAGIC:
        raise NotAStore(f"{path} is not a Context Inspector store (not an SQLite file)" + _transcript_hint(path, head))
    check_no_foreign_journal(path, head)
    wal_owner.check_wal_is_own(path)


def _transcript_hint(path: Path, head: bytes) -> str:
    """A transcript given where a store goes (``drift run.jsonl``) is the likeliest mistake of a
    new reviewer: say how it becomes a store instead of only what it is not."""
    zipped = head[:4] == b"PK\x03\x04"
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") or (zipped and path.suffix.lower() == ".eval"):
        return f"; it looks like a transcript: import it into a store first (`inspector import {path} --into STORE`)"
    if zipped:  # an inspect-ai .eval is a zip; any other zip is an archive to open first (import says so too)
        return "; it is a zip archive: unzip it, then import the transcript inside (`inspector import FILE --into STORE`)"
    # a CSV, an image, a text file: say what a store is and how one is made, not only what this is not
    return "; a store is the SQLite file `inspector import FILE --into STORE` makes from a transcript"


def check_no_foreign_journal(path: Path, head: bytes) -> None:
    """Refuse a store whose folder holds a rollback journal beside it.

    A store keeps its changes in a write-ahead log (its header's read and write versions are 2),
    never in a rollback journal; but SQLite, opening it, first rolls any "hot" ``-journal`` it
    finds back into the file. A journal copied or left there from another database (the same
    name beside a restored backup) so overwrote the store with that database's pages: ``verify``
    — a read — left a 28 KB file that no longer opened. Nothing is opened then; moving the
    journal away is the remedy, said in the sentence."""
    journal = Path(f"{path}-journal")
    try:
        size = journal.stat().st_size
    except OSError:
        return
    if size > 0 and head[18:20] == b"\x02\x02":
        raise NotAStore(f"{journal.name} lies beside the store {path}, which never writes a rollback journal: it is "
                        "another database's, and opening the store would copy that database's pages into it; nothing "
                        f"was opened — move {journal.name} away, then open the store again", code="foreign_journal")


async def configure(db: aiosqlite.Connection) -> None:
    """Every store connection's settings, in one trip to the database thread (a statement a
    trip made a store's open, two connections, eight trips of ~25 µs of CPU each)."""
    settings = [f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
                # Deleted content is overwritten, not left in free pages, whatever this SQLite build's
                # default is (upstream's default is off).
                "PRAGMA secure_delete = ON", "PRAGMA foreign_keys = ON", "PRAGMA synchronous = NORMAL"]
    await db.executescript(";\n".join(settings) + ";")


def read_only_reason(target: Path) -> str | None:
    """Why a store at ``target`` can only be read, or None. As root, ``os.access`` passes on
    files without write bits, but not on a read-only file system (EROFS)."""
    folder = target.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "a read-only medium"
    except OSError:  # the medium cannot be asked: the open itself says what is wrong
        pass
    if target.exists() and not os.access(target, os.W_OK):
        return "the file is not writable"
    if not os.access(folder, os.W_OK):
        return "its folder is not writable"
    return None


def medium_fault(exc: BaseException) -> bool:
    """A full or failing disk (SQLITE_FULL, SQLITE_IOERR_*), not a damaged or foreign file."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR")


def plain_name(path: str | os.PathLike[str]) -> str:
    """The name to give SQLite for a store *file*: never read as a URI.

    This build of SQLite reads every name starting with ``file:`` as a URI (SQLITE_USE_URI),
    whatever ``uri=`` says: a store argument ``file:x.db?mode=memory`` opened an in-memory
    database (an import "succeeded" into nothing) and ``?vfs=`` / ``?immutable=1`` changed how
    the file is read. ``./file:x.db…`` names the same file and is never a URI."""
    name = os.fspath(path)
    return os.path.join(".", name) if name[:5].lower() == "file:" else name


async def connection(database: str, *, uri: bool = False) -> aiosqlite.Connection:
    """``aiosqlite.connect``, but a connection that fails to open also ends its thread before
    raising: aiosqlite leaves the thread to report its stop to an event loop that a CLI
    command has closed by then, which printed "Event loop is closed" tracebacks. ``database``
    is a file's path unless ``uri`` (a URI this module built itself)."""
    pending = aiosqlite.connect(database if uri else plain_name(database), uri=uri, isolation_level=None)
    try:
        return await pending
    except BaseException:
        thread = getattr(pending, "_thread", None)
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 5)
        raise


async def close_all(connections: list[aiosqlite.Connection]) -> None:
    """Close every connection in ``connections``, and end its thread, whatever cancels the wait;
    the last one named (a store's writer) closes after the others.

    ``aiosqlite``'s own ``close`` awaits the close before it asks the thread to end, and a
    caller closing several awaits them one by one: a cancel landing there (an app exiting
    cancels its workers, then ``asyncio.run`` cancels what still runs, a second time) left the
    rest open, and their threads kept the interpreter waiting at shutdown for ever. Here every
    close-and-stop but the last is queued on its thread first, with no await in between (a
    queued one runs after whatever the connection still has to do), and the last is queued in a
    ``finally`` once they are done, so a cancel cannot skip it. The order matters: only the
    connection that closes last checkpoints the ``-wal`` and removes it, and a ``query_only``
    reader closing last left a store's whole log beside it (and its ``-shm``)."""
    order: list[aiosqlite.Connection] = []
    seen: set[int] = set()
    for db in connections:
        if id(db) in seen or not getattr(db, "_running", False):  # closed already, or named twice
            continue
        seen.add(id(db))
        order.append(db)
    if not order:
        return
    *first, last = order
    pending = [done for done in (db.stop() for db in first) if done is not None]
    try:
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
    finally:
        done = last.stop()
        if done is not None:
            await asyncio.gather(done, return_exceptions=True)


async def connect_reader(target: Path, *, read_only: bool) -> aiosqlite.Connection:
    """A reader: ``query_only`` beside a writer, or a ``mode=ro`` (else ``immutable``) connection
    on a store that cannot be written. A reader that fails (or is cancelled) while being set up
    is closed here: nobody else holds it yet."""
    if not read_only:
        db = await connection(str(target))
        try:
            await configure(db)
            await db.execute("PRAGMA query_only = ON")  # a reader: the writer is the only connection that writes
        except BaseException:
            await close_all([db])
            raise
        return db
    uri = f"file:{quote(os.fsencode(target.resolve()))}?mode=ro"
    db = await connection(uri, uri=True)
    try:
        await configure(db)
        await scalar(db, "SELECT COUNT(*) FROM sqlite_master")
        return db
    except sqlite3.OperationalError:
        # WAL needs its -shm file; on a read-only medium it cannot be made, and nobody can write
        # there either, so the file is read as immutable -- unless a write-ahead log holds commits
        # not yet copied into the file: immutable would silently leave them out.
        await close_all([db])
        wal = Path(f"{target}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise NotAStore(f"{target} cannot be read here: its write-ahead log ({wal.stat().st_size:,} bytes of "
                            "commits not yet in the file) cannot be replayed on a read-only medium; copy the store "
                            "with its -wal file to a writable folder", code="unreadable_wal") from None
    except BaseException:
        await close_all([db])
        raise
    db = await connection(uri + "&immutable=1", uri=True)
    try:
        await configure(db)
    except BaseException:
        await close_all([db])
        raise
    return db
