"""The raw-text search indexes, one implementation per backend, behind named functions.

Services never spell index SQL: they call these. On SQLite the indexes are FTS5 tables
kept by hand (``events_fts`` trigram, ``events_grams`` for one- and two-character queries,
``materials_fts``). On PostgreSQL ``events_search`` holds each event's lower-cased text
under a ``pg_trgm`` GIN index; materials' text sits in ``materials_fts`` under the same kind
of index.
Tool calls' input (store format 5) and thinking text (format 6) are indexed beside the events,
under their watermark, by inspector/store/call_index.py and inspector/store/reasoning_index.py
(one machinery: inspector/store/side_index.py), which ``index_next`` and ``unindex_event`` call.

Events are indexed after an import, not in its transaction (store format 3): the import
only writes rows, and ``catch_up`` (inspector/store/catch_up.py) indexes the events above
``search_watermark`` in short transactions. A search catches up first; what it still finds
above the watermark (a read-only store, a commit since) it checks against the text itself.
Materials' text follows the same rule since format 4, with a watermark of its own
(inspector/store/material_index.py).

Short queries on PostgreSQL: trigrams cannot answer one or two characters, so those are an
exact scan of the one session's events in import order (``strpos`` on the lower-cased
text), stopped at the limit. A session is what a search covers, and it is scanned through
its own rows only, so the cost is the session's text (milliseconds for thousands of
events), with nothing extra to write on import; a per-character index (SQLite's
``events_grams``) would multiply the rows written per event by its length and slow every
import for the rare short query. Case folds ASCII letters on both backends' short paths.
"""

from __future__ import annotations

from typing import Any

from inspector.store import call_index, reasoning_index
from inspector.store.connection import fetch_one
from inspector.store.schema import EVENT_INDEX_CHARS
from inspector.store.side_index import SideIndex

# What of an event's text the SQLite event indexes hold (store format 8): its first EVENT_INDEX_CHARS
# characters. An event longer than that is one of ``events_long``'s (:func:`long_events`).
# SQLite's length() and substr() of a text stop at a NUL character: an event whose first NUL comes
# before that bound is not long (``events_long`` does not list it) and is indexed as before, whole.
LONG_TEXT = f"length(content) > {EVENT_INDEX_CHARS}"
INDEXED_TEXT = f"CASE WHEN {LONG_TEXT} THEN substr(content, 1, {EVENT_INDEX_CHARS}) ELSE content END"


def indexed_part(content: str) -> str:
    """The part of an event's text its index entry was made from: :data:`INDEXED_TEXT` in Python."""
    head = content[:EVENT_INDEX_CHARS + 1]
    return content[:EVENT_INDEX_CHARS] if len(head) > EVENT_INDEX_CHARS and "\0" not in head else content


