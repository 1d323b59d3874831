"""Verify's checks of what the ledger does not describe row by row: the chunk layout of each
material, the chunks themselves, and the event search index against the events.

A material row's size, chunk size, chunk count, chunk hashes and indexed prefix are derived
from its bytes when it is written, so they are recomputed and compared here (a tombstone
must hold no chunk and no chunk hash). The event indexes are derived too, but a search
trusts them: every event at or below ``search_watermark`` with text must be indexed, no
index entry may point at a missing event, and the watermark may not lie above the last
event. What stays unchecked is said in docs/store-format.md.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert
from inspector.services import verify_calls, verify_pg_schema, verify_pg_tables
from inspector.store.connection import Store
from inspector.store.materials import DIGEST_SIZE, searchable_text
from inspector.store.schema import CHUNK_SIZE, MATERIAL_INDEX_CAP
from inspector.store.schema_expected import SCHEMA_SQL
from inspector.store.schema_expected import expected_schema as expected_schema  # re-exported: scripts/tamper_verify.py

Fail = Callable[[dict[str, Any]], None]


async def check_material_layout(store: Store, fail: Fail) -> None:
    rows = await store.db.execute_fetchall(
        "SELECT m.session, m.id, m.size, m.chunk_size, m.chunk_count, length(m.chunk_hashes), m.indexed_bytes, "
        "m.encoding, m.media_type, m.deleted_at IS NOT NULL, COUNT(c.idx), IFNULL(SUM(length(c.data)), 0), "
        "IFNULL(MAX(c.idx), -1), IFNULL(SUM(CASE WHEN c.idx < m.chunk_count - 1 AND length(c.data) != m.chunk_size "
        "THEN 1 ELSE 0 END), 0) FROM materials m LEFT JOIN material_chunks c ON c.material_id = m.material_id "
        "GROUP BY m.material_id ORDER BY m.material_id")
    for (sid, mid, size, chunk_size, count, hashes_len, indexed, encoding, media, deleted, chunks, total, top,
         short) in rows:
        def bad(what: str, sid: str = sid, mid: str = mid, code: str = "material_layout_differs") -> None:
            fail({"where": "materials", "session": sid, "id": mid, "code": code, "message": f"material {inert(mid)}: {what}"})
        if deleted:
            if chunks or hashes_len:
                bad("it is a tombstone, but chunks or chunk hashes are still stored", code="tombstone_holds_bytes")
            continue
        size, chunk_size, count = int(size), int(chunk_size), int(count)
        want_count = -(-size // chunk_size) if chunk_size > 0 else -1
        if chunk_size != CHUNK_SIZE or count != want_count or hashes_len != count * DIGEST_SIZE:  # one format size
            bad(f"its layout ({size} bytes, {count} chunks of {chunk_size}, {hashes_len} bytes of chunk hashes) "
                "is not one its bytes can have")
        elif chunks != count or top != count - 1 or total != size or short:
            bad(f"{chunks} chunks holding {total} bytes are stored, but its layout says {count} chunks, {size} bytes "
                "(a chunk was removed, added, moved or resized)")
        probe = searchable_text(b"", str(encoding), media)
        want_indexed = min(size, MATERIAL_INDEX_CAP) if probe is not None else 0
        if int(indexed) != want_indexed:
            bad(f"it says its first {indexed} bytes are searchable; its bytes make that {want_indexed}")
    orphans = await store.db.execute_fetchall(
        "SELECT COUNT(*) FROM material_chunks c WHERE NOT EXISTS (SELECT 1 FROM materials m "
        "WHERE m.material_id = c.material_id)")
    if orphans and int(orphans[0][0]):
        fail({"where": "material_chunks", "code": "chunks_orphaned", "message": f"{counted(int(orphans[0][0]), 'chunk')} {'belongs' if int(orphans[0][0]) == 1 else 'belong'} to no material"})


async def check_event_index(store: Store, fail: Fail) -> str:
    """``checked``, or why not: the event indexes' coverage against the events and the watermark."""
    indexes = [("events_search", "event_id")] if store.dialect == "postgresql" else [
        ("events_fts_docsize", "id"), ("events_grams_docsize", "id")]  # the trigram and the short-query index
    mark_rows = await store.db.execute_fetchall("SELECT indexed_through FROM search_watermark WHERE name = 'events'")
    top_rows = await store.db.execute_fetchall("SELECT COALESCE(MAX(event_id), 0) FROM events")
    top = int(top_rows[0][0])
    if not mark_rows:
        fail({"where": "search_watermark", "code": "watermark_differs", "message": "the search watermark is missing: searches cannot tell "
                                                      "which events are indexed"})
        return "broken"
    mark = int(mark_rows[0][0])
    if mark > top:
        fail({"where": "search_watermark", "code": "watermark_differs", "message": f"the search watermark says events up to id {mark} are "
                                                      f"indexed, but the last event is {top}"})
    above = [await store.db.execute_fetchall(f"SELECT COUNT(*) FROM {table} WHERE {key} > ?", (mark,))
             for table, key in indexes]
    if any(int(rows[0][0]) for rows in above):
        fail({"where": "search_watermark", "code": "watermark_differs",
              "message": f"the search watermark says events up to id {mark} are indexed, but events above it are in "
                         "the index already (the next catch-up would index them twice)"})
    for table, key in indexes:
        missing = await store.db.execute_fetchall(
            f"SELECT COUNT(*) FROM events e WHERE e.event_id <= ? AND e.content IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM {table} d WHERE d.{key} = e.event_id)", (mark,))
        dangling = await store.db.execute_fetchall(
            f"SELECT COUNT(*) FROM {table} d WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.event_id = d.{key} "
            "AND e.content IS NOT NULL)")
        if int(missing[0][0]) or int(dangling[0][0]):
            name = table.removesuffix("_docsize")
            fail({"where": name, "code": "search_index_coverage", "message": f"the event search index {name} does not match the events: "
                                            f"{counted(int(missing[0][0]), 'indexed event')} missing from it, "
                                            f"{counted(int(dangling[0][0]), 'entry')} for no event (a search would miss or misplace text)"})
    for checked in verify_calls.CHECKED:  # the call-input and thinking indexes (coverage, text), same watermark
        await verify_calls.check(store, fail, mark, checked)
    try:
        await _check_material_index(store, fail)
    except sqlite3.DatabaseError as exc:  # the index's own tables were edited so FTS5 cannot open it
        fail({"where": "materials_fts", "code": "search_index_damaged",
              "message": f"the material search index cannot be read ({exc}): its FTS5 tables were edited"})
    return "checked"


