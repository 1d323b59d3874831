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

import sqlite3

import aiosqlite

from inspector.store import format_upgrade, wal_commits

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
    await writer.execute(wal_commits.MARK_SQL)
    await writer.execute(f"RELEASE {SAVEPOINT}")
    await writer.execute("COMMIT")
    return True


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
    format_upgrade.left_as_it_was(done)
