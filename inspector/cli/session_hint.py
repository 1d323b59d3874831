"""What to pass when ``--session`` was left out: the store's sessions, named.

``inspector drift g.db`` on a store of one session said only click's "Missing option
'--session'", though the one id it wanted was in the store; a new reviewer had to run
``sessions`` and copy it. The usage error (exit 2, nothing written) now gives the id, or
how many there are and the command that lists them. Only an existing SQLite file is read
(read-only: see _session_ids); a URL or anything that cannot be read adds nothing.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from inspector.domain.terminal_safe import line_safe


def missing_hint(name: str, params: dict[str, object]) -> str:
    """The hint for a left-out ``--session``, ``--key`` or id argument (HANDOFF, CANDIDATE…): what
    the store holds to pass (the same reading as `missing_session_hint`; "" when it cannot read)."""
    from inspector.services.lookup import ID_ARGUMENTS

    store, session = params.get("store"), params.get("session")
    if name == "session":
        return missing_session_hint(store)
    if name not in ID_ARGUMENTS and not (name == "key" and isinstance(session, str)):
        return ""
    if not isinstance(store, Path) or not store.is_file():
        return ""
    try:
        return asyncio.run(_held(store, name, session if isinstance(session, str) else ""))
    except Exception:  # noqa: BLE001 - a hint only: the usage error stands as click said it
        return ""


async def _held(path: Path, name: str, session: str) -> str:
    """What the store holds for the left-out argument, read as `_session_ids` reads: never written."""
    import aiosqlite

    from inspector.services import confirmations, lookup

    with _read_only_uri(path) as uri:
        async with aiosqlite.connect(uri, uri=True, timeout=1) as db:
            application_id = (await db.execute_fetchall("PRAGMA application_id"))[0][0]
            user_version = (await db.execute_fetchall("PRAGMA user_version"))[0][0]
            if not _current(application_id, user_version):
                return ""
            if name == "key":
                if not await _has(db, session):
                    return ""
                keys = await confirmations.keys_hint(db, session)
                return (f"session {session} holds {keys}" if keys.startswith("no ")
                        else f"session {session}'s keys: {keys}")
            return f"{path.name} {await lookup.held(db, name)}"


async def _has(db: object, session: str) -> bool:
    from inspector.store import session_rows

    return await session_rows.exists(db, session)  # type: ignore[arg-type]


def missing_session_hint(store: object) -> str:
    if not isinstance(store, Path) or not store.is_file():
        return ""
    try:
        ids = _session_ids(store)
    except Exception:  # noqa: BLE001 - a hint only: the usage error stands as click said it
        return ""
    if ids is None:
        return ""
    if not ids:
        return f"{store.name} holds no session"
    if len(ids) == 1:
        return f"{store.name} holds one session: pass --session {shlex.quote(line_safe(ids[0]))}"
    return (f"{store.name} holds {len(ids)} sessions: pass one with --session "
            f"(`inspector sessions {shlex.quote(line_safe(str(store)))}` lists their whole ids)")


def _session_ids(path: Path) -> list[str] | None:
    """The store's session ids in stored order, read without writing anything, or None when the
    file is not a store of this version's format.

    Opening the store as ``sessions`` does migrated an older one (review-14) and, on a current
    one, checkpointed the log a killed process had left into the file when it closed: a usage
    error wrote to the store. So it is read-only: a file with no log beside it is read as
    ``immutable`` (no lock, no ``-wal`` or ``-shm`` made), one with a log through it with
    ``mode=ro`` (which never checkpoints), and an index that reading made is removed again.
    The file and its log are first checked as every open checks them (another database's log
    is never read)."""
    with _read_only_uri(path) as uri:
        db = sqlite3.connect(uri, uri=True, timeout=1)
        try:
            if not _current(db.execute("PRAGMA application_id").fetchone()[0],
                            db.execute("PRAGMA user_version").fetchone()[0]):
                return None  # an older store would be migrated by the command itself, not by its hint
            return [str(r[0]) for r in db.execute("SELECT id FROM sessions ORDER BY rowid")]
        finally:
            db.close()


def _current(application_id: object, user_version: object) -> bool:
    from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION

    return application_id == APPLICATION_ID and user_version == FORMAT_VERSION


@contextmanager
def _read_only_uri(path: Path) -> Iterator[str]:
    """The URI that reads the store without writing: ``immutable`` when no log is beside it,
    ``mode=ro`` through one; a ``-shm`` the read made is removed again afterwards."""
    from inspector.store import wal_owner
    from inspector.store.sqlite_connections import check_file_is_sqlite

    check_file_is_sqlite(path)
    logged = Path(f"{path}-wal").exists()
    had_shm = os.path.lexists(f"{path}-shm")
    try:
        yield f"file:{quote(os.fsencode(path.resolve()))}?" + ("mode=ro" if logged else "immutable=1")
    finally:
        if logged and not had_shm:
            wal_owner.remove_made_shm(path)
