"""Opening a store: recognising it, migrating it forward, and running transactions.

Every write goes through :meth:`Store.transaction` (``BEGIN IMMEDIATE`` on the one writer
connection), so a service's projection changes and its ledger entries commit together or
not at all; reads run on reader connections of their own. A store that cannot be written
opens read-only (``mode=ro``, or ``immutable`` when even WAL's shared-memory file cannot be
made), and every write is then refused with ``read_only``.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiosqlite

from inspector.domain.errors import InspectorError, NotAStore, StoreBusy
from inspector.store import faults, grams, held_files
from inspector.store.location import StoreUrl, is_url, store_target
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION, MIGRATIONS

SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_TIMEOUT_MS = 10_000


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _check_file_is_sqlite(path: Path) -> None:
    """The file starts with SQLite's magic — read only when this process holds no connection to
    it (store/held_files.py): a file it holds was checked when first opened."""
    if held_files.holds(path):
        return
    try:
        with path.open("rb") as fh:
            head = fh.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise NotAStore(f"cannot read {path}: {exc.strerror}") from None
    if head != SQLITE_MAGIC:
        raise NotAStore(f"{path} is not a Context Inspector store (not an SQLite file)")


class Store:
    """An open session store (SQLite here; inspector/store/pg/store.py's PgStore on PostgreSQL). Use :func:`open_store` to get one.

    One connection writes (every write in :meth:`transaction`, ``BEGIN IMMEDIATE``, one at a
    time); reads run on their own connections, which WAL lets run beside the writer:
    :attr:`db` outside a transaction is a shared autocommit reader, and :meth:`snapshot`
    lends a reader of its own from a small pool. Which connection :attr:`db` means is kept
    per asyncio task (a context variable), so two workers never share a transaction: a
    snapshot in one and a write in another run on different connections.
    """

    POOL_SIZE = 4  # idle readers kept open for snapshots
    dialect = "sqlite"

    def __init__(self, path: Path, writer: aiosqlite.Connection | None, key: bytes, reader: aiosqlite.Connection,
                 *, read_only: bool = False, read_only_reason: str = "", connect_reader: Any = None) -> None:
        self.path = path
        self.digest_key = key
        self.read_only = read_only
        self.read_only_reason = read_only_reason
        self._writer = writer
        self._reader = reader
        self._connect_reader = connect_reader
        self._idle: list[aiosqlite.Connection] = []
        self._lent: set[aiosqlite.Connection] = set()
        self._write_lock = asyncio.Lock()
        self._bound: ContextVar[aiosqlite.Connection | None] = ContextVar(f"store-{id(self)}", default=None)
        self._held: tuple[int, int] | None = None  # this store's file in held_files, until closed

    @property
    def db(self) -> aiosqlite.Connection:
        """The connection for this task: the one its snapshot or transaction holds, else the shared reader."""
        return self._bound.get() or self._reader

    @property
    def watch_db(self) -> aiosqlite.Connection:
        """The connection whose ``data_version`` changes only when *another* process commits."""
        return self._writer or self._reader

    async def close(self) -> None:
        for db in [*self._idle, *self._lent, self._reader, *([self._writer] if self._writer else [])]:
            await db.close()
        self._idle.clear()
        self._lent.clear()
        held, self._held = self._held, None
        held_files.release(held)

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def has_writer(self) -> bool:
        """Whether this store was opened with a writer connection (not read-only)."""
        return self._writer is not None

    def refuse_writes(self) -> None:
        if self.read_only or self._writer is None:
            raise InspectorError(f"{self.path} is open read-only ({self.read_only_reason or 'read-only'}): it can "
                                 "be read and verified, not changed", code="read_only")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction on the writer; rolled back on any exception, so a refusal writes nothing.
        Writes from several tasks queue here, one at a time."""
        self.refuse_writes()
        assert self._writer is not None
        if self._bound.get() is self._writer:
            raise RuntimeError("a transaction inside a transaction of the same task")
        writer = self._writer
        async with self._write_lock:
            token = self._bound.set(writer)
            try:
                try:
                    await writer.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:  # another process's write outlasted the busy timeout
                    if "locked" in str(exc) or "busy" in str(exc):
                        raise StoreBusy(BUSY_TIMEOUT_MS / 1000) from None
                    raise
                yield writer
                await writer.execute("COMMIT")
            except BaseException:
                # Statements run in order on the connection's thread, so this rollback runs after
                # whatever a cancelled await left queued (even a BEGIN that had not run yet), and
                # is a no-op when there is no transaction: the next writer always starts clean.
                await writer.rollback()
                raise
            finally:
                self._bound.reset(token)

    @asynccontextmanager
    async def writes_held(self) -> AsyncIterator[None]:
        """Keep other writers out across several transactions. SQLite cannot hold its write lock
        between transactions, so here it is only the refusal of a read-only store; PostgreSQL
        holds its store-wide advisory lock (inspector/store/pg/store.py)."""
        self.refuse_writes()
        yield

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[aiosqlite.Connection]:
        """A read transaction on a reader of this task's own, so several queries see one
        consistent state while other tasks read and write."""
        held = self._bound.get()
        if held is not None:  # already inside a snapshot or transaction of this task: it is consistent
            yield held
            return
        db = self._idle.pop() if self._idle else await self._connect_reader()
        self._lent.add(db)
        token = self._bound.set(db)
        try:
            await db.execute("BEGIN")
            yield db
        finally:
            self._bound.reset(token)
            self._lent.discard(db)
            try:
                # Ends the read transaction; queued behind anything a cancelled worker left running
                # (a BEGIN included), so the reader goes back to the pool clean.
                await db.rollback()
            finally:
                if len(self._idle) < self.POOL_SIZE:
                    self._idle.append(db)
                else:
                    await db.close()


async def _configure(db: aiosqlite.Connection) -> None:
    await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    # Deleted content is overwritten, not left in free pages, whatever this SQLite build's
    # default is (upstream's default is off).
    await db.execute("PRAGMA secure_delete = ON")
    await db.execute("PRAGMA foreign_keys = ON")
    await db.execute("PRAGMA synchronous = NORMAL")


async def _scalar(db: aiosqlite.Connection, sql: str) -> int:
    async with db.execute(sql) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def _migrate(db: aiosqlite.Connection, version: int) -> None:
    while version < FORMAT_VERSION:
        await db.execute("BEGIN IMMEDIATE")
        try:
            for statement in _split_sql(MIGRATIONS[version]):
                await db.execute(statement)
            if version == 0:
                await db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                await db.execute(
                    "INSERT INTO store_meta(key, value) VALUES ('digest_key', ?), ('created_at', ?)",
                    (secrets.token_hex(32), utc_now()),
                )
            await db.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        await db.execute("COMMIT")
        version += 1


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


def read_only_reason(target: Path) -> str | None:
    """Why a store at ``target`` can only be read, or None. As root, ``os.access`` passes on
    files without write bits, but not on a read-only file system (EROFS)."""
    folder = target.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return "a read-only medium"
    except OSError:
        pass
    if target.exists() and not os.access(target, os.W_OK):
        return "the file is not writable"
    if not os.access(folder, os.W_OK):
        return "its folder is not writable"
    return None


async def _connect(target: Path, *, read_only: bool) -> aiosqlite.Connection:
    if not read_only:
        db = await _connection(str(target))
        await _configure(db)
        await db.execute("PRAGMA query_only = ON")  # a reader: the writer is the only connection that writes
        return db
    uri = f"file:{quote(str(target.resolve()))}?mode=ro"
    db = await _connection(uri, uri=True)
    try:
        await _configure(db)
        await _scalar(db, "SELECT COUNT(*) FROM sqlite_master")
        return db
    except sqlite3.OperationalError:
        # WAL needs its -shm file; on a read-only medium it cannot be made, and nobody can write
        # there either, so the file is read as immutable -- unless a write-ahead log holds commits
        # not yet copied into the file: immutable would silently leave them out.
        await db.close()
        wal = Path(f"{target}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise NotAStore(f"{target} cannot be read here: its write-ahead log ({wal.stat().st_size:,} bytes of "
                            "commits not yet in the file) cannot be replayed on a read-only medium; copy the store "
                            "with its -wal file to a writable folder", code="unreadable_wal") from None
        db = await _connection(uri + "&immutable=1", uri=True)
        await _configure(db)
        return db


def store_error(exc: BaseException) -> InspectorError | None:
    """The product error (code and sentence, store/faults.py) for an SQLite or OS error met while
    using a store — for the app's error dialog, which imports no sqlite3 — or None for others."""
    if isinstance(exc, (sqlite3.DatabaseError, OSError)) and not isinstance(exc, BrokenPipeError):
        return faults.explain(exc)
    return None


def _medium_fault(exc: BaseException) -> bool:
    """A full or failing disk (SQLITE_FULL, SQLITE_IOERR_*), not a damaged or foreign file."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name == "SQLITE_FULL" or name.startswith("SQLITE_IOERR")


async def _connection(database: str, *, uri: bool = False) -> aiosqlite.Connection:
    """``aiosqlite.connect``, but a connection that fails to open also ends its thread before
    raising: aiosqlite leaves the thread to report its stop to an event loop that a CLI
    command has closed by then, which printed "Event loop is closed" tracebacks."""
    pending = aiosqlite.connect(database, uri=uri, isolation_level=None)
    try:
        return await pending
    except BaseException:
        thread = getattr(pending, "_thread", None)
        if thread is not None and thread.is_alive():
            await asyncio.to_thread(thread.join, 5)
        raise


async def open_store(path: str | os.PathLike[str] | StoreUrl, *, create: bool = False, read_only: bool | None = None) -> Store:
    """Open (or, with ``create``, make) a store; refuse anything that is not one.

    A file of a newer format version is refused rather than guessed at; an older one
    is migrated forward. A store that cannot be written (a read-only medium, a file or
    folder without write permission) opens read-only (``read_only`` None: decided here);
    asking to create or write one there (``create``) is refused with ``read_only``.
    ``path`` may be a PostgreSQL URL (``postgresql://user@host:port/database``, or a
    :class:`StoreUrl`): the store is then that database's.
    """
    if is_url(path):  # a PostgreSQL database (inspector/store/pg): the same Store over asyncpg
        from inspector.store.pg.store import open_pg_store

        return await open_pg_store(store_target(path), create=create, read_only=read_only)  # type: ignore[arg-type]
    target = Path(path)
    problem = faults.path_problem(target)  # a folder, FIFO, device or link leading nowhere: never opened
    if problem is not None:
        raise problem
    exists = target.exists() and target.stat().st_size > 0
    if exists:
        _check_file_is_sqlite(target)
    elif not create:
        raise NotAStore(f"no store at {target}")
    reason = read_only_reason(target) if read_only is None else ("opened read-only" if read_only else None)
    if reason is not None and create:
        raise InspectorError(f"{target} cannot be written ({reason}): a store there can be read, not imported "
                             "into", code="read_only")
    if reason is not None:
        store = await _open_read_only(target, reason)
        store._held = held_files.hold(target)
        return store
    try:
        db = await _connection(str(target))
    except sqlite3.Error as exc:
        raise NotAStore(f"cannot open {target}: {exc}") from None
    try:
        await _configure(db)
        # The writer fills the short-query index (events_grams): catch-up, migrations, deletions.
        await db.create_function(grams.FUNCTION, 1, grams.grams, deterministic=True)
        key = await _check_and_migrate(db, target, exists)
        reader = await _connect(target, read_only=False)
        store = Store(target, db, key, reader, connect_reader=lambda: _connect(target, read_only=False))
        store._held = held_files.hold(target)
        return store
    except sqlite3.DatabaseError as exc:
        await db.close()
        if exists and not create and _medium_fault(exc):
            # A disk too full (or failing) for WAL's -shm file: the store is still read, read-only.
            store = await _open_read_only(target, "the disk holding it is full or failing")
            store._held = held_files.hold(target)
            return store
        if _medium_fault(exc) or getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            raise faults.explain(exc, str(target)) from None
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except UnicodeDecodeError as exc:  # a damaged schema's message may not even decode
        await db.close()
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except BaseException:
        await db.close()
        raise


async def _open_read_only(target: Path, reason: str) -> Store:
    try:
        db = await _connect(target, read_only=True)
    except sqlite3.Error as exc:
        raise NotAStore(f"cannot open {target} read-only: {exc}") from None
    try:
        app_id = await _scalar(db, "PRAGMA application_id")
        version = await _scalar(db, "PRAGMA user_version")
        if app_id != APPLICATION_ID:
            raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
        if version != FORMAT_VERSION:
            raise NotAStore(f"{target} has store format {version}; this version reads {FORMAT_VERSION}, and a store "
                            "that cannot be written cannot be migrated", code="unknown_format_version")
        row = await fetch_one(db, "SELECT value FROM store_meta WHERE key = 'digest_key'")
        if row is None:
            raise NotAStore(f"{target} is missing its store metadata")
        return Store(target, None, bytes.fromhex(row[0]), db, read_only=True, read_only_reason=reason,
                     connect_reader=lambda: _connect(target, read_only=True))
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a damaged schema's message may not even decode
        await db.close()
        raise NotAStore(f"{target} is not a readable store: {exc}") from None
    except BaseException:
        await db.close()
        raise


async def _check_and_migrate(db: aiosqlite.Connection, target: Path, exists: bool) -> bytes:
    app_id = await _scalar(db, "PRAGMA application_id")
    version = await _scalar(db, "PRAGMA user_version")
    if exists and app_id != APPLICATION_ID:
        raise NotAStore(f"{target} is an SQLite file but not a Context Inspector store")
    if version > FORMAT_VERSION:
        raise NotAStore(
            f"{target} has store format {version}; this version of Context Inspector reads up to "
            f"{FORMAT_VERSION}. Upgrade the inspector to open it.",
            code="unknown_format_version",
        )
    await db.execute("PRAGMA journal_mode = WAL")
    await _migrate(db, version)
    async with db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'") as cur:
        row = await cur.fetchone()
    if row is None:
        raise NotAStore(f"{target} is missing its store metadata")
    return bytes.fromhex(row[0])


async def fetch_one(db: aiosqlite.Connection, sql: str, params: tuple[Any, ...] | list[Any] = ()) -> Any:
    """First row or None, in one trip to the database thread (a cursor costs three)."""
    rows = await db.execute_fetchall(sql, params)
    for row in rows:
        return row
    return None


async def checkpoint(store: Store) -> bool:
    """Copy the WAL into the database file and truncate it to zero bytes (after a deletion,
    so no old frame keeps deleted content). False when a reader still holds an older
    snapshot after the busy timeout: the WAL is then truncated by the next checkpoint."""
    if getattr(store, "dialect", "sqlite") == "postgresql":
        from inspector.store.pg.maintenance import reclaim

        return await reclaim(store)
    row = await fetch_one(store.db, "PRAGMA wal_checkpoint(TRUNCATE)")
    return row is not None and int(row[0]) == 0


async def data_version(db: aiosqlite.Connection) -> int:
    """Changes whenever *another* connection commits to the file (SQLite's own change counter);
    on PostgreSQL, whenever another server session appends to the ledger (its notices)."""
    if getattr(db, "dialect", "sqlite") == "postgresql":
        await db.start()  # type: ignore[attr-defined]  # listening from the first look on
        return int(db.changes)  # type: ignore[attr-defined]
    row = await fetch_one(db, "PRAGMA data_version")
    return int(row[0]) if row else 0


async def last_change(store: Store) -> dict[str, Any] | None:
    """Who made the latest change another process committed, and what it was (session, kind,
    actor, seq): from the change notice on PostgreSQL, from the ledger's last entry on SQLite
    (every write appends one)."""
    notice = getattr(store, "last_change", None)
    if notice is not None:
        return dict(notice)
    row = await fetch_one(store.db, "SELECT session, kind, actor, seq FROM ledger ORDER BY seq DESC LIMIT 1")
    return None if row is None else {"session": row[0], "kind": row[1], "actor": row[2], "seq": row[3]}
