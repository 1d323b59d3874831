"""Listing sessions and reading a session's ledger: the read-only entry points."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from inspector.domain.errors import InspectorError
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, data_version, last_change


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


def _summary(listing: session_rows.SessionListing) -> SessionSummary:
    r = listing.row
    return SessionSummary(r.id, r.title, r.adapter, r.owner, r.context_version, r.goal_revision, listing.events,
                          r.continued_from)


async def list_sessions(store: Store) -> list[SessionSummary]:
    return [_summary(item) for item in await session_rows.listings(store.db)]


async def get_session(store: Store, session: str) -> SessionSummary:
    found = await session_rows.listings(store.db, session)
    if not found:
        raise await session_rows.no_session(store.db, session, str(store.path))
    return _summary(found[0])


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
        self.last: dict[str, Any] | None = None  # the latest outside change: session, kind, actor, seq
        self.said_code: str | None = None  # the file's replacement, once said (file_said)

    @property
    def last_actor(self) -> str | None:
        return None if self.last is None else self.last.get("actor")

    def file_said(self) -> InspectorError | None:
        """Why the store's file at its path is not the one open any more (moved or copied over,
        deleted), said once: the screen shows what the open file holds, and acts are refused."""
        said = self.store.file_said()
        if said is None or said.code == self.said_code:
            return None
        self.said_code = said.code
        return said

    async def changed(self) -> bool:
        version = await data_version(self.store.watch_db)
        changed = self.seen is not None and version != self.seen
        self.seen = version
        if changed:
            self.last = await last_change(self.store)
        return changed
