"""Search over event text and materials (the raw-text index).

Queries of three characters or more use the FTS5 trigram index. Trigram FTS cannot
answer shorter queries (SQLite 3.40 returns nothing, and LIKE of two CJK characters on
a trigram table is wrong), so those run as a plain substring scan over the base tables,
bounded in rows; the result says when the bound cut the scan short.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from inspector.store.connection import Store, fetch_one

SHORT_SCAN_ROWS = 50_000
SNIPPET_CHARS = 48


@dataclass(frozen=True, slots=True)
class Hit:
    where: str  # "event" or "material"
    ref: str  # evt:N or the material id
    snippet: str


@dataclass(slots=True)
class SearchResult:
    query: str
    method: str  # "fts" or "scan"
    hits: list[Hit] = field(default_factory=list)
    complete: bool = True
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"query": self.query, "method": self.method, "complete": self.complete, "note": self.note,
                "hits": [asdict(h) for h in self.hits]}


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _snippet_around(text: str, query: str) -> str:
    at = text.find(query)
    start = max(0, at - SNIPPET_CHARS // 2)
    piece = text[start : start + SNIPPET_CHARS].replace("\n", " ")
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(text) else "")


async def search(store: Store, session: str, query: str, *, limit: int = 50) -> SearchResult:
    if not query:
        return SearchResult(query, "none")
    if len(query) >= 3:
        return await _fts(store, session, query, limit)
    return await _scan(store, session, query, limit)


async def _fts(store: Store, session: str, query: str, limit: int) -> SearchResult:
    result = SearchResult(query, "fts")
    phrase = _fts_phrase(query)
    result.hits += [Hit("event", f"evt:{seq}", snip.replace("\n", " ")) for seq, snip in await store.db.execute_fetchall("SELECT e.seq, snippet(events_fts, 0, '', '', '…', 12) FROM events_fts "
        "JOIN events e ON e.event_id = events_fts.rowid "
        "WHERE events_fts MATCH ? AND e.session = ? ORDER BY e.seq LIMIT ?", (phrase, session, limit))]
    result.hits += [Hit("material", mid, snip.replace("\n", " ")) for mid, snip, _s, _i in await store.db.execute_fetchall("SELECT m.id, snippet(materials_fts, 0, '', '', '…', 12), m.size, m.indexed_bytes FROM materials_fts "
        "JOIN materials m ON m.material_id = materials_fts.rowid "
        "WHERE materials_fts MATCH ? AND m.session = ? AND m.deleted_at IS NULL LIMIT ?", (phrase, session, limit))]
    row = await fetch_one(store.db, "SELECT COUNT(*) FROM materials WHERE session = ? AND size > indexed_bytes AND deleted_at IS NULL", (session,))
    if row and row[0]:
        result.complete = False
        result.note = f"{row[0]} material(s) are indexed only in their first 4 MiB"
    return result


async def _scan(store: Store, session: str, query: str, limit: int) -> SearchResult:
    result = SearchResult(query, "scan")
    async with store.db.execute(
        "SELECT seq, content, instr(content, ?) FROM "
        "(SELECT seq, content FROM events WHERE session = ? ORDER BY seq LIMIT ?) WHERE instr(content, ?) > 0 "
        "LIMIT ?", (query, session, SHORT_SCAN_ROWS, query, limit)
    ) as cur:
        result.hits += [Hit("event", f"evt:{seq}", _snippet_around(text, query)) for seq, text, _ in
                        await cur.fetchall()]
    result.hits += [Hit("material", mid, _snippet_around(text, query)) for mid, text in await store.db.execute_fetchall("SELECT m.id, f.text FROM materials m JOIN materials_fts f ON f.rowid = m.material_id "
        "WHERE m.session = ? AND m.deleted_at IS NULL AND instr(f.text, ?) > 0 LIMIT ?", (session, query, limit))]
    row = await fetch_one(store.db, "SELECT COUNT(*) FROM events WHERE session = ?", (session,))
    total = int(row[0]) if row else 0
    if total > SHORT_SCAN_ROWS:
        result.complete = False
        result.note = (f"queries under 3 characters scan only the first {SHORT_SCAN_ROWS:,} of {total:,} events; "
                       "type 3 or more characters to search everything")
    return result
