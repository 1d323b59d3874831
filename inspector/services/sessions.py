"""Listing sessions and reading a session's ledger: the read-only entry points."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inspector.domain.errors import NotFound
from inspector.store import ledger
from inspector.store.connection import Store, data_version, fetch_one


@dataclass(frozen=True, slots=True)
class SessionSummary:
    id: str
    title: str | None
    adapter: str
    owner: str | None
    context_version: int
    goal_revision: int
    events: int
    continued_from: str | None = None  # the session this one was handed off from

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


async def list_sessions(store: Store) -> list[SessionSummary]:
    sql = (
        "SELECT s.id, s.title, s.adapter, s.owner, s.context_version, s.goal_revision, "
        "(SELECT COUNT(*) FROM events e WHERE e.session = s.id), json_extract(s.extra, '$.continued_from.session') "
        "FROM sessions s ORDER BY s.rowid"
    )
    return [SessionSummary(*row) for row in await store.db.execute_fetchall(sql)]


async def get_session(store: Store, session: str) -> SessionSummary:
    sql = (
        "SELECT s.id, s.title, s.adapter, s.owner, s.context_version, s.goal_revision, "
        "(SELECT COUNT(*) FROM events e WHERE e.session = s.id), json_extract(s.extra, '$.continued_from.session') "
        "FROM sessions s WHERE s.id = ?"
    )
    row = await fetch_one(store.db, sql, (session,))
    if row is None:
        raise NotFound(f"no session {session!r} in {store.path}")
    return SessionSummary(*row)


async def session_ledger(store: Store, session: str | None = None, *, limit: int | None = None) -> list[dict[str, Any]]:
    """Ledger entries (all, or one session's) as dicts, oldest first."""
    if session is not None:
        await get_session(store, session)
    out: list[dict[str, Any]] = []
    async for entry in ledger.iter_entries(store.db, session=session):
        out.append(entry.as_dict())
        if limit is not None and len(out) >= limit:
            break
    return out


class ChangeWatch:
    """Tells whether someone else (a harness, the CLI, another reviewer) wrote to the store
    since the last look, so a screen over a live store can reload."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.seen: int | None = None

    async def changed(self) -> bool:
        version = await data_version(self.store.watch_db)
        changed = self.seen is not None and version != self.seen
        self.seen = version
        return changed