async def _check_material_index(store: Store, fail: Fail) -> None:
    """Every live material with a searchable prefix at or below the materials' watermark is in the
    material index; no entry is for a tombstone, a material that is gone (a deleted material's
    text must not stay searchable) or one above the watermark (the catch-up would add it twice)."""
    key = "material_id" if store.dialect == "postgresql" else "rowid"
    marks = await store.db.execute_fetchall("SELECT indexed_through FROM search_watermark WHERE name = 'materials'")
    if not marks:
        fail({"where": "search_watermark", "code": "watermark_differs", "message": "the material search watermark is missing: searches cannot "
                                                      "tell which materials are indexed"})
        return
    mark = int(marks[0][0])  # format 4: materials above it are indexed by the next catch-up (none is yet)
    top = await store.db.execute_fetchall("SELECT COALESCE(MAX(material_id), 0) FROM materials")
    if mark > int(top[0][0]):  # a material added later would count as indexed without being so
        fail({"where": "search_watermark", "code": "watermark_differs",
              "message": f"the material search watermark says materials up to id {mark} are indexed, but the last "
                         f"material is {top[0][0]}"})
    missing = await store.db.execute_fetchall(
        f"SELECT COUNT(*) FROM materials m WHERE m.material_id <= ? AND m.deleted_at IS NULL AND m.indexed_bytes > 0 "
        f"AND NOT EXISTS (SELECT 1 FROM materials_fts f WHERE f.{key} = m.material_id)", (mark,))
    stale = await store.db.execute_fetchall(
        f"SELECT COUNT(*) FROM materials_fts f WHERE NOT EXISTS (SELECT 1 FROM materials m "
        f"WHERE m.material_id = f.{key} AND m.deleted_at IS NULL AND m.material_id <= ?)", (mark,))
    if int(missing[0][0]) or int(stale[0][0]):
        fail({"where": "materials_fts", "code": "search_index_coverage", "message": f"the material search index does not match the materials: "
                                                   f"{counted(int(missing[0][0]), 'searchable material')} missing from it, "
                                                   f"{counted(int(stale[0][0]), 'entry')} for a deleted or missing material"})


GUARDS = ("ledger_no_update", "ledger_no_delete", "events_no_update", "chunks_no_update")


async def check_guards(store: Store, fail: Fail) -> str | None:
    """The store's schema is the inspector's: the triggers that refuse edits of the ledger,
    events and chunks are there and unaltered (someone who drops them to edit in place and
    forgets to restore them leaves this trace), no trigger or view was added (one could
    rewrite what later acts write, or what a read returns), no index dropped or altered."""
    if store.dialect == "postgresql":
        await verify_pg_schema.check_pg_schema(store, fail)
        return await verify_pg_tables.check_pg_tables(store, fail)  # what it could not compare, if anything
    rows = await store.db.execute_fetchall(SCHEMA_SQL)
    have = {(str(t), str(n)): s for t, n, s in rows}
    want = expected_schema()
    gone = sorted(n for (t, n) in want if t == "trigger" and n in GUARDS and (t, n) not in have)
    if gone:
        fail({"where": "schema", "code": "guards_removed", "message": f"the append-only guards {', '.join(gone)} were removed from the store: "
                                            "rows they protect may have been edited in place"})
    changed = sorted(f"{t} {n}" for (t, n), sql in want.items() if (t, n) in have and have[(t, n)] != sql)
    added = sorted(f"{t} {n}" for (t, n) in have if (t, n) not in want)
    missing = sorted(f"{t} {n}" for (t, n) in want if (t, n) not in have and not (t == "trigger" and n in GUARDS))
    parts = [f"{label}: {', '.join(items[:6])}" for label, items in (("altered", changed), ("added", added),
                                                                      ("removed", missing)) if items]
    if parts:
        fail({"where": "schema", "code": "schema_changed", "message": "the store's schema was changed outside the inspector ("
                                            + "; ".join(parts) + "): a changed trigger or view can alter what "
                                            "acts write or reads return"})
    return None
