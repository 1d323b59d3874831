"""What to pass when ``--session`` was left out: the store's sessions, named.

``inspector drift g.db`` on a store of one session said only click's "Missing option
'--session'", though the one id it wanted was in the store; a new reviewer had to run
``sessions`` and copy it. The usage error (exit 2, nothing written) now gives the id, or
how many there are and the command that lists them. Only an existing SQLite file is read
(read-only: store/peek.py); a URL or anything that cannot be read adds nothing.
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
        hint = missing_session_hint(store)
        if "all_sessions" in params and hint and not hint.endswith("no session"):  # search: every session at once
            hint += "; or --all-sessions to search every session"
        return hint
    if name not in ID_ARGUMENTS and not (name == "key" and isinstance(session, str)):
        return ""
    if not isinstance(store, Path) or not store.is_file():
        return ""
    try:
        return asyncio.run(_held(store, name, session if isinstance(session, str) else ""))
    except Exception:  # noqa: BLE001 - a hint only: the usage error stands as click said it
        return ""


async def _held(path: Path, name: str, session: str) -> str:
    """What the store holds for the left-out argument, read without writing (store/peek.py)."""
    from inspector.services import confirmations, lookup
    from inspector.store import peek

    async with peek.connected(path) as db:
        if db is None:
            return ""
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
    if not isinstance(store, Path) or not store.is_file():
        return ""
    try:
        from inspector.store import peek

        ids = peek.session_ids(store)
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
