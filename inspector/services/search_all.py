"""One query over every session of a store: which sessions hold it, with their first hits.

A reviewer on a team that runs several agents remembers a command or a file name, not the
session it was in: ``search`` asked for ``--session`` and a store of 34 imported transcripts
left them to try each id in turn (new-user-16). This runs the same per-session search
(inspector/services/search.py: the same indexes, hits, offsets and order) over each session
in stored order and keeps the sessions that matched, each with its title so the right one
is recognised, and how many were searched, so "found in 2 of 34" is said, not only the 2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert, line_safe
from inspector.services.search import SearchResult, search
from inspector.store import session_rows
from inspector.store.catch_up import CatchUpProgress
from inspector.store.connection import Store


@dataclass(frozen=True, slots=True)
class SessionHits:
    session: str
    title: str | None
    result: SearchResult

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "title": self.title, **self.result.as_dict()}


@dataclass(slots=True)
class AcrossSessions:
    query: str
    searched: int = 0  # sessions looked in
    limit: int = 0  # hits listed per session
    matched: list[SessionHits] = field(default_factory=list)
    # sessions without a hit that the search did not read whole (a material past the index's cap):
    # "0 of 1 session hold 'x'" of a session whose 5 MB log held x past its first 4 MiB (newuser-18)
    in_part: list[SessionHits] = field(default_factory=list)

    def said(self) -> str:
        """"2 of 34 sessions hold 'x'", "1 of 34 sessions holds 'x'": the CLI's first line and the
        palette dialog's, one sentence (both said "1 of 1 session hold")."""
        shown = len(self.matched)
        said = f"{shown} of {counted(self.searched, 'session')} hold{'s' if shown == 1 else ''} {inert(self.query)}"
        if not self.in_part:
            return said
        ids = ", ".join(line_safe(m.session) for m in self.in_part[:3]) + (f" and {len(self.in_part) - 3} more"
                                                                 if len(self.in_part) > 3 else "")
        n = len(self.in_part)
        return (f"{said}; {n:,} of them {'was' if n == 1 else 'were'} searched in part (a material past its "
                f"first 4 MiB was not read) and may hold it: {ids}")

    def as_dict(self) -> dict[str, Any]:
        return {"query": self.query, "sessions_searched": self.searched, "sessions_matched": len(self.matched),
                "limit_per_session": self.limit, "sessions": [m.as_dict() for m in self.matched],
                "searched_in_part": [{"session": m.session, "title": m.title, "note": m.result.note,
                                      "not_searched": dict(m.result.not_searched)} for m in self.in_part]}


async def search_every_session(store: Store, query: str, *, limit: int, indexing: CatchUpProgress | None = None,
                               progress: Callable[[int, int], None] | None = None) -> AcrossSessions:
    """Each session holding ``query`` with its first ``limit`` hits (events first, as one
    session's search lists them), in the order the sessions were stored. ``progress(done, total)``
    hears each session searched (500 sessions take seconds on a loaded machine)."""
    found = AcrossSessions(query, limit=limit)
    rows = await session_rows.all_rows(store.db)
    for row in rows:
        result = await search(store, row.id, query, limit=limit, indexing=indexing)
        indexing = None  # the first search indexed what was new; the rest find nothing to index
        found.searched += 1
        if result.hits:
            found.matched.append(SessionHits(row.id, row.title, result))
        elif result.not_searched:
            found.in_part.append(SessionHits(row.id, row.title, result))
        if progress is not None:
            progress(found.searched, len(rows))
    return found
