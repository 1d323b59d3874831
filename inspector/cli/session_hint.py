"""What to pass when ``--session`` was left out: the store's sessions, named.

``inspector drift g.db`` on a store of one session said only click's "Missing option
'--session'", though the one id it wanted was in the store; a new reviewer had to run
``sessions`` and copy it. The usage error (exit 2, nothing written) now gives the id, or
how many there are and the command that lists them. Only an existing SQLite file is read
(as `sessions` reads it); a URL or anything that cannot be read adds nothing.
"""

from __future__ import annotations

import asyncio
import shlex
from pathlib import Path

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
    if not isinstance(store, Path) or not store.is_file() or not _current_format(store):
        return ""
    try:
        return asyncio.run(_held(store, name, session if isinstance(session, str) else ""))
    except Exception:  # noqa: BLE001 - a hint only: the usage error stands as click said it
        return ""


async def _held(path: Path, name: str, session: str) -> str:
    from inspector.services import confirmations, lookup
    from inspector.store.connection import open_store

    async with await open_store(path) as store, store.snapshot() as db:
        if name == "key":
            if not await _has(db, session):
                return ""
            keys = await confirmations.keys_hint(db, session)
            return f"session {session} holds {keys}" if keys.startswith("no ") else f"session {session}'s keys: {keys}"
        return f"{path.name} {await lookup.held(db, name)}"


async def _has(db: object, session: str) -> bool:
    from inspector.store import session_rows

    return await session_rows.exists(db, session)  # type: ignore[arg-type]


def missing_session_hint(store: object) -> str:
    if not isinstance(store, Path) or not store.is_file() or not _current_format(store):
        return ""
    try:
        ids = asyncio.run(_session_ids(store))
    except Exception:  # noqa: BLE001 - a hint only: the usage error stands as click said it
        return ""
    return _said(store, ids)


async def session_hint_within(store: object) -> str:
    """`missing_session_hint` for a command body already inside the event loop (`export --original`)."""
    if not isinstance(store, Path) or not store.is_file() or not _current_format(store):
        return ""
    try:
        return _said(store, await _session_ids(store))
    except Exception:  # noqa: BLE001 - a hint only
        return ""


def _said(store: Path, ids: list[str]) -> str:
    if not ids:
        return f"{store.name} holds no session"
    if len(ids) == 1:
        return f"{store.name} holds one session: pass --session {shlex.quote(line_safe(ids[0]))}"
    return (f"{store.name} holds {len(ids)} sessions: pass one with --session "
            f"(`inspector sessions {shlex.quote(line_safe(str(store)))}` lists their whole ids)")


def _current_format(path: Path) -> bool:
    """The file's header names this version's format: opening an older store migrates it, and a
    usage error writes nothing (review-14: ``search old.db x`` moved a format-6 store to 7)."""
    from inspector.store.schema import APPLICATION_ID, FORMAT_VERSION

    try:
        with path.open("rb") as fh:
            header = fh.read(72)
    except OSError:
        return False
    return (len(header) == 72 and int.from_bytes(header[60:64], "big") == FORMAT_VERSION
            and int.from_bytes(header[68:72], "big") == APPLICATION_ID)


async def _session_ids(path: Path) -> list[str]:
    from inspector.services import sessions
    from inspector.store.connection import open_store

    async with await open_store(path) as store:  # as `inspector sessions STORE` opens it
        return [s.id for s in await sessions.list_sessions(store)]
