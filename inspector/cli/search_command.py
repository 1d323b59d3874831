"""``inspector search STORE --session S QUERY``: the app's raw-evidence search on the command line.

``--all-sessions`` asks every session of the store instead (inspector/services/search_all.py):
the sessions that hold QUERY, each with its title and first hits, and how many were searched.

The same service the evidence channel's search box calls (inspector/services/search.py),
so both give the same hits in the same order, with occurrence counts and offsets. Events
imported since the last search are indexed first; when that takes a moment, stderr says so
(stdout, and ``--json``, stay what they are).
"""

from __future__ import annotations

import shlex
import time
from abc import ABC, abstractmethod
from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, emit, json_option, run_command
from inspector.cli.store_param import make_store_argument
from inspector.domain.cell_width import clipped
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert
from inspector.services.search import SearchResult, search
from inspector.services.search_all import AcrossSessions, search_every_session
from inspector.store import session_rows
from inspector.store.connection import open_store


class _QuietNote(ABC):
    """One line on stderr once the work has taken longer than :attr:`QUIET_FOR` (stdout, and
    ``--json``, stay what they are); said at most once."""

    QUIET_FOR = 0.5

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.said = False

    @abstractmethod
    def line(self, done: int, total: int) -> str:
        """The line said once the work has taken long enough."""

    def __call__(self, done: int, total: int) -> None:
        if not self.said and done < total and time.monotonic() - self.started >= self.QUIET_FOR:
            self.said = True
            click.echo(self.line(done, total), err=True)


class IndexingNote(_QuietNote):
    """Says that the search is indexing the events imported since the last search."""

    def line(self, done: int, total: int) -> str:
        return f"indexing {counted(total - done, 'event')} for search…"  # "1 events" (newuser-18)


class SessionsNote(_QuietNote):
    """Says how many sessions a search of every one goes through."""

    QUIET_FOR = 1.0

    def line(self, done: int, total: int) -> str:
        return f"searching every one of {total:,} sessions ({done:,} done)…"


def _human(result: SearchResult) -> list[str]:
    method = {"fts": "trigram index", "grams": "short-query index"}.get(result.method, result.method)
    lines = [f"{result.counted()} for {inert(result.query)} ({method})"]
    if result.note:
        lines.append(f"note: {result.note}")
    if not_searched := result.not_searched_sentence():
        lines.append(f"note: {not_searched}")
    for hit in result.hits:  # offsets are in the text the hit matched: the event's, its call input, a material's
        lines.append(f"{hit.ref}  {hit.occurrences}× at {', '.join(map(str, hit.offsets[:8]))}"
                     f"{'…' if len(hit.offsets) > 8 else ''}  in {hit.matched}  {hit.snippet}")
    return lines


def _across(found: AcrossSessions, store: str) -> list[str]:
    shown = len(found.matched)
    lines = [found.said()
             + (f" (at most {found.limit} hit{'s' if found.limit != 1 else ''} listed each; --limit N for more)"
                if shown else "")]
    for match in found.matched:
        lines.append("")
        lines.append(f"{match.session}  {clipped(match.title) if match.title else '(untitled)'}  — "
                     f"{match.result.counted()}")
        lines += [f"  {line}" for line in _human(match.result)[1:]]
    if shown:
        lines += ["", f"open one: `inspector {store} --session ID`; all its hits: `inspector search {store} --session ID QUERY`"]
    return lines


@click.command("search")
@make_store_argument()
@click.argument("query")
@click.option("--session", help="The session whose events and materials are searched.")
@click.option("--all-sessions", is_flag=True,
              help="Search every session of the store instead: those holding QUERY, each with its first hits.")
@click.option("--limit", type=click.IntRange(min=1, max=10_000), default=None,
              help="The most hits listed, events and materials together: events first, materials in the "
                   "room left and at least a fifth of it when they match (default 50; with --all-sessions, "
                   "per session, default 3).")
@json_option
@run_command()
async def search_cmd(store: Path, query: str, session: str | None, all_sessions: bool, limit: int | None,
                     as_json: bool) -> int:
    """Find QUERY (any length, case-insensitive) in a session's events, tool calls' input, thinking and materials."""
    ctx = click.get_current_context()
    if session is not None and all_sessions:
        raise click.UsageError("--session and --all-sessions: give one (a session, or every session)")
    if session is None and not all_sessions:  # said as click says a required option, with the store's sessions
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "session"))
    if not query.strip():  # spaces alone are no query either (they listed material hits only)
        raise click.UsageError("QUERY is empty: give the text to find (one character or more)")
    async with await open_store(store) as opened:
        if session is None:
            found = await search_every_session(opened, query, limit=limit or 3, indexing=IndexingNote(),
                                               progress=SessionsNote())
            emit(found.as_dict(), as_json, lambda: _across(found, shlex.quote(str(store))))
            return EXIT_OK
        limit = limit or 50
        if not await session_rows.exists(opened.db, session):
            raise await session_rows.no_session(opened.db, session, str(store),
                                                otherwise=f"`inspector sessions {store}` lists them")
        result = await search(opened, session, query, limit=limit, indexing=IndexingNote())
    emit(result.as_dict(), as_json, lambda: _human(result))
    return EXIT_OK
