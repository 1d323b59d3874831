"""The call-input search index: what a tool call's arguments hold, searchable like event text.

A call's input (a Bash command, an Edit's path and strings, a URL) is kept in the event's
``args`` (``events.extra``), not in its text, so the event indexes never saw it. Its searchable
text is :func:`inspector.domain.call_input.call_input_text` (argument values, one per line); it
is indexed here, per event (``rowid`` / ``event_id`` = the event's id), beside the event indexes
and under the *same* watermark: the catch-up (inspector/store/search_index.py ``index_next``)
indexes an event's text and its call input in one chunk, a deletion takes both out, and every
event at or below ``search_watermark('events')`` with call input is in the call index.

SQLite: ``calls_fts`` (trigram FTS5 holding the text, so a hit shows it and verify compares it
with the text rebuilt from ``events``) and ``calls_grams`` (contentless gram index as
``events_grams``, for one- and two-character queries). PostgreSQL: ``calls_search(event_id,
session, text)`` under a ``pg_trgm`` index on ``lower(text)``; short queries scan the session's
rows, as its event search does. SQLite computes the text in SQL with ``ci_call_text(extra)``
(registered on the writer, like ``ci_grams``); PostgreSQL in Python, the same function.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from inspector.domain.call_input import call_input_of_extra

FUNCTION = "ci_call_text"
# Events that may hold call input: a cheap test of the stored JSON before any parse.
MAY_HAVE_INPUT = "instr(extra, '\"args\"') > 0"
TABLES = ("calls_fts", "calls_grams")  # SQLite's (PostgreSQL: calls_search)


def _pg(db: Any) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def folded(query: str) -> str:
    """The query lower-cased as PostgreSQL's ``lower`` does under the stored text's ``C``
    collation (ASCII letters only): ``lower(?)`` would fold it under the database's default
    collation instead, and ``Ω`` would no longer find ``Ω``. The event and material searches
    (store/search_index.py) fold their queries with it too."""
    return query.translate(_ASCII_LOWER)


def _like_contains(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def register(con: sqlite3.Connection) -> None:
    """Make ``ci_call_text(extra)`` available to SQL on this connection (migration, catch-up, verify)."""
    con.create_function(FUNCTION, 1, call_input_of_extra, deterministic=True)


async def register_async(db: Any) -> None:
    await db.create_function(FUNCTION, 1, call_input_of_extra, deterministic=True)


async def index_range(db: Any, low: int, high: int) -> None:
    """Index the call input of the events with ``low < event_id <= high``, inside the caller's
    write transaction (the catch-up's chunk, or a migration)."""
    if _pg(db):
        rows = await db.execute_fetchall(
            f"SELECT event_id, session, extra FROM events WHERE event_id > ? AND event_id <= ? AND {MAY_HAVE_INPUT} "
            "ORDER BY event_id", (low, high))
        items = [(event_id, session, text) for event_id, session, extra in rows
                 if (text := call_input_of_extra(extra)) is not None]
        await db.executemany("INSERT INTO calls_search (event_id, session, text) VALUES (?, ?, ?)", items)
        return
    # MATERIALIZED: the text is computed once per event (a flattened subquery would call the
    # Python function again for the WHERE)
    await db.execute(
        f"WITH c (event_id, t) AS MATERIALIZED (SELECT event_id, {FUNCTION}(extra) FROM events WHERE event_id > ? "
        f"AND event_id <= ? AND {MAY_HAVE_INPUT}) INSERT INTO calls_fts (rowid, text) SELECT event_id, t FROM c "
        "WHERE t IS NOT NULL", (low, high))
    await db.execute("INSERT INTO calls_grams (rowid, grams) SELECT rowid, ci_grams(text) FROM calls_fts "
                     "WHERE rowid > ? AND rowid <= ?", (low, high))


async def unindex(db: Any, event_id: int) -> None:
    """Take an indexed event's call input out of the index (the caller checked it is at or below
    the watermark). The gram document is rebuilt from the stored text: a contentless FTS5
    ``'delete'`` must be given exactly what was inserted."""
    if _pg(db):
        await db.execute("DELETE FROM calls_search WHERE event_id = ?", (event_id,))
        return
    await db.execute("INSERT INTO calls_grams (calls_grams, rowid, grams) SELECT 'delete', rowid, ci_grams(text) "
                     "FROM calls_fts WHERE rowid = ?", (event_id,))
    await db.execute("DELETE FROM calls_fts WHERE rowid = ?", (event_id,))


async def fill_to_watermark(db: Any) -> None:
    """Index the call input of every event the event indexes already reach: PostgreSQL's
    migration to format 5 (SQLite's does it in SQL with ``ci_call_text``)."""
    rows = await db.execute_fetchall("SELECT indexed_through FROM search_watermark WHERE name = 'events'")
    await index_range(db, 0, int(rows[0][0]) if rows else 0)


# -- queries: rows are (event_id, seq, tool, text), in event order ---------------------------------


async def containing(db: Any, session: str, query: str, limit: int) -> list[tuple[int, int, str | None, str]]:
    """Indexed calls of ``session`` whose input contains ``query`` (three characters or more)."""
    if _pg(db):
        return await db.execute_fetchall(
            "SELECT c.event_id, e.seq, e.tool, c.text FROM calls_search c JOIN events e ON e.event_id = c.event_id "
            "WHERE c.session = ? AND lower(c.text) LIKE ? ORDER BY c.event_id LIMIT ?",
            (session, _like_contains(folded(query)), limit))
    return await db.execute_fetchall(
        "SELECT calls_fts.rowid, e.seq, e.tool, calls_fts.text FROM calls_fts CROSS JOIN events e "
        "ON e.event_id = calls_fts.rowid WHERE calls_fts MATCH ? AND e.session = ? ORDER BY calls_fts.rowid LIMIT ?",
        (_fts_phrase(query), session, limit))


async def short_candidates(db: Any, session: str, query: str, tokens: list[str], after: int,
                           limit: int) -> list[tuple[int, int, str | None, str]]:
    """Calls after ``after`` that may hold a one- or two-character query: on SQLite the indexed
    calls whose input holds all its gram ``tokens``; on PostgreSQL the session's events whose
    stored arguments hold it (a scan of the events themselves, as its event-text short path,
    so events above the watermark are read too), their input text computed here. Either way
    a candidate is checked against its text by the caller (:data:`SHORT_EXACT` says when not)."""
    if _pg(db):
        # JSON escapes quotes, backslashes and controls: a query holding one is not looked for in
        # the stored JSON, every call of the session is a candidate
        plain = not any(c in query for c in '"\\') and all(ord(c) >= 0x20 for c in query)
        test = " AND strpos(lower(extra), ?) > 0" if plain else ""
        rows = await db.execute_fetchall(
            f"SELECT event_id, seq, tool, extra FROM events WHERE session = ? AND event_id > ? AND {MAY_HAVE_INPUT}"
            f"{test} ORDER BY event_id LIMIT ?", (session, after, *((folded(query),) if plain else ()), limit))
        # a row without input text stays a candidate with empty text: it moves the caller's cursor on
        return [(event_id, seq, tool, call_input_of_extra(extra) or "") for event_id, seq, tool, extra in rows]
    match = " AND ".join(_fts_phrase(t) for t in tokens)
    return await db.execute_fetchall(
        "SELECT calls_grams.rowid, e.seq, e.tool, f.text FROM calls_grams "
        "CROSS JOIN events e ON e.event_id = calls_grams.rowid CROSS JOIN calls_fts f ON f.rowid = calls_grams.rowid "
        "WHERE calls_grams MATCH ? AND calls_grams.rowid > ? AND e.session = ? "
        "ORDER BY calls_grams.rowid LIMIT ?", (match, after, session, limit))


def short_exact(db: Any, tokens_exact: bool) -> bool:
    """Whether :func:`short_candidates` returns only true matches (else each is checked and,
    on SQLite, a query with whitespace is checked in a bounded number of candidates)."""
    return False if _pg(db) else tokens_exact


def short_bounded(db: Any, tokens_exact: bool) -> bool:
    """Whether the short candidates of a query are checked only up to the search's bound: SQLite's
    gram lookup of a query with whitespace (its grams only narrow the candidates); PostgreSQL's
    scan of a session's calls is read to the end (its prefilter is the query itself)."""
    return not _pg(db) and not tokens_exact
