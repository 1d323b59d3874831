"""An asyncpg connection that offers the services the aiosqlite subset they use.

The services call ``db.execute(...)`` (awaited, or as ``async with`` with the cursor),
``db.execute_fetchall``, ``db.executemany``, the cursor's ``fetchone``/``fetchall``/
``rowcount``/``lastrowid``, ``rollback`` and ``interrupt``. This adapter gives them the same
calls over PostgreSQL, so a service's portable SQL runs unchanged on both backends:

* each statement is translated once (inspector/store/pg/dialect.py);
* rows come back as tuples of what SQLite would have returned (booleans as 0/1, whole
  numerics as ``int``), so digests, JSON documents and comparisons do not change;
* PostgreSQL's errors are raised as the ``sqlite3`` exception a service already catches
  (an integrity violation as ``sqlite3.IntegrityError``, anything else from the server as
  ``sqlite3.OperationalError``) with PostgreSQL's own sentence.

One asyncpg connection runs one statement at a time; tasks sharing a connection queue on
its lock (aiosqlite queues them on its thread the same way).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from decimal import Decimal
from itertools import chain
from typing import Any

import asyncpg

from inspector.domain.errors import InspectorError
from inspector.store.pg.dialect import returning_key, translate

_FETCHES = re.compile(r"^\s*(SELECT|WITH|VALUES)\b", re.I)
_RETURNING = re.compile(r"\bRETURNING\b", re.I)
_ROWCOUNT = re.compile(r"(\d+)\s*$")
# A plain multi-row insert (no conflict clause, no expressions): sent as one COPY instead of
# a statement per row. An import's events are such an insert; COPY takes them in a single
# round of the protocol, and the server parses no statement per row (bench/pg_import.py).
_PLAIN_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)\s*\(([\w\s,]+)\)\s*VALUES\s*\(\s*\?(?:\s*,\s*\?)*\s*\)\s*$",
                           re.I)
COPY_MIN_ROWS = 200  # below this a prepared statement's executemany is as fast


# PostgreSQL text cannot hold U+0000, which SQLite text (and a transcript) can. Text holding
# it is stored with an escape that round-trips exactly: U+FFFF (a noncharacter) marks it,
# "\uffff0" is U+0000 and "\uffff1" is U+FFFF itself. Text without either is stored as is.
_MARK = "\uffff"
_UNESCAPE = re.compile("\uffff([01])")


def _param(v: Any) -> Any:
    if isinstance(v, str) and ("\x00" in v or _MARK in v):
        return v.replace(_MARK, _MARK + "1").replace("\x00", _MARK + "0")
    return v


def _value(v: Any) -> Any:
    if v is True or v is False:
        return int(v)
    if isinstance(v, str):
        return _UNESCAPE.sub(lambda m: "\x00" if m.group(1) == "0" else _MARK, v) if _MARK in v else v
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


def _params(params: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(_param(v) for v in params)


def _many(seq_of_params: Iterable[Sequence[Any]]) -> list[Sequence[Any]]:
    """The rows of an ``executemany``, escaped like :func:`_params`.

    An import sends 100,000 rows of ten values: escaping value by value in Python was the
    largest share of the client's work on that path. Almost no batch holds U+0000 or U+FFFF,
    so the whole batch's text values are checked once at C speed (joined; :func:`_param`
    leaves any other value as it is) and sent as they are; a batch that holds one is
    escaped row by row as before."""
    rows = seq_of_params if isinstance(seq_of_params, list) else list(seq_of_params)
    text = "".join(filter(str.__instancecheck__, chain.from_iterable(rows)))
    if "\x00" in text or _MARK in text:
        return [_params(p) for p in rows]
    return rows


def _row(record: asyncpg.Record) -> tuple[Any, ...]:
    return tuple(_value(v) for v in record.values())


_LOST = (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.PostgresConnectionError,
         asyncpg.exceptions.AdminShutdownError, asyncpg.exceptions.CannotConnectNowError)


def sqlite_error(exc: BaseException) -> Exception:
    """The exception a service or the CLI expects for this PostgreSQL error: the sqlite3 one it
    already catches, or ``store_unreachable`` when the connection to the server was lost."""
    message = getattr(exc, "message", None) or str(exc)
    if isinstance(exc, (*_LOST, OSError)) or (isinstance(exc, asyncpg.InterfaceError) and "closed" in message):
        return InspectorError(f"the connection to the store's server was lost ({' '.join(message.split())}); "
                              "what was not committed was not written", code="store_unreachable")
    if isinstance(exc, asyncpg.IntegrityConstraintViolationError):
        return sqlite3.IntegrityError(message)
    return sqlite3.OperationalError(message)


class PgCursor:
    """The rows of one statement, already fetched (PostgreSQL has no rowid to step through)."""

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int = -1, lastrowid: int | None = None) -> None:
        self._rows = rows
        self._at = 0
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> tuple[Any, ...] | None:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    async def fetchall(self) -> list[tuple[Any, ...]]:
        rest, self._at = self._rows[self._at :], len(self._rows)
        return rest

    async def fetchmany(self, size: int = 1) -> list[tuple[Any, ...]]:
        part = self._rows[self._at : self._at + size]
        self._at += len(part)
        return part

    def __aiter__(self) -> AsyncIterator[tuple[Any, ...]]:
        return self._iter()

    async def _iter(self) -> AsyncIterator[tuple[Any, ...]]:
        while self._at < len(self._rows):
            self._at += 1
            yield self._rows[self._at - 1]

    async def close(self) -> None:
        self._rows = []

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class _Execution:
    """What ``execute`` returns: awaitable (a cursor) and usable as ``async with``, like aiosqlite's."""

    def __init__(self, conn: PgConnection, sql: str, params: Sequence[Any]) -> None:
        self._conn, self._sql, self._params = conn, sql, params
        self._cursor: PgCursor | None = None

    def __await__(self):  # type: ignore[no-untyped-def]
        return self._conn._run(self._sql, self._params).__await__()

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self._conn._run(self._sql, self._params)
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


