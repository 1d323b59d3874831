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


COUNT_CHARS = 4 * 1024 * 1024  # occurrences are counted in each item's first 4 MiB of text
MAX_OCCURRENCES = 200  # offsets (and their snippets) kept per item


@dataclass(frozen=True, slots=True)
class Occurrence:
    offset: int  # in characters from the start of the item's text
    snippet: str


@dataclass(frozen=True, slots=True)
class Hit:
    where: str  # "event" or "material"
    ref: str  # evt:N or the material id
    snippet: str
    count: int = 1  # occurrences of the query in the item (in its first COUNT_CHARS characters)
    occurrences: tuple[Occurrence, ...] = ()  # the first MAX_OCCURRENCES, with their offsets


def occurrences(text: str, query: str) -> tuple[int, tuple[Occurrence, ...]]:
    """How often ``query`` occurs in ``text`` (case as typed) and where, with a snippet for each of the first few."""
    text = text[:COUNT_CHARS]
    found: list[Occurrence] = []
    count = 0
    at = text.find(query)
    while query and at != -1:
        count += 1
        if len(found) < MAX_OCCURRENCES:
            found.append(Occurrence(at, _snippet_at(text, at)))
        at = text.find(query, at + len(query))
    return count, tuple(found)


def _snippet_at(text: str, at: int) -> str:
    start = max(0, at - SNIPPET_CHARS // 2)
    piece = text[start : start + SNIPPET_CHARS].replace("\n", " ")
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(text) else "")


@dataclass(slots=True)
class SearchResult:
    query: str
    method: str  # "fts" or "scan"
    hits: list[Hit] = field(default_factory=list)
    complete: bool = True
    note: str = ""

    @property
    def occurrence_count(self) -> int:
        return sum(h.count for h in self.hits)

    def as_dict(self) -> dict[str, Any]:
        return {"query": self.query, "method": self.method, "complete": self.complete, "note": self.note,
                "occurrences": self.occurrence_count, "hits": [asdict(h) for h in self.hits]}


def _fts_phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _snippet_around(text: str, query: str) -> str:
    at = text.find(query)
    start = max(0, at - SNIPPET_CHARS // 2)
    piece = text[start : start + SNIPPET_CHARS].replace("\n", " ")
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(text) else "")


async def search(store: Store, session: str, query: str, *, limit: int = 50) -> SearchResult:
    """Items that contain ``query`` (up to ``limit`` events and ``limit`` materials), each with how
    often and where: "1 hit" once stood for 61 matching lines."""
    if not query:
        return SearchResult(query, "none")
    result = await (_fts(store, session, query, limit) if len(query) >= 3 else _scan(store, session, query, limit))
    result.hits = [await _counted(store, session, h, query) for h in result.hits]
    return result


async def _counted(store: Store, session: str, hit: Hit, query: str) -> Hit:
    if hit.where == "event":
        row = await fetch_one(store.db, f"SELECT substr(content, 1, {COUNT_CHARS}) FROM events WHERE session = ? AND seq = ?",
                              (session, int(hit.ref.removeprefix("evt:"))))
    else:
        row = await fetch_one(store.db, f"SELECT substr(f.text, 1, {COUNT_CHARS}) FROM materials m JOIN materials_fts f "
                              "ON f.rowid = m.material_id WHERE m.session = ? AND m.id = ?", (session, hit.ref))
    count, found = occurrences(str(row[0] or "") if row else "", query)
    if count == 0:  # the index matched case-insensitively: still one hit, its snippet as the index gave it
        return hit
    return Hit(hit.where, hit.ref, found[0].snippet, count, found)


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
