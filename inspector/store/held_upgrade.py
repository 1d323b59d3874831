"""A format upgrade held until the command's first act (open_store's ``hold_upgrade``).

An older store used to be upgraded — committed — when a command opened it, before the command
read its input or checked anything: ``import bad.jsonl`` refused at line 4, an ``accept`` refused
``stale_base``, a ``delete`` of an unknown request each exited with "nothing was written" while the
file had become the next format (storefault-ten, from lead-16-17 item 5). Storefault-ten held the
upgrade in a transaction left open on the writer, which held the store's write lock while the
command ran, so a second command — a read — waited for it. Now (storefault-eleven) the command
reads an upgraded private copy (store/read_copy.py) and the file is not touched until an act: the
act's transaction first makes the upgrade on the file (format_upgrade.migrate, held), then the act,
and commits both with one commit mark; an act refused (or one that wrote nothing) rolls both back,
the file byte for byte as it was; a store closed with no act made says "left at format N".
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.store import format_upgrade, held_files, read_copy, sqlite_connections, wal_commits


async def commit(writer: aiosqlite.Connection) -> None:
    """Commit the upgrade (and what an act wrote with it) with its one commit mark."""
    await writer.execute(wal_commits.MARK_SQL)
    await writer.execute("COMMIT")


async def upgrade_file(writer: aiosqlite.Connection, path: Path) -> format_upgrade.Upgrade | None:
    """Begin the write transaction that upgrades the file (left open, unsaid): BEGIN IMMEDIATE and every
    step. None when the file is current already (another process upgraded it since it was copied):
    the transaction is then a plain one, begun here all the same."""
    version = int((await writer.execute_fetchall("PRAGMA user_version"))[0][0])
    done = await format_upgrade.migrate(writer, version, path, hold=True)
    if done is None:
        try:
            await writer.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:  # another process's write outlasted the busy timeout
            if "locked" in str(exc) or "busy" in str(exc):
                raise format_upgrade.lock_held(str(path), version) from None
            raise
    return done


class HeldUpgrade:
    """The held upgrade's part of the SQLite Store (store/sqlite_store.py): the private copy it reads,
    an act that upgrades the file with it, and :meth:`keep_upgrade` for a holder that stays open."""

    held_upgrade: format_upgrade.Upgrade | None = None  # made on the copy, not yet on the file
    read_copy: read_copy.ReadCopy | None = None
    format_upgraded: dict[str, Any] | None = None
    path: Path
    _writer: aiosqlite.Connection | None
    _reader: aiosqlite.Connection
    _connect_reader: Any
    _idle: list[aiosqlite.Connection]
    _write_lock: asyncio.Lock
    _bound: ContextVar[aiosqlite.Connection | None]
    _file_reader: Callable[[], Any] | None = None
    _retired: list[aiosqlite.Connection]  # the copy's readers, closed with the store (a task may still use one)
    _copy_lock: asyncio.Lock | None = None
    _copy_folders: list[Path]  # every copy this store made: removed at close, after its readers
    # and the Store's check_file, _look, _refuse_linked and _check_pages, which the act runs as any act does

    def hold_on_copy(self, copy: read_copy.ReadCopy, done: format_upgrade.Upgrade,
                     file_reader: Callable[[], Any]) -> None:
        """Read ``copy`` (upgraded as ``done`` says) until an act upgrades the file."""
        self.read_copy, self.held_upgrade, self._file_reader = copy, done, file_reader
        self._copy_lock = asyncio.Lock()
        self._copy_folders.append(copy.folder)

    def _upgrade_held(self) -> bool:
        return self.held_upgrade is not None and self._writer is not None

    @asynccontextmanager
    async def _held_act(self, writer: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
        """An act on an older store: the upgrade, then the act, in one transaction; committed only when
        the act wrote, said then as an upgrade made at open is."""
        token = self._bound.set(writer)
        began = False
        try:
            done = await upgrade_file(writer, self.path)
            began = True
            self.check_file()
            await self._check_pages(writer)
            changes = writer.total_changes
            yield writer
            self.check_file()
            if writer.total_changes == changes:  # a refusal returned, not raised: the file as it was
                await writer.rollback()
                return
            self._refuse_linked()
            with held_files.writing(self.path):
                await commit(writer)
            await self._upgrade_made(done)
        except BaseException:
            if began:  # queued after whatever a cancelled await left on the connection's thread
                await writer.rollback()
            raise
        finally:
            self._bound.reset(token)

    async def _upgrade_made(self, done: format_upgrade.Upgrade | None) -> None:
        """The file is current: said (when this store upgraded it), and read from now on."""
        self.held_upgrade = None
        self._look()
        if done is not None:
            self.format_upgraded = done.as_dict()
            format_upgrade.announce(done)
        await self._read_the_file()

    async def _read_the_file(self) -> None:
        """Leave the copy: new reads go to the file; the copy's readers are closed with the store."""
        if self._file_reader is None or self.read_copy is None:
            return
        reader = await self._file_reader()
        self._retired.extend([self._reader, *self._idle])
        self._idle.clear()
        self._reader, self._connect_reader = reader, self._file_reader
        self.read_copy = None  # its folder is removed at close, after its readers

    async def keep_upgrade(self) -> None:
        """Upgrade the file now, act or not: a holder that stays open once it is sure it goes on (the
        follower after it attached), so its reads and the file's other writers see one format."""
        if not self._upgrade_held() or getattr(self, "dialect", "sqlite") != "sqlite":
            return  # PostgreSQL's held store is upgraded by its first act's transaction (store/pg/held.py)
        async with self._write_lock:
            if self._upgrade_held():
                writer = self._writer
                assert writer is not None
                try:
                    done = await upgrade_file(writer, self.path)
                    if done is None:  # upgraded by another process since the copy: nothing to commit
                        await writer.rollback()
                    else:
                        with held_files.writing(self.path):
                            await commit(writer)
                except BaseException:
                    await writer.rollback()
                    raise
                await self._upgrade_made(done)

    async def copy_fresh(self) -> None:
        """While the copy is read: when another process committed to the file since it was copied (an
        act of this version upgraded it, or an older inspector wrote to it), read the file again — the
        file itself when it is current now, else a new copy. A holder that stays open (the app) would
        otherwise show the file as it was when opened."""
        copy, writer, lock = self.read_copy, self._writer, self._copy_lock
        if copy is None or writer is None or lock is None:
            return
        if int((await writer.execute_fetchall("PRAGMA data_version"))[0][0]) == copy.data_version:
            return
        async with lock, self._write_lock:
            if self.read_copy is not copy:
                return
            fresh, done = await read_copy.make(writer, self.path)
            if done is None:  # upgraded by another process: nothing of ours to say
                await self._upgrade_made(None)
                return
            reader = await sqlite_connections.connect_reader(fresh.path, read_only=False)
            self._retired.extend([self._reader, *self._idle])
            self._idle.clear()
            self._reader, self.read_copy, self.held_upgrade = reader, fresh, done
            self._connect_reader = lambda: sqlite_connections.connect_reader(fresh.path, read_only=False)
            self._copy_folders.append(fresh.folder)


def left(store: HeldUpgrade) -> None:
    """At close with no act made: the file was never touched — said as left at its format."""
    done, store.held_upgrade = store.held_upgrade, None
    if done is not None:
        format_upgrade.left_as_it_was(done)


def remove_copies(store: HeldUpgrade) -> None:
    """At close, once every connection is closed: the copies' folders."""
    for folder in store._copy_folders:
        read_copy.remove(folder)
    store._copy_folders.clear()
