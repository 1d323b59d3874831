"""A format upgrade held open until the command's first act (open_store's ``hold_upgrade``).

An older store used to be upgraded — committed — when a command opened it, before the command
read its input or checked anything: ``import bad.jsonl`` refused at line 4, an ``accept`` refused
``stale_base``, a ``delete`` of an unknown request each exited with "nothing was written" while the
file had become the next format (storefault-ten, from lead-16-17 item 5). So the upgrade now runs
in a transaction left open on the writer: every read of the command goes through that connection
(the readers would see the old format), an act is a savepoint inside it and its commit commits the
upgrade with it, and a store closed with no act made rolls it back — the file byte for byte as it
was, said on stderr ("left at format N"). The cost: the command holds the store's write lock while
it runs, and a store only read is upgraded again (in memory) by each command until something is
written to it or ``inspector upgrade`` runs.
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

from inspector.store import format_upgrade, held_files, wal_commits

SAVEPOINT = "inspector_act"


async def begin_act(writer: aiosqlite.Connection) -> None:
    """Start an act inside the held upgrade's transaction (BEGIN IMMEDIATE is not allowed there)."""
    await writer.execute(f"SAVEPOINT {SAVEPOINT}")


async def keep_act(writer: aiosqlite.Connection, wrote: bool) -> bool:
    """End an act that was not refused: one that wrote commits the upgrade with it (and its commit
    mark, once: the migration left it out — the log's commit count must match its commits,
    store/wal_commits.py); one that wrote nothing (a refusal returned, not raised) leaves the upgrade
    held. True when the upgrade was committed."""
    if not wrote:
        await writer.execute(f"RELEASE {SAVEPOINT}")
        return False
    await writer.execute(f"RELEASE {SAVEPOINT}")
    await commit(writer)
    return True


async def commit(writer: aiosqlite.Connection) -> None:
    """Commit the held upgrade (and what an act wrote inside it) with its one commit mark."""
    await writer.execute(wal_commits.MARK_SQL)
    await writer.execute("COMMIT")


async def undo_act(writer: aiosqlite.Connection) -> None:
    """Undo a refused (raised) act, keeping the upgrade held. Queued after whatever a cancelled
    await left on the connection's thread, as the plain rollback is; no savepoint: nothing to undo."""
    try:
        await writer.execute(f"ROLLBACK TO {SAVEPOINT}")
        await writer.execute(f"RELEASE {SAVEPOINT}")
    except (sqlite3.Error, ValueError):  # the savepoint never began (a cancel before it ran), or closed
        pass


async def abandon(writer: aiosqlite.Connection, done: format_upgrade.Upgrade) -> None:
    """Roll the held upgrade back at close (no act was made) and say the store was left as it was."""
    try:
        await writer.rollback()
    except (sqlite3.Error, ValueError):  # closing drops an uncommitted transaction anyway
        pass
    finally:  # a second Ctrl+C cancelling the rollback included: the close drops the transaction all the same
        format_upgrade.left_as_it_was(done)


class HeldUpgrade:
    """The held upgrade's part of the SQLite Store (store/sqlite_store.py): an act inside it, its
    commit, and :meth:`keep_upgrade` for a holder that stays open."""

    held_upgrade: format_upgrade.Upgrade | None = None
    format_upgraded: dict[str, Any] | None = None
    path: Path
    _writer: aiosqlite.Connection | None
    _write_lock: asyncio.Lock
    _bound: ContextVar[aiosqlite.Connection | None]
    # and the Store's check_file, _look, _refuse_linked and _check_pages, which the act runs as any act does

    def _upgrade_held(self) -> bool:
        return self.held_upgrade is not None and self._writer is not None

    @asynccontextmanager
    async def _held_act(self, writer: aiosqlite.Connection) -> AsyncIterator[aiosqlite.Connection]:
        """An act inside the held upgrade's transaction (store/held_upgrade.py): a savepoint; when it
        wrote, its commit is the upgrade's too, said then as an upgrade made at open is."""
        token = self._bound.set(writer)
        try:
            await begin_act(writer)
            self.check_file()
            await self._check_pages(writer)
            changes = writer.total_changes
            yield writer
            self.check_file()
            if writer.total_changes != changes:
                self._refuse_linked()
            with held_files.writing(self.path):
                committed = await keep_act(writer, writer.total_changes != changes)
            if committed:
                self._upgrade_made()
        except BaseException:
            await undo_act(writer)
            raise
        finally:
            self._bound.reset(token)

    def _upgrade_made(self) -> None:
        done, self.held_upgrade = self.held_upgrade, None
        self._look()
        if done is not None:
            self.format_upgraded = done.as_dict()
            format_upgrade.announce(done)

    async def keep_upgrade(self) -> None:
        """Commit a held upgrade now, act or not: a holder that stays open once it is sure it goes on
        (the follower after it attached), so it does not hold the write lock while it waits."""
        if not self._upgrade_held():
            return
        async with self._write_lock:
            if self._upgrade_held():
                with held_files.writing(self.path):
                    await commit(self._writer)  # type: ignore[arg-type]
                self._upgrade_made()

