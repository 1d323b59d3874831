"""Materials' search text indexed after an import, not in it (store format 4).

Since format 3 an import writes event rows only and ``catch_up`` (inspector/store/catch_up.py)
indexes them afterwards. A material's trigram index was still built in the import's
transaction: for a 4 MB Claude Code transcript, whose folded tool results are 12 materials,
that was 15 ms of SQLite's CPU out of the import's ~155 ms (docs/benchmarks.md, session 8).
Materials now follow the events' rule, with a watermark of their own: every material with
``material_id <= search_watermark('materials')`` that has searchable text (``indexed_bytes >
0``) and is not a tombstone is in ``materials_fts``, and none above it is. ``catch_up`` moves
it in short transactions; a search that finds materials above it (a store that cannot be
written, an import committed since) checks their text itself (:func:`unindexed`), so a
search never silently misses one. The text indexed is what the import indexed before: the
first ``indexed_bytes`` of the material's bytes, read back from its chunks
(``materials.searchable_text``). Material rows are never removed (a deletion keeps a
tombstone), so their ids are never handed out twice and the watermark cannot come to cover a
row it did not index.
"""

from __future__ import annotations

from typing import Any

from inspector.store import search_index
from inspector.store.connection import fetch_one
from inspector.store.materials import searchable_text

WATERMARK_SQL = "SELECT indexed_through FROM search_watermark WHERE name = 'materials'"
CHUNK_BYTES = 1_000_000  # bytes of material text a transaction indexes at most (beyond its first material)
CHUNK_ROWS = 200


async def watermark(db: Any) -> int:
    row = await fetch_one(db, WATERMARK_SQL)
    return int(row[0]) if row and row[0] is not None else 0


async def backlog(db: Any) -> int:
    """How many materials lie above the watermark (one rowid range lookup: usually none)."""
    row = await fetch_one(db, f"SELECT COUNT(*) FROM materials WHERE material_id > COALESCE(({WATERMARK_SQL}), 0)")
    return int(row[0]) if row else 0


async def _text(db: Any, material_id: int, indexed: int, chunk_size: int, encoding: str, media: str | None) -> str | None:
    """The searchable text of a stored material: its first ``indexed`` bytes, as the import read them."""
    rows = await db.execute_fetchall(
        "SELECT data FROM material_chunks WHERE material_id = ? AND idx < ? ORDER BY idx",
        (material_id, -(-indexed // max(chunk_size, 1))))
    prefix = b"".join(bytes(d) if not isinstance(d, str) else d.encode("utf-8", "surrogatepass") for (d,) in rows)
    return searchable_text(prefix[:indexed], encoding, media)


async def index_next(db: Any) -> int:
    """Index the next materials above the watermark and move it past them, inside the caller's
    write transaction (read there, so two runners never index the same row). Returns how many
    rows the watermark passed (0: nothing above it)."""
    mark = await watermark(db)
    rows = await db.execute_fetchall(
        "SELECT material_id, indexed_bytes, chunk_size, encoding, media_type, deleted_at FROM materials "
        "WHERE material_id > ? ORDER BY material_id LIMIT ?", (mark, CHUNK_ROWS))
    top, passed, size = mark, 0, 0
    for material_id, indexed, chunk_size, encoding, media, deleted_at in rows:
        indexed = int(indexed or 0)
        if passed and size + indexed > CHUNK_BYTES:
            break
        top, passed = int(material_id), passed + 1
        if deleted_at is not None or not indexed:
            continue  # a tombstone's text is gone; binary materials and originals are not indexed
        text = await _text(db, top, indexed, int(chunk_size), str(encoding), media)
        if text:
            await search_index.index_material(db, top, text)
        size += indexed
    if passed:
        await db.execute("INSERT INTO search_watermark (name, indexed_through) VALUES ('materials', ?) "
                         "ON CONFLICT (name) DO UPDATE SET indexed_through = excluded.indexed_through", (top,))
    return passed


async def unindexed(db: Any, session: str) -> list[tuple[str, str]]:
    """(material id, searchable text) of the session's live materials above the watermark."""
    rows = await db.execute_fetchall(
        f"SELECT material_id, id, indexed_bytes, chunk_size, encoding, media_type FROM materials "
        f"WHERE material_id > COALESCE(({WATERMARK_SQL}), 0) AND session = ? AND deleted_at IS NULL "
        "AND indexed_bytes > 0 ORDER BY material_id", (session,))
    out: list[tuple[str, str]] = []
    for material_id, mid, indexed, chunk_size, encoding, media in rows:
        text = await _text(db, int(material_id), int(indexed), int(chunk_size), str(encoding), media)
        if text:
            out.append((str(mid), text))
    return out