class PgConnection:
    """One asyncpg connection behind the aiosqlite calls the services make."""

    dialect = "postgresql"

    def __init__(self, raw: asyncpg.Connection,
                 reconnect: Callable[[], Awaitable[asyncpg.Connection]] | None = None) -> None:
        self.raw = raw
        self.lock = asyncio.Lock()
        # The shared autocommit reader connects again when the server dropped it (a restart):
        # it holds no transaction, so nothing is lost; a writer never does (its transaction is).
        self.reconnect = reconnect

    async def _alive(self) -> None:
        if self.reconnect is not None and self.raw.is_closed():
            self.raw = await self.reconnect()

    @property
    def backend_pid(self) -> int:
        return int(self.raw.get_server_pid())

    def execute(self, sql: str, params: Sequence[Any] | None = None) -> _Execution:
        return _Execution(self, sql, _params(params or ()))

    async def execute_fetchall(self, sql: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        cursor = await self._run(sql, _params(params or ()))
        return await cursor.fetchall()

    async def executemany(self, sql: str, seq_of_params: Iterable[Sequence[Any]]) -> None:
        args = _many(seq_of_params)
        if not args:
            return
        plain = _PLAIN_INSERT.match(sql) if len(args) >= COPY_MIN_ROWS else None
        if plain is not None:
            columns = [c.strip() for c in plain.group(2).split(",")]
            async with self.lock:
                try:
                    await self.raw.copy_records_to_table(plain.group(1).lower(), records=args, columns=columns)
                except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                    raise sqlite_error(exc) from exc
            return
        statement = translate(sql)
        async with self.lock:
            try:
                await self.raw.executemany(statement, args)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                raise sqlite_error(exc) from exc

    async def _run(self, sql: str, params: tuple[Any, ...]) -> PgCursor:
        statement = translate(sql)
        key = returning_key(sql)
        if key and not _RETURNING.search(statement):
            statement = f"{statement} RETURNING {key}"
        async with self.lock:
            await self._alive()
            try:
                if _FETCHES.match(statement) or _RETURNING.search(statement):
                    records = await self.raw.fetch(statement, *params)
                    rows = [_row(r) for r in records]
                    lastrowid = int(rows[-1][0]) if key and rows else None
                    return PgCursor(rows if not key else [], len(records) if key else -1, lastrowid)
                status = await self.raw.execute(statement, *params)
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
                raise sqlite_error(exc) from exc
        match = _ROWCOUNT.search(status or "")
        return PgCursor([], int(match.group(1)) if match and not status.startswith("SELECT") else -1)

    async def rollback(self) -> None:
        """End whatever transaction this connection is in (a no-op outside one)."""
        async with self.lock:
            if self.raw.is_in_transaction():
                await self.raw.execute("ROLLBACK")

    async def commit(self) -> None:
        async with self.lock:
            if self.raw.is_in_transaction():
                await self.raw.execute("COMMIT")

    async def interrupt(self) -> None:
        """A cancelled await already makes asyncpg cancel its statement on the server."""

    async def close(self) -> None:
        await self.raw.close()
