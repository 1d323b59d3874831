"""A store in a PostgreSQL database: connections, transactions, migrations, change notices.

The same :class:`~inspector.store.connection.Store` the services know, over asyncpg:

* :meth:`PgStore.transaction` runs on the one writer connection of this process and first
  takes ``pg_advisory_xact_lock`` on the store's key. The ledger is one hash chain for the
  whole store (``seq`` is global), so write transactions serialise store-wide, across
  processes and machines, inside PostgreSQL itself: a service's compare-and-swap check and
  its ledger append see every commit made before the lock was granted, and the next
  writer sees this one. No application-side lock decides anything between processes.
* :meth:`PgStore.snapshot` lends a connection in a ``REPEATABLE READ READ ONLY``
  transaction, so several queries see one state (SQLite's read transaction).
* A dedicated connection ``LISTEN``s on ``inspector_changes`` (a trigger notifies on every
  ledger insert); notices from other server sessions bump :attr:`changes` and set
  :attr:`last_change` (who did what), which is what ``data_version`` reads on this backend.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import asyncpg

from inspector.domain.errors import InspectorError, NotAStore, StoreBusy
from inspector.store.call_index import fill_to_watermark as fill_calls
from inspector.store.connection import Store, utc_now
from inspector.store.digest_key import parse_key
from inspector.store.format_upgrade import Upgrade, announce, left_as_it_was, upgrade_needed
from inspector.store.location import StoreUrl
from inspector.store.pg import held as pg_held
from inspector.store.pg.adapter import PgConnection, sqlite_error
from inspector.store.pg.schema import CHANNEL, PG_MIGRATIONS, WRITE_LOCK_KEY
from inspector.store.reasoning_index import REASONING
from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION

CONNECT_TIMEOUT_S = 10
# A write waits this long for another reviewer's write, then is refused ``store_busy`` (SQLite's busy timeout).
WRITE_LOCK_TIMEOUT_MS = 10_000
# A writer idle inside its transaction this long (a stopped client, a dropped network) is ended by the
# server, releasing the store-wide lock it held; no service waits between statements anywhere near it.
IDLE_IN_TRANSACTION_TIMEOUT_MS = 120_000


class ChangeWatcher:
    """What ``data_version`` reads on PostgreSQL: notices of other sessions' ledger appends.

    It listens from its first use on (:meth:`start`, on a connection of its own), so a command
    that never watches opens no listening connection; the first look only records where
    things stand, as SQLite's first ``data_version`` does."""

    dialect = "postgresql"

    def __init__(self, location: StoreUrl) -> None:
        self.location = location
        self.changes = 0
        self.last_change: dict[str, Any] | None = None
        self.own_pids: set[int] = set()
        self.listener: asyncpg.Connection | None = None
        self.lost = False  # the listening connection was lost and is not back yet

    async def start(self) -> None:
        """Listen, from the first look on, and again after the listening connection was lost (a
        server restart, a dropped network): notices sent meanwhile are gone, so coming back counts
        as a change and the app reads the ledger for what happened. While the server cannot be
        reached it is tried again at the next look; the app's next act says the server is gone."""
        if self.listener is not None and self.listener.is_closed():
            self.listener = None
            self.lost = True
        if self.listener is None:
            try:
                listener = await _connect(self.location)
                await listener.add_listener(CHANNEL, self.notice)
            except InspectorError:
                if self.lost:
                    return
                raise
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                if self.lost:
                    return
                raise
            self.listener = listener
            if self.lost:
                self.lost = False
                self.changes += 1
                self.last_change = None

    async def stop(self) -> None:
        if self.listener is not None:
            listener, self.listener = self.listener, None
            await listener.close()

    def notice(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            body = json.loads(payload)
        except ValueError:
            return
        if int(body.get("pid") or 0) in self.own_pids:
            return
        self.changes += 1
        self.last_change = {k: body.get(k) for k in ("session", "kind", "actor", "seq")}


class PgStore(Store):
    """An open PostgreSQL store. Use :func:`inspector.store.connection.open_store` with a URL."""

    POOL_SIZE = 4

    def __init__(self, location: StoreUrl, key: bytes, reader: PgConnection, watcher: ChangeWatcher, *,
                 read_only: bool = False, read_only_reason: str = "") -> None:
        self.path = location  # type: ignore[assignment]
        self.location = location
        self.digest_key = key
        self.read_only = read_only
        self.read_only_reason = read_only_reason
        self._writer: PgConnection | None = None  # type: ignore[assignment]  # connected at the first write
        self._reader = reader  # type: ignore[assignment]
        self.created = False  # this open made the store in an empty database
        self.format_upgraded: dict[str, Any] | None = None  # the format upgrade this open made
        self.watcher = watcher
        self._idle: list[PgConnection] = []  # type: ignore[assignment]
        self._lent: set[PgConnection] = set()  # type: ignore[assignment]
        self._write_lock = asyncio.Lock()
        self._bound: ContextVar[PgConnection | None] = ContextVar(f"pgstore-{id(self)}", default=None)  # type: ignore[assignment]

    dialect = "postgresql"

    @property
    def watch_db(self) -> ChangeWatcher:  # type: ignore[override]
        return self.watcher

    def refuse_writes(self) -> None:
        if self.read_only:  # the writer connection itself is made at the first write
            raise InspectorError(f"{self.path} is open read-only ({self.read_only_reason or 'read-only'}): it can "
                                 "be read and verified, not changed", code="read_only")

    @property
    def last_change(self) -> dict[str, Any] | None:
        return self.watcher.last_change

    async def close(self) -> None:
        done, self.held_upgrade = self.held_upgrade, None
        if done is not None:  # no act was made: the store was read as it is and left at its format
            left_as_it_was(done)
        conns = [*self._idle, *self._lent, self._reader, *([self._writer] if self._writer else [])]
        self._idle.clear()
        self._lent.clear()
        self._writer = None
        for conn in conns:
            await conn.close()
        await self.watcher.stop()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        """One write transaction, serialised store-wide by an advisory lock held to its end."""
        self.refuse_writes()
        writer = self._writer
        if writer is not None and self._bound.get() is writer:
            raise RuntimeError("a transaction inside a transaction of the same task")
        async with self._write_lock:
            writer = await self._writer_connection()
            token = self._bound.set(writer)
            try:
                async with writer.lock:
                    await _mapped(writer.raw.execute("BEGIN ISOLATION LEVEL READ COMMITTED"))
                    await _mapped(writer.raw.execute(f"SET LOCAL lock_timeout = {int(WRITE_LOCK_TIMEOUT_MS)}"))
                    try:
                        await writer.raw.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")
                    except asyncpg.LockNotAvailableError:
                        raise StoreBusy(WRITE_LOCK_TIMEOUT_MS / 1000) from None
                    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                        raise sqlite_error(exc) from exc
                    await _mapped(writer.raw.execute("SET LOCAL lock_timeout TO DEFAULT"))
                    held = await pg_held.begun(self, writer)
                yield writer
                if held is not None and not await pg_held.wrote(writer, held[1]):
                    await _quiet_rollback(writer)  # a refusal returned: the store left at its format
                    return
                async with writer.lock:  # deferred foreign keys are checked here, as SQLite does at COMMIT
                    await _mapped(writer.raw.execute("COMMIT"))
                if held is not None:
                    pg_held.made(self, held[0])
            except BaseException:
                await _quiet_rollback(writer)
                raise
            finally:
                self._bound.reset(token)

    async def _writer_connection(self) -> PgConnection:
        if self._writer is None or self._writer.raw.is_closed():  # first write, or a lost connection
            self._writer = PgConnection(await _connect(self.location))
            await _mapped(self._writer.raw.execute(
                f"SET idle_in_transaction_session_timeout = {int(IDLE_IN_TRANSACTION_TIMEOUT_MS)}"))
            self.watcher.own_pids.add(self._writer.backend_pid)
        return self._writer

    @asynccontextmanager
    async def writes_held(self) -> AsyncIterator[None]:
        """Keep every other session's writes waiting across several of this store's transactions
        (``migrate`` fills a store page by page): the store-wide advisory lock, taken at session
        level on the writer connection, where each transaction's own ``xact`` lock re-enters it."""
        self.refuse_writes()
        async with self._write_lock:
            writer = await self._writer_connection()
        async with writer.lock:
            await _mapped(writer.raw.execute(f"SELECT pg_advisory_lock({WRITE_LOCK_KEY})"))
        try:
            yield
        finally:
            if not writer.raw.is_closed():
                try:
                    async with writer.lock:
                        await writer.raw.execute(f"SELECT pg_advisory_unlock({WRITE_LOCK_KEY})")
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
                    writer.raw.terminate()  # closing the session releases the lock

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        held = self._bound.get()
        if held is not None:
            yield held
            return
        while self._idle and self._idle[-1].raw.is_closed():  # dropped by the server while idle
            self._idle.pop()
        conn = self._idle.pop() if self._idle else PgConnection(await _connect(self.location))
        self._lent.add(conn)
        token = self._bound.set(conn)
        try:
            async with conn.lock:
                await conn.raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield conn
        finally:
            self._bound.reset(token)
            self._lent.discard(conn)
            await _quiet_rollback(conn)
            if len(self._idle) < self.POOL_SIZE and not conn.raw.is_closed():
                self._idle.append(conn)
            else:
                await conn.close()


async def _mapped(statement: Awaitable[Any]) -> Any:
    """Await a transaction-control statement, raising the sqlite3 error services and the CLI expect."""
    try:
        return await statement
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise sqlite_error(exc) from exc


async def _quiet_rollback(conn: PgConnection) -> None:
    try:
        await asyncio.shield(conn.rollback())
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        conn.raw.terminate()


def _unreachable(location: StoreUrl, exc: BaseException) -> InspectorError:
    if isinstance(exc, ConnectionRefusedError):
        reason = "no server answers there (connection refused)"
    elif isinstance(exc, (asyncio.TimeoutError, TimeoutError)):
        reason = f"the server did not answer within {CONNECT_TIMEOUT_S} s"
    elif isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror[0].lower() + exc.strerror[1:]
    else:
        reason = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    reason = " ".join(reason.split())
    return InspectorError(f"cannot reach the store {location.shown}: {reason}; nothing was written",
                          code="store_unreachable")


async def _connect(location: StoreUrl) -> asyncpg.Connection:
    try:
        return await asyncpg.connect(location.url, timeout=CONNECT_TIMEOUT_S)
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as exc:
        raise _unreachable(location, exc) from None


async def _format_version(conn: asyncpg.Connection, location: StoreUrl) -> int | None:
    """The store's format version; 0 for an empty database; None for a database holding other things."""
    has_format = await conn.fetchval("SELECT to_regclass('store_format') IS NOT NULL")
    if not has_format:
        others = await conn.fetchval(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")
        return 0 if not others else None
    row = await conn.fetchrow("SELECT application_id, version FROM store_format")
    if row is None or int(row[0]) != APPLICATION_ID:
        raise NotAStore(f"{location.shown} holds a store_format table that is not a Context Inspector store's")
    return int(row[1])


async def _migrate(conn: asyncpg.Connection, location: StoreUrl, create: bool, created: list[int]) -> None:
    """Bring the database to FORMAT_VERSION, one locked transaction per step (safe when several open it at once).
    ``created`` gets the format each step started from (0: the store was made), so the open can say an upgrade."""
    if await _format_version(conn, location) == FORMAT_VERSION:
        return  # current: no lock needed (a reviewer's write holding it must not keep others from opening)
    while True:
        async with conn.transaction():
            await conn.execute(f"SET LOCAL lock_timeout = {int(WRITE_LOCK_TIMEOUT_MS)}")
            try:
                await conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})")
            except asyncpg.LockNotAvailableError:
                raise StoreBusy(WRITE_LOCK_TIMEOUT_MS / 1000) from None
            version = await _format_version(conn, location)
            if version is None:
                raise NotAStore(f"{location.shown} is a database holding other tables, not a Context Inspector store")
            if version > FORMAT_VERSION:
                raise NotAStore(f"{location.shown} has store format {version}; this version of Context Inspector "
                                f"reads up to {FORMAT_VERSION}. Upgrade the inspector to open it.",
                                code="unknown_format_version")
            if version == FORMAT_VERSION:
                return
            if version == 0 and not create:
                raise NotAStore(f"no store in {location.shown} (the database is empty; `inspector import FILE --into "
                                "URL` creates one)")
            target, script = PG_MIGRATIONS[version]
            try:
                await conn.execute(script)
            except (asyncpg.DuplicateTableError, asyncpg.DuplicateObjectError) as exc:
                # what a later format adds is there already: the number was lowered behind the tool (said
                # "not a readable store: relation reasoning_search already exists"); SQLite's same refusal
                raise NotAStore(f"{location.shown} says it is store format {version}, yet it already holds what a "
                                f"later format adds ({exc}): its format number (store_format.version) was changed "
                                "behind the tool; nothing was changed", code="format_number_differs") from None
            if target == 5:  # an older store's indexed events get their call input indexed
                await fill_calls(PgConnection(conn))
            if target == 6:  # and their thinking
                await REASONING.fill_to_watermark(PgConnection(conn))
            created.append(version)
            if version == 0:
                await conn.execute("INSERT INTO store_format (application_id, version) VALUES ($1, $2)",
                                   APPLICATION_ID, target)
                await conn.execute("INSERT INTO store_meta(key, value) VALUES ('digest_key', $1), ('created_at', $2)",
                                   secrets.token_hex(32), utc_now())
            else:
                await conn.execute("UPDATE store_format SET version = $1", target)