def _pg(db: Any) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _like_contains(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# -- keeping the indexes in step with writes ---------------------------------------------
#
# Events are indexed after they are written, not in the import's transaction: an import
# writes rows only, and :func:`catch_up` (inspector/store/catch_up.py) indexes the events above
# the watermark (``search_watermark.indexed_through``) in short transactions of their own.
# Every event at or below the watermark is in the indexes, none above it is.

WATERMARK_SQL = "SELECT indexed_through FROM search_watermark WHERE name = 'events'"


async def watermark(db: Any) -> int:
    """The highest event id the event indexes reach (every event at or below it is indexed)."""
    row = await fetch_one(db, WATERMARK_SQL)
    return int(row[0]) if row else 0


async def backlog(db: Any) -> tuple[int, int]:
    """(watermark, how many events lie above it): what a catch-up has to index."""
    row = await fetch_one(db, f"SELECT ({WATERMARK_SQL}), (SELECT COALESCE(MAX(event_id), 0) FROM events)")
    mark, top = (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)
    if top <= mark:
        return mark, 0
    count = await fetch_one(db, "SELECT COUNT(*) FROM events WHERE event_id > ?", (mark,))
    return mark, int(count[0]) if count else 0


# The indexes of text an event keeps in ``extra``, beside its own text: what a call ran (format 5),
# what a model thought (format 6). Indexed, unindexed and compacted with the events.
SIDES: tuple[SideIndex, ...] = (call_index.CALLS, reasoning_index.REASONING)

CHUNK_TEXT = 1_000_000  # characters of event text a chunk indexes at most (beyond its first event)


async def index_next(db: Any, size: int) -> tuple[int, int]:
    """Index up to ``size`` events above the watermark and move it past them, inside the
    caller's write transaction. Returns (events indexed, the new watermark); (0, mark) when
    there is nothing to do. Reading the watermark inside the write transaction is what makes
    two catch-ups at once safe: the second sees the first's watermark, never the same rows.
    A chunk also stops once it holds :data:`CHUNK_TEXT` characters, so a run of huge events
    never holds the writer for long (one huge event is still a chunk of its own)."""
    mark = await watermark(db)
    row = await fetch_one(
        db, "SELECT MAX(event_id), COUNT(*) FROM (SELECT event_id, COALESCE(SUM(LENGTH(content)) OVER (ORDER BY event_id "
        "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before FROM (SELECT event_id, content FROM events "
        "WHERE event_id > ? ORDER BY event_id LIMIT ?) AS ahead) AS chunk WHERE before < ?", (mark, size, CHUNK_TEXT))
    if row is None or row[0] is None:
        return 0, mark
    top, count = int(row[0]), int(row[1])
    if _pg(db):
        await db.execute("INSERT INTO events_search (event_id, session, lowered) SELECT event_id, session, "
                         "lower(content) FROM events WHERE event_id > ? AND event_id <= ? AND content IS NOT NULL "
                         "ON CONFLICT (event_id) DO NOTHING", (mark, top))
    else:
        # an event's text through its first EVENT_INDEX_CHARS characters (format 8): the rest of a
        # longer one is checked against its text by a search (services/search_long.py)
        await db.execute(f"INSERT INTO events_fts (rowid, content) SELECT event_id, {INDEXED_TEXT} FROM events "
                         "WHERE event_id > ? AND event_id <= ? AND content IS NOT NULL", (mark, top))
        await db.execute(f"INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams({INDEXED_TEXT}) "
                         "FROM events WHERE event_id > ? AND event_id <= ? AND content IS NOT NULL", (mark, top))
    for side in SIDES:  # their call input (store format 5) and thinking (format 6), under the same watermark
        await side.index_range(db, mark, top)
    await db.execute("INSERT INTO search_watermark (name, indexed_through) VALUES ('events', ?) "
                     "ON CONFLICT (name) DO UPDATE SET indexed_through = excluded.indexed_through", (top,))
    return count, top


async def unindex_event(db: Any, event_id: int, content: str | None) -> None:
    """Take an event about to be deleted out of the indexes, if they hold it: only events at or
    below the watermark were indexed (an FTS5 ``'delete'`` of a row never inserted would
    corrupt the index). An event above it is simply never indexed: the catch-up reads
    ``events`` as it is when it runs."""
    if event_id > await watermark(db):
        return
    for side in SIDES:  # its call input and thinking, if it has any (an event without text may)
        await side.unindex(db, event_id)
    if content is None:
        return
    if _pg(db):
        await db.execute("DELETE FROM events_search WHERE event_id = ?", (event_id,))
        return
    indexed = indexed_part(content)  # what the entry was made from (format 8): nothing else may be deleted
    await db.execute("INSERT INTO events_fts (events_fts, rowid, content) VALUES ('delete', ?, ?)", (event_id, indexed))
    await db.execute("INSERT INTO events_grams (events_grams, rowid, grams) VALUES ('delete', ?, ci_grams(?))",
                     (event_id, indexed))


async def after_events_deleted(db: Any) -> None:
    """Keep the watermark at or below the highest event left. SQLite gives a new row
    ``MAX(event_id) + 1``: once the highest events are deleted, their ids are handed out again,
    and a new event under an old watermark would count as indexed without being so."""
    await db.execute("UPDATE search_watermark SET indexed_through = (SELECT COALESCE(MAX(event_id), 0) FROM events) "
                     "WHERE name = 'events' AND indexed_through > (SELECT COALESCE(MAX(event_id), 0) FROM events)")


async def index_material(db: Any, material_id: int, text: str) -> None:
    if _pg(db):
        await db.execute("INSERT INTO materials_fts (material_id, text) VALUES (?, ?)", (material_id, text))
        return
    await db.execute("INSERT INTO materials_fts (rowid, text) VALUES (?, ?)", (material_id, text))


async def index_materials(db: Any, items: list[tuple[int, str]]) -> None:
    """:func:`index_material` of several (material id, text), in one statement."""
    if not items:
        return
    if _pg(db):
        await db.executemany("INSERT INTO materials_fts (material_id, text) VALUES (?, ?)", items)
        return
    await db.executemany("INSERT INTO materials_fts (rowid, text) VALUES (?, ?)", items)


async def unindex_material(db: Any, material_id: int) -> None:
    column = "material_id" if _pg(db) else "rowid"
    await db.execute(f"DELETE FROM materials_fts WHERE {column} = ?", (material_id,))


async def compact(db: Any) -> None:
    """After a deletion: rewrite the indexes without the deleted rows' segments (SQLite);
    PostgreSQL's VACUUM after the commit does this (inspector/store/pg/maintenance.py)."""
    if _pg(db):
        return
    for table in ("events_fts", "events_grams", "materials_fts", *(t for side in SIDES for t in side.tables)):
        await db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")


# -- queries ---------------------------------------------------------------------------------


async def events_containing(db: Any, session: str, query: str, limit: int) -> list[tuple[int, int, str]]:
    """(event_id, seq, content) of up to ``limit`` events of ``session`` whose text contains ``query``
    (three characters or more; case-insensitive like the index), in import order."""
    if _pg(db):
        return await db.execute_fetchall(
            "SELECT e.event_id, e.seq, e.content FROM events_search s JOIN events e ON e.event_id = s.event_id "
            "WHERE s.session = ? AND s.lowered LIKE ? ORDER BY s.event_id LIMIT ?",
            (session, _like_contains(call_index.folded(query)), limit))
    # CROSS JOIN keeps events_fts as the outer loop: the index yields rowids in order and
    # the LIMIT stops the walk; each event is one primary-key lookup.
    return await db.execute_fetchall(
        "SELECT e.event_id, e.seq, e.content FROM events_fts CROSS JOIN events e ON e.event_id = events_fts.rowid "
        "WHERE events_fts MATCH ? AND e.session = ? ORDER BY events_fts.rowid LIMIT ?",
        (_fts_phrase(query), session, limit))


async def short_candidates(db: Any, session: str, query: str, tokens: list[str], after: int,
                           limit: int) -> list[tuple[int, int, str]]:
    """(event_id, seq, content) of events after ``after`` that may hold a one- or two-character
    query: on SQLite those holding all its gram ``tokens`` (exact when the query has no
    whitespace), on PostgreSQL those holding the query itself (always exact)."""
    if _pg(db):
        return await db.execute_fetchall(
            "SELECT event_id, seq, content FROM events WHERE session = ? AND event_id > ? "
            "AND strpos(lower(content), ?) > 0 ORDER BY event_id LIMIT ?",
            (session, after, call_index.folded(query), limit))
    match = " AND ".join(_fts_phrase(t) for t in tokens)
    return await db.execute_fetchall(
        "SELECT events_grams.rowid, e.seq, e.content FROM events_grams "
        "CROSS JOIN events e ON e.event_id = events_grams.rowid "
        "WHERE events_grams MATCH ? AND events_grams.rowid > ? AND e.session = ? "
        "ORDER BY events_grams.rowid LIMIT ?", (match, after, session, limit))


async def long_events(db: Any, session: str) -> list[tuple[int, int]]:
    """(event_id, length) of the session's indexed events whose text runs past what the index holds
    (SQLite, format 8: ``events_long``), in import order: what a search checks past the index. None
    on PostgreSQL, which indexes each event's whole text."""
    if _pg(db):
        return []
    return await db.execute_fetchall(
        f"SELECT event_id, length(content) FROM events INDEXED BY events_long WHERE session = ? AND {LONG_TEXT} "
        f"AND event_id <= ({WATERMARK_SQL}) ORDER BY event_id", (session,))


async def long_event_text(db: Any, event_id: int) -> tuple[int, str] | None:
    """(seq, text) of one event: a long event's whole text, read when a search checks it."""
    row = await fetch_one(db, "SELECT seq, content FROM events WHERE event_id = ?", (event_id,))
    return (int(row[0]), str(row[1])) if row is not None and row[1] is not None else None


def short_queries_indexed(db: Any) -> bool:
    """Whether :func:`short_candidates` reads an index (SQLite's ``events_grams``), so events
    above the watermark need a look of their own; PostgreSQL scans the session's events."""
    return not _pg(db)


async def unindexed_events(db: Any, session: str, after: int | None,
                           limit: int) -> list[tuple[int, int, str | None, str | None, str]]:
    """(event_id, seq, content, tool, extra) of the session's events above ``after`` (None: above
    the watermark) that hold text or may hold call input or thinking, in import order: what a search
    checks directly when the indexes do not reach them yet (a store that cannot be written, an
    import committed since the catch-up). Usually none, answered by one lookup past the highest event."""
    return await db.execute_fetchall(unindexed_sql(_pg(db), after is None),
                                     (*(() if after is None else (after,)), session, limit))


def unindexed_sql(pg: bool, from_watermark: bool) -> str:
    # SQLite: ``+session`` keeps the planner on the rowid range (usually empty: nothing above the
    # watermark) instead of walking the session's whole (session, …) index to filter on event_id.
    column = "session" if pg else "+session"
    bound = f"({WATERMARK_SQL})" if from_watermark else "?"
    return (f"SELECT event_id, seq, content, tool, extra FROM events WHERE event_id > {bound} AND {column} = ? "
            f"AND (content IS NOT NULL OR {call_index.MAY_HAVE_INPUT} OR {reasoning_index.MAY_HAVE_THINKING}) "
            "ORDER BY event_id LIMIT ?")


def short_query_exact(db: Any, tokens_exact: bool) -> bool:
    """Whether :func:`short_candidates` returns only true matches for this query."""
    return True if _pg(db) else tokens_exact


async def materials_containing(db: Any, session: str, query: str, limit: int, short: bool) -> list[tuple[str, str]]:
    """(material id, indexed text) of the session's live materials whose text contains ``query``."""
    key = "f.material_id" if _pg(db) else "f.rowid"
    if short or _pg(db):  # a session holds few materials: their indexed text is checked directly
        # PostgreSQL's lower(?) would fold the query under the database's collation, not the
        # stored text's "C" (ASCII only): the query is folded here as the text is (call_index.folded).
        if _pg(db):
            folded = call_index.folded(query)
            test, arg = ("strpos(lower(f.text), ?) > 0", folded) if short else ("lower(f.text) LIKE ?",
                                                                                _like_contains(folded))
        else:
            test, arg = "instr(lower(f.text), lower(?)) > 0", query
        return await db.execute_fetchall(
            f"SELECT m.id, f.text FROM materials m JOIN materials_fts f ON {key} = m.material_id "
            f"WHERE m.session = ? AND m.deleted_at IS NULL AND {test} ORDER BY m.material_id LIMIT ?",
            (session, arg, limit))
    return await db.execute_fetchall(
        "SELECT m.id, f.text FROM materials_fts f CROSS JOIN materials m ON m.material_id = f.rowid "
        "WHERE materials_fts MATCH ? AND m.session = ? AND m.deleted_at IS NULL ORDER BY f.rowid LIMIT ?",
        (_fts_phrase(query), session, limit))


async def partly_indexed_materials(db: Any, session: str) -> int:
    """Text materials indexed only up to the cap. Materials never indexed on purpose — binary
    ones, and the original transcript file, whose text the events already index — are not
    "partly indexed": counting them made every search of an imported transcript incomplete."""
    row = await fetch_one(db, "SELECT COUNT(*) FROM materials WHERE session = ? AND size > indexed_bytes AND "
                          "indexed_bytes > 0 AND deleted_at IS NULL", (session,))
    return int(row[0]) if row else 0


async def partly_indexed_ids(db: Any, session: str, limit: int) -> list[str]:
    """The first ``limit`` of :func:`partly_indexed_materials`, by id: the note names them, so the
    reviewer knows which original to read past its first 4 MiB (`expand --range`)."""
    rows = await db.execute_fetchall("SELECT id FROM materials WHERE session = ? AND size > indexed_bytes AND "
                                     "indexed_bytes > 0 AND deleted_at IS NULL ORDER BY id LIMIT ?", (session, limit))
    return [str(r[0]) for r in rows]
