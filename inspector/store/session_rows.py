"""The ``sessions`` table behind typed rows: the one place its SQL is written.

Services used to spell their own ``SELECT … FROM sessions`` (nine variants); they now ask
for a :class:`SessionRow` or a :class:`SessionListing` and set versions through
:func:`set_versions`, so the services hold use cases and the store holds SQL — the seam a
second backend would implement.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import aiosqlite

from inspector.domain.errors import NotFound
from inspector.domain.terminal_safe import inert, quoted
from inspector.store.connection import fetch_one

_COLUMNS = "s.id, s.title, s.created_at, s.adapter, s.owner, s.goal_revision, s.context_version, s.extra"


@dataclass(frozen=True, slots=True)
class SessionRow:
    """One ``sessions`` row; ``extra`` is every other field of the sif session record."""

    id: str
    title: str | None
    created_at: str | None
    adapter: str
    owner: str | None
    goal_revision: int
    context_version: int
    extra: dict[str, Any]

    @property
    def continued_from(self) -> str | None:
        """The session this one was handed off from, if any."""
        source = self.extra.get("continued_from")
        return str(source["session"]) if isinstance(source, dict) and "session" in source else None

    @classmethod
    def from_row(cls, row: Any) -> SessionRow:
        extra = json.loads(row[7]) if row[7] else {}
        return cls(row[0], row[1], row[2], row[3], row[4], int(row[5]), int(row[6]),
                   extra if isinstance(extra, dict) else {})


@dataclass(frozen=True, slots=True)
class SessionListing:
    """A row plus what a list of sessions shows beside it."""

    row: SessionRow
    events: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


async def get(db: aiosqlite.Connection, session: str) -> SessionRow | None:
    row = await fetch_one(db, f"SELECT {_COLUMNS} FROM sessions s WHERE s.id = ?", (session,))
    return SessionRow.from_row(row) if row is not None else None


async def exists(db: aiosqlite.Connection, session: str) -> bool:
    return await fetch_one(db, "SELECT 1 FROM sessions WHERE id = ?", (session,)) is not None


async def no_session(db: aiosqlite.Connection, session: str, where: str | None = None, *,
                     otherwise: str = "") -> NotFound:
    """The error for a session id the store does not hold. An id is matched whole; a reviewer who
    typed the first characters (as ``sessions`` or the app's header shows them) is told the
    whole ids that start so, instead of only "no session"; ``otherwise`` is said when none does."""
    every = await ids(db)
    whole = [i for i in every if session and i.casefold().startswith(session.casefold())]
    message = f"no session {quoted(session)}" + (f" in {where}" if where else "")
    titled = [] if whole else await _titled(db, session)
    if whole:
        shown = ", ".join(whole[:3]) + (f" and {len(whole) - 3} more" if len(whole) > 3 else "")
        message += f"; a session id is given whole: did you mean {shown}?"
    elif titled:  # a title typed where the id goes: the sessions so titled, by id (new-user-16)
        shown = ", ".join(f"{i} ({inert(_short(t))})" for i, t in titled[:3]) + (f" and {len(titled) - 3} more" if len(titled) > 3 else "")
        message += f"; --session takes a session's id, not its title: did you mean {shown}?"
    elif otherwise:
        message += f"; {otherwise}"
    elif every:  # what there is instead (before: "no session 'nope' in r.db" and nothing more)
        shown = ", ".join(every[:3]) + (f" and {len(every) - 3} more" if len(every) > 3 else "")
        message += f"; the store holds {shown} (`inspector sessions STORE` lists them)"
    else:
        message += "; the store holds no session"
    return NotFound(message)


def _short(title: str, most: int = 40) -> str:
    return title if len(title) <= most else title[: most - 1] + "…"


async def _titled(db: aiosqlite.Connection, text: str) -> list[tuple[str, str]]:
    """Sessions whose title holds ``text`` (case-insensitive; three characters or more), in stored order."""
    needle = text.strip().casefold()
    if len(needle) < 3:
        return []
    rows = await db.execute_fetchall("SELECT id, title FROM sessions WHERE title IS NOT NULL ORDER BY rowid")
    return [(str(r[0]), str(r[1])) for r in rows if needle in str(r[1]).casefold()]


async def all_rows(db: aiosqlite.Connection) -> list[SessionRow]:
    """Every session, in the order they were stored."""
    return [SessionRow.from_row(r) for r in await db.execute_fetchall(f"SELECT {_COLUMNS} FROM sessions s "
                                                                      "ORDER BY s.rowid")]


async def ids(db: aiosqlite.Connection) -> list[str]:
    return [str(r[0]) for r in await db.execute_fetchall("SELECT id FROM sessions ORDER BY rowid")]


async def listings(db: aiosqlite.Connection, session: str | None = None) -> list[SessionListing]:
    """Sessions with their event counts (one session, or all in stored order)."""
    where, params = ("WHERE s.id = ?", (session,)) if session is not None else ("", ())
    rows = await db.execute_fetchall(
        f"SELECT {_COLUMNS}, (SELECT COUNT(*) FROM events e WHERE e.session = s.id) FROM sessions s {where} "
        "ORDER BY s.rowid", params)
    return [SessionListing(SessionRow.from_row(r), int(r[8])) for r in rows]


async def versions(db: aiosqlite.Connection) -> dict[str, tuple[int, int]]:
    """Session id -> (goal_revision, context_version)."""
    return {str(r[0]): (int(r[1]), int(r[2])) for r in
            await db.execute_fetchall("SELECT id, goal_revision, context_version FROM sessions")}


async def set_versions(db: aiosqlite.Connection, session: str, *, context_version: int,
                       goal_revision: int | None = None) -> None:
    """Inside the caller's transaction, next to the ledger entry that records the change."""
    if goal_revision is None:
        await db.execute("UPDATE sessions SET context_version = ? WHERE id = ?", (context_version, session))
    else:
        await db.execute("UPDATE sessions SET context_version = ?, goal_revision = ? WHERE id = ?",
                         (context_version, goal_revision, session))


async def title_and_extra(db: aiosqlite.Connection, session: str) -> tuple[str | None, str] | None:
    """A session's title and the JSON of its record's other fields (a deletion rewrites them)."""
    row = await fetch_one(db, "SELECT title, extra FROM sessions WHERE id = ?", (session,))
    return (row[0], str(row[1] or "{}")) if row else None
