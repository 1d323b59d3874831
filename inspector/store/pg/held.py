"""An older PostgreSQL store read as it is until its first act (storefault-eleven, lead-18 #4).

SQLite holds an older store's upgrade until the command's first act (store/held_upgrade.py); a
PostgreSQL store was upgraded at every open, under its advisory lock, so a refused command, a read
— even ``verify`` — moved a team's shared store to a format older inspectors cannot read. Here the
formats from :data:`READ_AS_IS_FROM` on are read as they are: on PostgreSQL the steps after it add
only an index (format 7's ``ledger_kind``) and two steps that change nothing but the number (8 and 9:
SQLite's index bounds, which PostgreSQL does not have), so every read of this version reads such a
store exactly as an upgraded one. The first act makes the steps inside its own transaction (the
advisory lock held) and commits them with it; an act refused, or one that wrote no ledger entry,
rolls them back. An older store than that (formats 2 to 5 lack tables the reads use: the call-input
and thinking search tables) is still upgraded at the open, and says so, as before.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from inspector.store.format_upgrade import Upgrade, announce
from inspector.store.pg.adapter import PgConnection, sqlite_error
from inspector.store.pg.schema import PG_MIGRATIONS
from inspector.store.schema import FORMAT_VERSION

READ_AS_IS_FROM = 6


def holdable(version: int | None) -> bool:
    """An older format this version reads as it is (see the module's docstring)."""
    return version is not None and READ_AS_IS_FROM <= version < FORMAT_VERSION


async def upgrade_in(conn: asyncpg.Connection) -> int | None:
    """The remaining steps, inside the act's transaction (its advisory lock held): the format they
    started from, or None when another process upgraded the store meanwhile."""
    version = int(await conn.fetchval("SELECT version FROM store_format"))
    if version >= FORMAT_VERSION:
        return None
    started = version
    while version < FORMAT_VERSION:
        target, script = PG_MIGRATIONS[version]
        await conn.execute(script)
        version = target
    await conn.execute("UPDATE store_format SET version = $1", version)
    return started


async def ledger_head(conn: asyncpg.Connection) -> int:
    """The ledger's last seq: an act appends at least one entry, a refusal returned none."""
    return int(await conn.fetchval("SELECT coalesce(max(seq), 0) FROM ledger"))


async def begun(store: Any, writer: PgConnection) -> tuple[int | None, int] | None:
    """In the act's transaction of ``store`` (a PgStore), an older store read as it is: its steps made,
    and the ledger's head before the act; None for a current store."""
    if store.held_upgrade is None:
        return None
    try:
        return await upgrade_in(writer.raw), await ledger_head(writer.raw)
    except (asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise sqlite_error(exc) from exc


async def wrote(writer: PgConnection, head: int) -> bool:
    """The act appended to the ledger (else it is rolled back, the steps with it)."""
    async with writer.lock:
        return await ledger_head(writer.raw) != head


def made(store: Any, started: int | None) -> None:
    """After the commit: said as an upgrade made at open is (``started`` None: another process upgraded
    it meanwhile, nothing of ours to say)."""
    done, store.held_upgrade = store.held_upgrade, None
    if started is not None and done is not None:
        upgraded = Upgrade(done.path, started, FORMAT_VERSION, 0, 0.0)
        store.format_upgraded = upgraded.as_dict()
        announce(upgraded)
