"""An open SQLite store: one writer connection that runs every write transaction, and reader
connections lent per asyncio task, so two workers never share a transaction.

Every write goes through :meth:`Store.transaction` (``BEGIN IMMEDIATE`` on the one writer
connection), so a service's projection changes and its ledger entries commit together or
not at all; reads run on reader connections of their own. A store opened read-only has no
writer, and every write is then refused with ``read_only``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.domain.errors import InspectorError, StoreBusy, StoreFileChanged
from inspector.store import (
    faults,
    file_content,
    file_writes,
    held_files,
    held_upgrade,
    orphan_log,
    page_check,
    sqlite_connections,
    wal_commits,
    wal_owner,
)
from inspector.store.file_identity import file_key, file_state, names


class Store(held_upgrade.HeldUpgrade):
    """An open session store (SQLite here; inspector/store/pg/store.py's PgStore on PostgreSQL). Use :func:`~inspector.store.connection.open_store` to get one.

    One connection writes (every write in :meth:`transaction`, ``BEGIN IMMEDIATE``, one at a
    time); reads run on their own connections, which WAL lets run beside the writer:
    :attr:`db` outside a transaction is a shared autocommit reader, and :meth:`snapshot`
    lends a reader of its own from a small pool. Which connection :attr:`db` means is kept
    per asyncio task (a context variable), so two workers never share a transaction: a
    snapshot in one and a write in another run on different connections.
    """

    POOL_SIZE = 4  # idle readers kept open for snapshots
    dialect = "sqlite"
    # held_upgrade (store/held_upgrade.py): an older store read through an upgraded copy, the file upgraded by an act

    def __init__(self, path: Path, writer: aiosqlite.Connection | None, key: bytes, reader: aiosqlite.Connection,
                 *, read_only: bool = False, read_only_reason: str = "", connect_reader: Any = None) -> None:
        self.path = path
        self.digest_key = key
        self.read_only = read_only
        self.read_only_reason = read_only_reason
        self.open_error = ""  # SQLite's error name when a writable open failed and fell back to read-only
        self._writer = writer
        self._reader = reader
        self._connect_reader = connect_reader
        self._idle: list[aiosqlite.Connection] = []
        self._lent: set[aiosqlite.Connection] = set()
        self._write_lock = asyncio.Lock()
        self._bound: ContextVar[aiosqlite.Connection | None] = ContextVar(f"store-{id(self)}", default=None)
        self._held: tuple[int, int] | None = None  # this store's file in held_files, until closed
        self._file = file_state(path)  # (device, inode, size, times) when opened: see check_file
        self._mark = file_writes.checkpoint_mark(path)  # how far the log was copied in, then: see _copied_over
        # what the file held at the last look (its times, a digest of its bytes, its ledger head): see _same_content
        self._content: tuple[tuple[int, int], bytes | None, tuple[object, ...] | None] | None = None
        if self._file is not None:
            self._content = (self._file[3], file_content.digest(path), file_content.stored_head(path))
        self._retired: list[aiosqlite.Connection] = []  # readers of a copy left (store/held_upgrade.py)
        self._copy_folders: list[Path] = []
        self._closed = False
        self._pages_checked = False  # the first act of this open reads every page first (store/page_check.py)
        self._log_orphaned = False  # the file was overwritten by another store's: see close
        self.deleted_text_in_file: dict[str, Any] | None = None  # set by open_store: store/deletion_residue.py
        self.deletion_finished: dict[str, Any] | None = None  # what open_store finished of one: the same
        self.format_upgraded: dict[str, Any] | None = None  # the format upgrade this open made (format_upgrade.py)
        self.made_beside: dict[str, bool] | None = None  # a full disk's failed open: what was beside it (close)
        held_files.watch(self)  # a read that fails on a copied-over file is said as such (faults.explain)

    @property
    def db(self) -> aiosqlite.Connection:
        """The connection for this task: the one its snapshot or transaction holds, else the shared reader
        (of the upgraded private copy while an older store's upgrade is held: store/read_copy.py)."""
        return self._bound.get() or self._reader

    @property
    def watch_db(self) -> aiosqlite.Connection:
        """The connection whose ``data_version`` changes only when *another* process commits."""
        return self._writer or self._reader

    async def close(self) -> None:
        """Close every connection, and end its thread, even when the wait for it is cancelled
        (sqlite_connections.close_all): a closed store lends no reader again (see snapshot)."""
        self._closed = True
        held_files.unwatch(self)
        every = [*self._idle, *self._lent, *self._retired, self._reader, *([self._writer] if self._writer else [])]
        self._idle.clear()
        self._lent.clear()
        held, self._held = self._held, None
        held_files.release(held)
        try:
            held_upgrade.left(self)  # no act was made on an older store: the file is left at the format it had
            if self._writer is not None and self._moved():
                await self._empty_log_of_moved_file(self._writer)
            if self._log_orphaned or self._overwritten():  # a read (or nothing) since the copy: no write said so
                orphan_log.keep(self.path)
                orphan_log.forget(self.path)
        finally:  # a check that raised left every connection's thread running: the process never ended
            await sqlite_connections.close_all(every)
            held_upgrade.remove_copies(self)
            if self.made_beside is not None:  # the full disk's read-only store leaves the folder as it was
                wal_owner.remove_made(self.path, self.made_beside)

    def _moved(self) -> bool:
        """The path names another file than the one this store opened, or none (moved over, deleted)."""
        if self.dialect != "sqlite" or self._file is None:
            return False
        now = file_state(self.path)
        return now is None or now[:2] != self._file[:2]

    @staticmethod
    async def _empty_log_of_moved_file(writer: aiosqlite.Connection) -> None:
        """Copy the log into the file this store opened (wherever it is now) and empty it.

        SQLite does not checkpoint on close a file that was moved or deleted while open: the log
        stayed beside the path, and the next program to open the file now there — a backup put
        back with ``mv`` — replayed this store's acts into it (store-fault-eight). Emptied here, it
        holds nothing; another program still holding the old file keeps the log live (then the
        opener is refused: store/wal_owner.py), and the wait for its readers is short."""
        try:
            await writer.execute("PRAGMA busy_timeout = 1000")
            await writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, ValueError):  # readers elsewhere past the wait, a failing disk, a writer closed already
            pass

    def _refuse_closed(self) -> None:
        if self._closed:
            raise InspectorError(f"{self.path} was closed (the app moved on or is ending): nothing was read",
                                 code="store_closed")

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        """Close; an SQLite error that ended the block on a file copied over under the store is
        said as that copy (see copied_over_said), not as damage."""
        said = self.copied_over_said() if isinstance(exc, sqlite3.DatabaseError) and self.dialect == "sqlite" else None
        await self.close()
        if said is not None:
            raise StoreFileChanged(said, code="store_file_replaced") from None

    @property
    def has_writer(self) -> bool:
        """Whether this store was opened with a writer connection (not read-only)."""
        return self._writer is not None

    def refuse_writes(self) -> None:
        full = faults.full_disk_refusal(self.path, self.open_error) if self.read_only_reason == faults.FULL_DISK else None
        if full is not None:
            raise full
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
            if self._upgrade_held():
                async with self._held_act(writer) as held:
                    yield held
                return
            token = self._bound.set(writer)
            try:
                try:
                    await writer.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:  # another process's write outlasted the busy timeout
                    if "locked" in str(exc) or "busy" in str(exc):
                        raise StoreBusy(sqlite_connections.BUSY_TIMEOUT_MS / 1000) from None
                    raise
                self.check_file()  # with the write lock held: no writer of ours is mid-change
                await self._check_pages(writer)
                changes = writer.total_changes
                yield writer
                self.check_file()  # replaced while the transaction ran: rolled back, not committed
                if writer.total_changes != changes:  # one that wrote nothing leaves the file as it was
                    self._refuse_linked()
                    await writer.execute(wal_commits.MARK_SQL)  # this commit is the inspector's (store/wal_commits.py)
                with held_files.writing(self.path):  # an automatic checkpoint may run inside the commit
                    await writer.execute("COMMIT")
                self._look()
            except BaseException:
                # Statements run in order on the connection's thread, so this rollback runs after
                # whatever a cancelled await left queued (even a BEGIN that had not run yet), and
                # is a no-op when there is no transaction: the next writer always starts clean.
                await writer.rollback()
                raise
            finally:
                self._bound.reset(token)

    async def _check_pages(self, writer: aiosqlite.Connection) -> None:
        """Before the first act of this open writes: a store with a damaged page refuses (store/page_check.py)."""
        if not self._pages_checked:
            await page_check.refuse_damaged(writer, self.path)
            self._pages_checked = True

    def _refuse_linked(self) -> None:
        """An act that wrote, into a file with more than one name, is rolled back (checked after it ran:
        a transaction that writes nothing — verify's, a refusal — goes on)."""
        links = names(self.path)
        if links > 1:
            raise InspectorError(
                f"{self.path} is one file under {links} names (hard links): SQLite keeps a log beside each name, so "
                "programs that open it under different names write different logs into one file, and the acts in one "
                "log are lost to the other (a reject made under one name was refused as another database's log by "
                "the next open); nothing was written — keep one name (a copy is `cp`, not `ln`)",
                code="store_hard_linked")

    def check_file(self) -> None:
        """Refuse to write unless the path still names the file this store opened, at least as long.

        SQLite writes through the descriptor it opened: a store file deleted under a running app
        took its writes into an unlinked inode (gone when the app closed), one replaced (a backup
        restored, ``mv`` of another store over it) took them into the file moved away while the
        new one was never touched, and one truncated was written as if whole. Each "succeeded".
        A store never shrinks here (SQLite's file grows; nothing vacuums), so shorter is cut."""
        if self._file is None:
            return
        now = file_state(self.path)
        if now is None:
            raise StoreFileChanged(f"{self.path} was deleted or moved away while it was open; nothing was written (a "
                                   "write would go to the file no longer at that path and be lost) — open the store "
                                   "again where it is now", code="store_file_gone")
        if now[:2] != self._file[:2]:
            raise StoreFileChanged(f"{self.path} was replaced by another file while it was open; nothing was written "
                                   "(this store still writes the file that was moved away) — reopen the store to work "
                                   "on the new one", code="store_file_replaced")
        copied = self._copied_over(now)
        if copied is not None:
            self._log_orphaned = True  # close must not checkpoint the old log into this file
            raise StoreFileChanged(copied, code="store_file_replaced")
        if now[2] < self._file[2]:
            raise StoreFileChanged(f"{self.path} was cut while it was open ({now[2]:,} bytes, was {self._file[2]:,}); "
                                   "nothing was written — `inspector verify` says what is left", code="store_file_cut")
        if now[3] != self._file[3]:  # written since the last look: a checkpoint (any process's)
            self._look()

    def _look(self) -> None:
        """Take the file as it is now as the one this store writes (after its own commit, or a
        checkpoint by another process): its identity, size and times, and the log's mark."""
        self._file = file_state(self.path) or self._file
        self._mark = file_writes.checkpoint_mark(self.path)
        if self._file is not None and (not self._content or self._content[0] != self._file[3]):
            self._content = (self._file[3], file_content.digest(self.path),  # written: what it holds, again
                             file_content.stored_head(self.path))

    def _copied_over(self, now: tuple[int, int, int, tuple[int, int]] | None) -> str | None:
        """The refusal's sentence when something was copied over the file this store opened (same
        inode) since the last look, or None: another store's file (its digest key differs), or — the key the same — a
        file written while no checkpoint ran (store/file_writes.py): a copy of this store put back.
        A shorter file is a copy only when its header counts its pages (else it was cut)."""
        if now is None or self._file is None or now[:2] != self._file[:2]:
            return None
        if now[3] == self._file[3] and now[2] >= self._file[2]:
            return None
        if file_key(self.path) not in (None, self.digest_key):
            return (f"{self.path} was overwritten by another store's file while it was open (the same file, new "
                    "contents: a copy over it); nothing was written — reopen the store to work on the new one")
        if now[3][0] == self._file[3][0] and now[2] == self._file[2]:
            return None  # only its inode changed (chmod, a link): not its contents — the log is still its own
        if not file_writes.written_elsewhere(self.path, self._mark):
            return None
        if self._same_content():
            return None  # new times, the same contents: a touch, a read, a save of the same bytes — no change
        if now[2] < self._file[2] and not file_writes.header_whole(self.path):
            return None  # cut, not copied: check_file says store_file_cut
        return (f"{self.path} was overwritten while it was open by a copy of this store put back over it (the file "
                "was written, and not by SQLite); nothing was written, and any changes this store had not yet copied "
                f"into the file stay out of the copy (their log is kept beside it as {self.path.name}-wal.….kept when "
                f"the store closes: put it back as {self.path.name}-wal, with the store closed, only if the copy was "
                "not meant) — reopen the store to work on the copy")

    def _same_content(self) -> bool:
        """The file holds what it held at the last look: its bytes (as far as the digest reads
        them) and its ledger head and commit count (store/file_content.py). Times alone never decide."""
        if not self._content or self._content[1] is None:
            return False
        return (file_content.digest(self.path), file_content.stored_head(self.path)) == self._content[1:]

    def copied_over_said(self) -> str | None:
        """The refusal's sentence when the file was copied over since the last look, for an error
        met while *reading* it: a read after a copy sees a mix of the copy and the old log (or
        SQLite's cache of the old file) and fails as "database disk image is malformed", which
        sent the reader to verify (store-fault-six, seen 2; a `follow` after a backup was put
        back). Closing then forgets the old log, as after a refused write."""
        if self._closed or self._file is None:
            return None
        said = self._copied_over(file_state(self.path))
        if said is not None:
            self._log_orphaned = True
        return said

    def file_said(self) -> StoreFileChanged | None:
        """Why the file at the path is no longer the one this store reads, or None — for a holder
        that reads and may never act (the app's half-second look, sessions.ChangeWatch).

        ``mv other.db s.db`` (or a restore that makes a new inode) under an open store changes
        nothing this store reads: SQLite reads the file that was moved away, so the app went on
        showing the old store, with no word, until an act was refused. A file that was only
        touched (or read, or saved with the same bytes) is taken as it is now."""
        if self.dialect != "sqlite" or self._closed or self._file is None:
            return None
        now = file_state(self.path)
        if now is None:
            # deleted, or renamed (a reviewer's ``mv s.db old.db``): the path alone cannot tell them apart,
            # and "deleted" sent one looking for a backup of a file that was beside it (review-16)
            return StoreFileChanged(f"{self.path} was deleted or moved away while it was open: what is shown is the "
                                    "file no longer at that path, and every act is refused (it would be lost) — quit "
                                    "and open the store again where it is now", code="store_file_gone")
        if now[:2] != self._file[:2]:
            return StoreFileChanged(f"{self.path} was replaced by another file while it was open (moved over it): "
                                    "what is shown is still the file that was moved away, and every act is refused — "
                                    "reopen the store to see the new one", code="store_file_replaced")
        copied = self.copied_over_said()
        if copied is not None:
            return StoreFileChanged(copied, code="store_file_replaced")
        if now[3] != self._file[3] and now[2] >= self._file[2]:
            self._look()  # a checkpoint's or a touch's new times: the file as it is now is this store's
        return None

    def _overwritten(self) -> bool:
        """The file at the path was copied over since the last look (see _copied_over)."""
        return self._file is not None and self._copied_over(file_state(self.path)) is not None

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
        if held is not None:  # inside a snapshot or transaction of this task: consistent
            yield held
            return
        self._refuse_closed()
        if self.read_copy is not None:  # another process committed since the copy: read it again
            await self.copy_fresh()
        copy = self.read_copy
        db = self._idle.pop() if self._idle else await self._connect_reader()
        if self._closed:  # closed while this reader was being made: it would be nobody's to close
            await sqlite_connections.close_all([db])
            self._refuse_closed()
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
            except BaseException:
                await sqlite_connections.close_all([db])  # a reader in an unknown state is not lent again
                raise
            if self.read_copy is not copy:  # lent from a copy left since: closed with the store
                self._retired.append(db)
            elif self._closed or len(self._idle) >= self.POOL_SIZE:
                await sqlite_connections.close_all([db])
            else:
                self._idle.append(db)