async def open_pg_store(location: StoreUrl, *, create: bool = False, read_only: bool | None = None,
                        hold: bool = False, upgrade: bool = True) -> PgStore:
    """Open (with ``create``, make) the store in the database ``location`` names. ``hold``: an older
    store whose format this version reads as it is (store/pg/held.py) is left at it until the first
    act; ``upgrade`` False (``verify``): such a store is read as it is, an older one refused."""
    location.check()
    first = await _connect(location)
    opened: list[Any] = [first]
    made: list[int] = []
    held: Upgrade | None = None
    started = time.monotonic()
    try:
        server_read_only = await first.fetchval("SHOW transaction_read_only") == "on"
        if server_read_only or read_only:
            reason = "a read-only server" if server_read_only else "opened read-only"
            if create:
                raise InspectorError(f"{location.shown} cannot be written ({reason}): a store there can be read, "
                                     "not imported into", code="read_only")
            version = await _format_version(first, location)
            if version != FORMAT_VERSION:
                raise NotAStore(f"{location.shown} has store format {version}; this version reads {FORMAT_VERSION}, "
                                "and a store that cannot be written cannot be migrated", code="unknown_format_version")
        else:
            reason = ""
            version = await _format_version(first, location)
            if (hold or not upgrade) and pg_held.holdable(version):
                held = Upgrade(location.shown, int(version), FORMAT_VERSION, 0, 0.0)  # type: ignore[arg-type]
            elif not upgrade and version is not None and 0 < version < FORMAT_VERSION:
                raise upgrade_needed(location.shown, version, "a check writes nothing")  # type: ignore[arg-type]
            else:
                await _migrate(first, location, create, made)
        key_hex = await first.fetchval("SELECT value FROM store_meta WHERE key = 'digest_key'")
        if key_hex is None:
            raise NotAStore(f"{location.shown} is missing its store metadata")
        reader = PgConnection(first, lambda: _connect(location))
        store = PgStore(location, parse_key(key_hex, location.shown), reader, ChangeWatcher(location),
                        read_only=bool(reason), read_only_reason=reason)
        store.created = 0 in made
        store.held_upgrade = held
        if made and min(made) > 0:  # an older store brought to this format: said as an SQLite store's upgrade is
            done = Upgrade(location.shown, min(made), FORMAT_VERSION, 0, time.monotonic() - started)
            announce(done)
            store.format_upgraded = done.as_dict()
        return store
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        for conn in opened:
            await conn.close()
        raise NotAStore(f"{location.shown} is not a readable store: {exc}") from None
    except BaseException:
        for conn in opened:
            await conn.close()
        raise
