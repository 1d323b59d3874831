"""``inspector search STORE --session S QUERY``: the app's raw-evidence search on the command line.

The same service the evidence channel's search box calls (inspector/services/search.py),
so both give the same hits in the same order, with occurrence counts and offsets. Events
imported since the last search are indexed first; when that takes a moment, stderr says so
(stdout, and ``--json``, stay what they are).
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from inspector.cli.output import EXIT_OK, emit, json_option, run_command
from inspector.cli.store_param import make_store_argument
from inspector.services.search import SearchResult, search
from inspector.store import session_rows
from inspector.store.connection import open_store


class IndexingNote:
    """Says on stderr that the search is indexing, once it has taken longer than :attr:`QUIET_FOR`."""

    QUIET_FOR = 0.5

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.said = False

    def __call__(self, done: int, total: int) -> None:
        if not self.said and done < total and time.monotonic() - self.started >= self.QUIET_FOR:
            self.said = True
            click.echo(f"indexing {total - done:,} events for search…", err=True)


def _human(result: SearchResult) -> list[str]:
    method = {"fts": "trigram index", "grams": "short-query index"}.get(result.method, result.method)
    lines = [f"{result.counted()} for {result.query!r} ({method})"]
    if result.note:
        lines.append(f"note: {result.note}")
    if not_searched := result.not_searched_sentence():
        lines.append(f"note: {not_searched}")
    for hit in result.hits:  # offsets are in the text the hit matched: the event's, its call input, a material's
        lines.append(f"{hit.ref}  {hit.occurrences}× at {', '.join(map(str, hit.offsets[:8]))}"
                     f"{'…' if len(hit.offsets) > 8 else ''}  in {hit.matched}  {hit.snippet}")
    return lines


@click.command("search")
@make_store_argument()
@click.argument("query")
@click.option("--session", required=True, help="The session whose events and materials are searched.")
@click.option("--limit", type=click.IntRange(min=1, max=10_000), default=50, show_default=True,
              help="The most hits listed, events and materials together: events first, materials in the "
                   "room left and at least a fifth of it when they match.")
@json_option
@run_command()
async def search_cmd(store: Path, query: str, session: str, limit: int, as_json: bool) -> int:
    """Find QUERY (any length, case-insensitive) in a session's events, tool calls' input, thinking and materials."""
    if not query.strip():  # spaces alone are no query either (they listed material hits only)
        raise click.UsageError("QUERY is empty: give the text to find (one character or more)")
    async with await open_store(store) as opened:
        if not await session_rows.exists(opened.db, session):
            raise await session_rows.no_session(opened.db, session, str(store),
                                                otherwise=f"`inspector sessions {store}` lists them")
        result = await search(opened, session, query, limit=limit, indexing=IndexingNote())
    emit(result.as_dict(), as_json, lambda: _human(result))
    return EXIT_OK
