"""The raw-text search indexes, one implementation per backend, behind named functions.

Services never spell index SQL: they call these. On SQLite the indexes are FTS5 tables
kept by hand (``events_fts`` trigram, ``events_grams`` for one- and two-character queries,
``materials_fts``). On PostgreSQL the events are indexed where they lie, by a ``pg_trgm``
GIN index on ``lower(content)`` that PostgreSQL keeps in step with every insert and delete;
materials' text sits in ``materials_fts`` under the same kind of index.

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

from inspector.store.connection import fetch_one


def _pg(db: Any) -> bool:
    return getattr(db, "dialect", "sqlite") == "postgresql"


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _like_contains(query: str) -> str:
    escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# -- keeping the indexes in step with writes ---------------------------------------------


async def index_events_after(db: Any, last_event_id: int) -> None:
    """Index the events an import wrote (event ids above ``last_event_id``)."""
    if _pg(db):
        return  # the GIN index on events is maintained by PostgreSQL itself
    await db.execute("INSERT INTO events_fts (rowid, content) SELECT event_id, content FROM events "
                     "WHERE event_id > ? AND content IS NOT NULL", (last_event_id,))
    await db.execute("INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams(content) FROM events "
                     "WHERE event_id > ? AND content IS NOT NULL", (last_event_id,))


async def unindex_event(db: Any, event_id: int, content: str | None) -> None:
    """Take an event about to be deleted out of the indexes."""
    if _pg(db) or content is None:
        return  # deleting the row deletes its index entries
    await db.execute("INSERT INTO events_fts (events_fts, rowid, content) VALUES ('delete', ?, ?)", (event_id, content))
    await db.execute("INSERT INTO events_grams (events_grams, rowid, grams) VALUES ('delete', ?, ci_grams(?))",
                     (event_id, content))


async def index_material(db: Any, material_id: int, text: str) -> None:
    if _pg(db):
        await db.execute("INSERT INTO materials_fts (material_id, text) VALUES (?, ?)", (material_id, text))
        return
    await db.execute("INSERT INTO materials_fts (rowid, text) VALUES (?, ?)", (material_id, text))


async def unindex_material(db: Any, material_id: int) -> None:
    column = "material_id" if _pg(db) else "rowid"
    await db.execute(f"DELETE FROM materials_fts WHERE {column} = ?", (material_id,))


async def compact(db: Any) -> None:
    """After a deletion: rewrite the indexes without the deleted rows' segments (SQLite);
    PostgreSQL's VACUUM after the commit does this (inspector/store/pg/maintenance.py)."""
    if _pg(db):
        return
    for table in ("events_fts", "events_grams", "materials_fts"):
        await db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")


# -- queries ---------------------------------------------------------------------------------


async def events_containing(db: Any, session: str, query: str, limit: int) -> list[tuple[int, str]]:
    """(seq, content) of up to ``limit`` events of ``session`` whose text contains ``query``
    (three characters or more; case-insensitive like the index), in import order."""
    if _pg(db):
        return await db.execute_fetchall(
            "SELECT seq, content FROM events WHERE session = ? AND lower(content) LIKE lower(?) ORDER BY event_id "
            "LIMIT ?",
            (session, _like_contains(query), limit))
    # CROSS JOIN keeps events_fts as the outer loop: the index yields rowids in order and
    # the LIMIT stops the walk; each event is one primary-key lookup.
    return await db.execute_fetchall(
        "SELECT e.seq, e.content FROM events_fts CROSS JOIN events e ON e.event_id = events_fts.rowid "
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
            "AND strpos(lower(content), lower(?)) > 0 ORDER BY event_id LIMIT ?", (session, after, query, limit))
    match = " AND ".join(_fts_phrase(t) for t in tokens)
    return await db.execute_fetchall(
        "SELECT events_grams.rowid, e.seq, e.content FROM events_grams "
        "CROSS JOIN events e ON e.event_id = events_grams.rowid "
        "WHERE events_grams MATCH ? AND events_grams.rowid > ? AND e.session = ? "
        "ORDER BY events_grams.rowid LIMIT ?", (match, after, session, limit))


def short_query_exact(db: Any, tokens_exact: bool) -> bool:
    """Whether :func:`short_candidates` returns only true matches for this query."""
    return True if _pg(db) else tokens_exact


async def materials_containing(db: Any, session: str, query: str, limit: int, short: bool) -> list[tuple[str, str]]:
    """(material id, indexed text) of the session's live materials whose text contains ``query``."""
    key = "f.material_id" if _pg(db) else "f.rowid"
    if short or _pg(db):  # a session holds few materials: their indexed text is checked directly
        test = "lower(f.text) LIKE lower(?)" if _pg(db) and not short else "instr(lower(f.text), lower(?)) > 0"
        arg = _like_contains(query) if _pg(db) and not short else query
        return await db.execute_fetchall(
            f"SELECT m.id, f.text FROM materials m JOIN materials_fts f ON {key} = m.material_id "
            f"WHERE m.session = ? AND m.deleted_at IS NULL AND {test} ORDER BY m.material_id LIMIT ?",
            (session, arg, limit))
    return await db.execute_fetchall(
        "SELECT m.id, f.text FROM materials_fts f CROSS JOIN materials m ON m.material_id = f.rowid "
        "WHERE materials_fts MATCH ? AND m.session = ? AND m.deleted_at IS NULL ORDER BY f.rowid LIMIT ?",
        (_fts_phrase(query), session, limit))


async def partly_indexed_materials(db: Any, session: str) -> int:
    row = await fetch_one(db, "SELECT COUNT(*) FROM materials WHERE session = ? AND size > indexed_bytes AND "
                          "deleted_at IS NULL", (session,))
    return int(row[0]) if row else 0
