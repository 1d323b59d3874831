"""A search index over text an event keeps in ``events.extra``, beside the event-text indexes.

Two kinds of an event's text are not its ``content``: a tool call's input (its ``args``, store
format 5: inspector/store/call_index.py) and its thinking (``reasoning_content``, format 6:
inspector/store/reasoning_index.py). The event indexes are external-content over
``events.content`` (FTS5 re-reads that column to check and delete), and a hit must say which text
its offsets are in, so each kind has an index of its own, built the same way — this module, one
:class:`SideIndex` per kind:

- SQLite: ``<name>_fts`` (trigram FTS5 holding the text, so a hit shows it and verify compares it
  with the text rebuilt from ``events``) and ``<name>_grams`` (contentless gram index as
  ``events_grams``, for one- and two-character queries), ``rowid`` = the event's id; the text is
  computed in SQL by a function every writer connection registers (``ci_call_text``,
  ``ci_thinking_text``), the same Python function the search and verify use.
- PostgreSQL: ``<name>_search(event_id, session, text)`` under a ``pg_trgm`` index on
  ``lower(text)``, the text computed in Python; short queries scan the session's events, as its
  event search does.

Since store format 9 SQLite's tables hold a text through its first ``EVENT_INDEX_CHARS``
characters, as the event indexes do (format 8): a 30 MB thinking block or pasted file in an
Edit's arguments cost a minute of trigram insert, and the cost grows faster than the text. The
events whose text may run past that are found by ``events_long_extra`` (their stored ``extra``
is longer than the bound: canonical JSON never writes a value in fewer characters than the text
made from it, see :data:`LONG_EXTRA`), and a search reads the rest itself
(inspector/services/search_long_sides.py). PostgreSQL indexes the whole text, as it does events'.

Every kind is kept under the *events'* watermark: the catch-up (inspector/store/search_index.py
``index_next``) indexes an event's text and all its side texts in one chunk, a deletion takes
them all out, and every event at or below ``search_watermark('events')`` that has the text is in
the kind's tables, none above it is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.store.schema import EVENT_INDEX_CHARS

# Events whose text of a kind may run past what SQLite's side indexes hold (format 9), in the
# words of ``events_long_extra``'s WHERE so the planner uses it. A superset: ``extra`` is canonical
# JSON, where a string value takes its characters plus two quotes (escapes only add) and a number
# its own ``json.dumps`` text, so neither text of an event (the call input, values joined by one
# newline; the thinking, one string) is longer than ``extra``. SQLite's length() stops at a NUL,
# which canonical JSON never holds (it writes ``\u0000``).
LONG_EXTRA = f"length(extra) > {EVENT_INDEX_CHARS}"

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def folded(query: str) -> str:
    """The query lower-cased as PostgreSQL's ``lower`` does under the stored text's ``C``
    collation (ASCII letters only): ``lower(?)`` would fold it under the database's default
    collation instead, and ``Ω`` would no longer find ``Ω``. The event and material searches
    (store/search_index.py) fold their queries with it too."""
    return query.translate(_ASCII_LOWER)


def _pg(db: Any) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _like_contains(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


Row = tuple[int, int, "str | None", str]  # (event_id, seq, tool, text), in event order


@dataclass(frozen=True)
class SideIndex:
    """One kind of text kept in ``events.extra`` and its index (tables named from ``name``)."""

    name: str  # "calls", "reasoning": the tables are <name>_fts, <name>_grams, <name>_search
    function: str  # the SQL function computing the text from ``extra`` (SQLite)
    may_have: str  # a cheap SQL test of the stored JSON before any parse
    text_of_extra: Callable[[str | None], str | None]  # the text (None: the event has none)

    @property
    def fts(self) -> str:
        return f"{self.name}_fts"

    @property
    def grams(self) -> str:
        return f"{self.name}_grams"

    @property
    def pg_table(self) -> str:
        return f"{self.name}_search"

    @property
    def tables(self) -> tuple[str, str]:
        """SQLite's tables (PostgreSQL: :attr:`pg_table`)."""
        return (self.fts, self.grams)

    def indexed_text(self, extra: str | None) -> str | None:
        """What SQLite's tables hold for an event (format 9): its text through the first
        ``EVENT_INDEX_CHARS`` characters (cut in Python: SQLite's substr() stops at a NUL)."""
        text = self.text_of_extra(extra)
        return text[:EVENT_INDEX_CHARS] if text is not None and len(text) > EVENT_INDEX_CHARS else text

    def register(self, con: sqlite3.Connection) -> None:
        """Make the text function available to SQL on this connection (migration, catch-up, verify):
        the indexed part (:meth:`indexed_text`), what every SQLite statement of this index writes."""
        con.create_function(self.function, 1, self.indexed_text, deterministic=True)

    async def register_async(self, db: Any) -> None:
        await db.create_function(self.function, 1, self.indexed_text, deterministic=True)

    async def index_range(self, db: Any, low: int, high: int) -> None:
        """Index the text of the events with ``low < event_id <= high``, inside the caller's
        write transaction (the catch-up's chunk, or a migration)."""
        if _pg(db):
            rows = await db.execute_fetchall(
                f"SELECT event_id, session, extra FROM events WHERE event_id > ? AND event_id <= ? AND {self.may_have} "
                "ORDER BY event_id", (low, high))
            items = [(event_id, session, text) for event_id, session, extra in rows
                     if (text := self.text_of_extra(extra)) is not None]
            await db.executemany(f"INSERT INTO {self.pg_table} (event_id, session, text) VALUES (?, ?, ?)", items)
            return
        # MATERIALIZED: the text is computed once per event (a flattened subquery would call the
        # Python function again for the WHERE)
        await db.execute(
            f"WITH c (event_id, t) AS MATERIALIZED (SELECT event_id, {self.function}(extra) FROM events "
            f"WHERE event_id > ? AND event_id <= ? AND {self.may_have}) INSERT INTO {self.fts} (rowid, text) "
            "SELECT event_id, t FROM c WHERE t IS NOT NULL", (low, high))
        await db.execute(f"INSERT INTO {self.grams} (rowid, grams) SELECT rowid, ci_grams(text) FROM {self.fts} "
                         "WHERE rowid > ? AND rowid <= ?", (low, high))

    def fill_sql(self) -> str:
        """SQLite's migration statements filling the index up to the events' watermark."""
        return (f"WITH c (event_id, t) AS MATERIALIZED (SELECT event_id, {self.function}(extra) FROM events "
                "WHERE event_id <= (SELECT indexed_through FROM search_watermark WHERE name = 'events') "
                f"AND {self.may_have}) INSERT INTO {self.fts} (rowid, text) SELECT event_id, t FROM c "
                f"WHERE t IS NOT NULL;\nINSERT INTO {self.grams} (rowid, grams) SELECT rowid, ci_grams(text) "
                f"FROM {self.fts};\n")

    async def unindex(self, db: Any, event_id: int) -> None:
        """Take an indexed event's text out of the index (the caller checked it is at or below the
        watermark). The gram document is rebuilt from the stored text: a contentless FTS5
        ``'delete'`` must be given exactly what was inserted."""
        if _pg(db):
            await db.execute(f"DELETE FROM {self.pg_table} WHERE event_id = ?", (event_id,))
            return
        await db.execute(f"INSERT INTO {self.grams} ({self.grams}, rowid, grams) SELECT 'delete', rowid, "
                         f"ci_grams(text) FROM {self.fts} WHERE rowid = ?", (event_id,))
        await db.execute(f"DELETE FROM {self.fts} WHERE rowid = ?", (event_id,))

    async def cut_to_bound(self, db: Any, event_id: int) -> bool:
        """Format 9's upgrade of one event: an entry holding more than the bound (made whole by an
        older format) taken out with exactly what it holds and made again from its first part;
        nothing done (False) when it holds no more than that (a store whose number was taken back)."""
        rows = await db.execute_fetchall(f"SELECT text FROM {self.fts} WHERE rowid = ?", (event_id,))
        if not rows or rows[0][0] is None or len(rows[0][0]) <= EVENT_INDEX_CHARS:
            return False
        await self.unindex(db, event_id)
        await self.index_range(db, event_id - 1, event_id)
        return True

    async def fill_to_watermark(self, db: Any) -> None:
        """Index the text of every event the event indexes already reach: PostgreSQL's migration
        (SQLite's does it in SQL with the registered function: :meth:`fill_sql`)."""
        rows = await db.execute_fetchall("SELECT indexed_through FROM search_watermark WHERE name = 'events'")
        await self.index_range(db, 0, int(rows[0][0]) if rows else 0)

    # -- queries: rows are (event_id, seq, tool, text), in event order -----------------------------

    async def long_events(self, db: Any, session: str) -> list[tuple[int, int, str | None, int]]:
        """(event_id, seq, tool, length of extra) of the session's indexed events whose text of this kind may run
        past what SQLite's tables hold (format 9: ``events_long_extra``, a superset: the caller
        computes the text), in import order; none on PostgreSQL, which indexes the whole text."""
        if _pg(db):
            return []
        return await db.execute_fetchall(
            f"SELECT event_id, seq, tool, length(extra) FROM events INDEXED BY events_long_extra WHERE session = ? AND "
            f"{LONG_EXTRA} AND {self.may_have} AND event_id <= (SELECT indexed_through FROM search_watermark "
            "WHERE name = 'events') ORDER BY event_id", (session,))

    async def whole_texts(self, db: Any, rows: list[Row]) -> list[Row]:
        """``rows`` with each indexed text that may be cut (SQLite, format 9: as long as the bound)
        replaced by the whole text, read from its event: a hit's count and offsets are the whole
        text's, as an event-text hit's are."""
        if _pg(db) or all(len(text) < EVENT_INDEX_CHARS for _e, _s, _t, text in rows):
            return rows
        out: list[Row] = []
        for event_id, seq, tool, text in rows:
            if len(text) >= EVENT_INDEX_CHARS:
                text = await self.whole_text(db, event_id) or text
            out.append((event_id, seq, tool, text))
        return out

    async def whole_text(self, db: Any, event_id: int) -> str | None:
        """One event's whole text of this kind, from its stored JSON (None: the event has none)."""
        found = await db.execute_fetchall("SELECT extra FROM events WHERE event_id = ?", (event_id,))
        return self.text_of_extra(found[0][0]) if found else None


    async def containing(self, db: Any, session: str, query: str, limit: int) -> list[Row]:
        """Indexed events of ``session`` whose text of this kind contains ``query`` (three characters or more)."""
        if _pg(db):
            return await db.execute_fetchall(
                f"SELECT c.event_id, e.seq, e.tool, c.text FROM {self.pg_table} c JOIN events e "
                "ON e.event_id = c.event_id WHERE c.session = ? AND lower(c.text) LIKE ? ORDER BY c.event_id LIMIT ?",
                (session, _like_contains(folded(query)), limit))
        return await db.execute_fetchall(
            f"SELECT {self.fts}.rowid, e.seq, e.tool, {self.fts}.text FROM {self.fts} CROSS JOIN events e "
            f"ON e.event_id = {self.fts}.rowid WHERE {self.fts} MATCH ? AND e.session = ? "
            f"ORDER BY {self.fts}.rowid LIMIT ?", (_fts_phrase(query), session, limit))

    async def short_candidates(self, db: Any, session: str, query: str, tokens: list[str], after: int,
                               limit: int) -> list[Row]:
        """Events after ``after`` that may hold a one- or two-character query: on SQLite the indexed
        events whose text holds all its gram ``tokens``; on PostgreSQL the session's events whose
        stored JSON holds it (a scan of the events themselves, as its event-text short path, so
        events above the watermark are read too), their text computed here. Either way a
        candidate is checked against its text by the caller (:meth:`short_exact` says when not)."""
        if _pg(db):
            # JSON escapes quotes, backslashes and controls: a query holding one is not looked for in
            # the stored JSON, every event of the kind in the session is a candidate
            plain = not any(c in query for c in '"\\') and all(ord(c) >= 0x20 for c in query)
            test = " AND strpos(lower(extra), ?) > 0" if plain else ""
            rows = await db.execute_fetchall(
                f"SELECT event_id, seq, tool, extra FROM events WHERE session = ? AND event_id > ? AND {self.may_have}"
                f"{test} ORDER BY event_id LIMIT ?", (session, after, *((folded(query),) if plain else ()), limit))
            # a row without text stays a candidate with empty text: it moves the caller's cursor on
            return [(event_id, seq, tool, self.text_of_extra(extra) or "") for event_id, seq, tool, extra in rows]
        match = " AND ".join(_fts_phrase(t) for t in tokens)
        return await db.execute_fetchall(
            f"SELECT {self.grams}.rowid, e.seq, e.tool, f.text FROM {self.grams} "
            f"CROSS JOIN events e ON e.event_id = {self.grams}.rowid CROSS JOIN {self.fts} f "
            f"ON f.rowid = {self.grams}.rowid WHERE {self.grams} MATCH ? AND {self.grams}.rowid > ? AND e.session = ? "
            f"ORDER BY {self.grams}.rowid LIMIT ?", (match, after, session, limit))

    @staticmethod
    def short_exact(db: Any, tokens_exact: bool) -> bool:
        """Whether :meth:`short_candidates` returns only true matches (else each is checked and,
        on SQLite, a query with whitespace is checked in a bounded number of candidates)."""
        return False if _pg(db) else tokens_exact

    @staticmethod
    def short_bounded(db: Any, tokens_exact: bool) -> bool:
        """Whether the short candidates of a query are checked only up to the search's bound:
        SQLite's gram lookup of a query with whitespace (its grams only narrow the candidates);
        PostgreSQL's scan of a session's events is read to the end (its prefilter is the query)."""
        return not _pg(db) and not tokens_exact
