"""Verify's comparison of the search indexes' *text* with what they index.

Coverage (every event and material has an entry, no entry is for nothing) is checked in
verify_layout.py; that cannot see an entry rebuilt from other text. A search trusts its
index: an event indexed under words it does not hold turns up for them (and is hidden for
its own), and the material search shows the index's stored text itself. So:

- ``materials_fts``: each entry's text equals the searchable prefix recomputed from the
  material's chunks (bounded by the index cap, so cheap), and the index agrees with the
  text it stores (FTS5 ``integrity-check``);
- ``events_fts`` (external content): FTS5 ``integrity-check`` with rank 1 re-tokenizes every
  indexed event and compares with the index — the whole text is read, so it runs by default
  only while the events' text is under :data:`TEXT_CHECK_BELOW` (or with ``--full``); above
  that each entry's trigram count is compared with its event's length (an entry rebuilt from
  text of another length shows; one of the same length does not, which ``not_checked`` says);
- ``events_grams`` (contentless, one entry per event's distinct characters and pairs): rebuilt
  in a temporary table under the same size bound and compared by counts (each gram's events,
  each event's grams), with ``--full`` pair by pair (said in ``not_checked``).

FTS5's integrity check is spelled as an INSERT, so it runs on the writer, inside a savepoint
rolled back at once (text-less events are added as empty documents for the check, since
FTS5 reads every row of ``events``): nothing is changed, but it holds the write lock a moment; a read-only store, or a writer holding the lock, leaves it to the size
comparison and says so. PostgreSQL's ``events_search`` holds each event's lower-cased text,
compared in one query.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert
from inspector.services import verify_fts_lookup
from inspector.services.verify_rows import batched
from inspector.store.connection import Store
from inspector.store.materials import searchable_text
from inspector.store.schema import EVENT_INDEX_CHARS
from inspector.store.search_index import INDEXED_TEXT, LONG_TEXT

Fail = Callable[[dict[str, Any]], None]

TEXT_CHECK_BELOW = 4 << 20  # characters of indexed event text compared in full by default
# calls whose gram index is rebuilt and compared by default (its cost is per call: ~4 s of CPU
# for 250,000 on this machine; a real session holds hundreds to thousands)
CALL_GRAMS_CHECK_BELOW = 100_000
MISMATCH = ("malformed", "corrupt")
NOT_NOW = ("locked", "busy", "readonly", "read-only", "read only")  # the check could not run now: said, not a break


async def check_index_text(store: Store, fail: Fail, full: bool | None, *, writable: bool = True,
                           why: str = "needs a writable store") -> list[str]:
    """Compare the indexes' text with the events and materials; return what was not compared.
    ``writable``: run on the writer (FTS5's checks and the temporary rebuild need it); ``why``
    says why not in what was not compared."""
    skipped: list[str] = []
    try:
        await _material_text(store, fail)
    except sqlite3.DatabaseError as exc:  # reported by the coverage check already (verify_layout.py)
        skipped.append(f"materials_fts text: the index cannot be read ({exc})")
    await verify_fts_lookup.check_lookups(store, fail)  # what a search looks terms up in (FTS5 misses it)
    if store.dialect == "postgresql":
        await _pg_event_text(store, fail)
        return skipped
    if not writable:
        skipped.append(f"the search indexes' words against their text (FTS5's check {why}): "
                       "each event entry's size and each material entry's text were compared instead")
        await _event_sizes(store, fail)
        return skipped
    await _fts_check(store, "materials_fts", 0, fail, skipped, "the material search index")
    await _fts_check(store, "calls_fts", 0, fail, skipped, "the call-input search index calls_fts")
    await _fts_check(store, "calls_grams", 0, fail, skipped, "the call-input short-query index calls_grams")
    await _call_grams(store, fail, skipped, full)
    await _fts_check(store, "reasoning_fts", 0, fail, skipped, "the thinking search index reasoning_fts")
    await _fts_check(store, "reasoning_grams", 0, fail, skipped, "the thinking short-query index reasoning_grams")
    await _call_grams(store, fail, skipped, full, "reasoning", "thinking")
    total = await _event_text_size(store)
    long_events = await _long_events(store)
    if full or (full is None and total < TEXT_CHECK_BELOW and not long_events):
        if not await _fts_check(store, "events_fts", 1, fail, skipped, "the event search index events_fts"):
            await _event_sizes(store, fail)
    elif long_events and total < TEXT_CHECK_BELOW:
        skipped.append(f"events_fts text: {counted(long_events, 'event')} {'is' if long_events == 1 else 'are'} "
                       f"longer than the {EVENT_INDEX_CHARS:,} characters "
                       "the index holds of each (format 8), and FTS5's check would index them whole (--full does); "
                       "each entry's size was compared instead")
        await _event_sizes(store, fail)
    else:
        skipped.append(f"events_fts text: {total:,} characters of event text is above the default's "
                       f"{TEXT_CHECK_BELOW:,} (--full compares it); each entry's size was compared instead, so an "
                       "entry rebuilt from other text of the same length is not found")
        await _event_sizes(store, fail)
    if full or (full is None and total < TEXT_CHECK_BELOW):
        # FTS5's own check of the short-query index (contentless: its segments against its term
        # lookups, which a search uses and the comparison below, reading it whole, does not)
        await _fts_check(store, "events_grams", 0, fail, skipped, "the short-query index events_grams")
        await _grams_text(store, fail, skipped, exact=bool(full))
    else:
        skipped.append("events_grams text (the one- and two-character index): above the default's size only its "
                       "coverage is checked; --full compares its grams with the events")
    return skipped


async def _call_grams(store: Store, fail: Fail, skipped: list[str], full: bool | None, name: str = "calls",
                      what: str = "call-input") -> None:
    """``calls_grams`` rebuilt from ``calls_fts``'s text (itself compared with the calls' arguments,
    verify_calls.py) and compared: by counts by default, pair by pair with ``--full``; above
    :data:`CALL_GRAMS_CHECK_BELOW` entries only with ``--full`` (its coverage is always checked).
    The thinking index's ``reasoning_grams`` (``name`` "reasoning") is checked the same way."""
    try:
        count = int((await store.db.execute_fetchall(f"SELECT COUNT(*) FROM {name}_fts_docsize"))[0][0])
    except sqlite3.DatabaseError:  # reported by the coverage check (verify_calls.py)
        return
    if not full and (full is not None or count >= CALL_GRAMS_CHECK_BELOW):
        skipped.append(f"{name}_grams text (the {what} short-query index): {count} entries are above the default's "
                       f"{CALL_GRAMS_CHECK_BELOW} (--full compares it); its coverage was checked")
        return
    await _grams_text(store, fail, skipped, exact=bool(full), index=f"{name}_grams",
                      source=f"SELECT rowid, ci_grams(text) FROM main.{name}_fts")


async def _event_text_size(store: Store) -> int:
    rows = await store.db.execute_fetchall(
        "SELECT COALESCE(SUM(length(content)), 0) FROM events WHERE event_id <= "
        "(SELECT indexed_through FROM search_watermark WHERE name = 'events')")
    return int(rows[0][0]) if rows else 0


async def _long_events(store: Store) -> int:
    """How many indexed events are longer than what the index holds of each (store format 8)."""
    rows = await store.db.execute_fetchall(
        f"SELECT COUNT(*) FROM events INDEXED BY events_long WHERE {LONG_TEXT} AND event_id <= "
        "(SELECT indexed_through FROM search_watermark WHERE name = 'events')")
    return int(rows[0][0]) if rows else 0


async def _fts_check(store: Store, table: str, rank: int, fail: Fail, skipped: list[str], what: str) -> bool:
    """FTS5's own comparison of ``table``'s index with its text; False when it could not run."""
    db = store.db
    try:
        await db.execute("SAVEPOINT verify_index")
        if table == "events_fts":  # FTS5 reads every events row as a document: text-less and
            # not-yet-indexed events are put in for the check only (rolled back below)
            await db.execute("INSERT INTO events_fts (rowid, content) SELECT event_id, NULL FROM events "
                             "WHERE content IS NULL")
            await db.execute("INSERT INTO events_fts (rowid, content) SELECT event_id, content FROM events "
                             "WHERE content IS NOT NULL AND event_id > (SELECT indexed_through FROM "
                             "search_watermark WHERE name = 'events')")
            # FTS5 compares each entry with the whole of its event's text: a long event's entry holds
            # its first EVENT_INDEX_CHARS characters (format 8), taken out with exactly that text (a
            # wrong entry then fails the check) and made again from the whole text, for the check only
            for statement in _WHOLE_FOR_CHECK:
                await db.execute(statement)
        await db.execute(f"INSERT INTO {table}({table}, rank) VALUES ('integrity-check', ?)", (rank,))
    except sqlite3.DatabaseError as exc:
        text = str(exc).lower()
        if any(m in text for m in MISMATCH):
            fail({"where": table, "code": "search_index_text",
                  "message": f"{what} does not match the text it indexes: a search would find entries for words "
                             "their text does not hold, or miss text it holds"})
            return True
        if not any(m in text for m in NOT_NOW):  # not a lock nor a read-only file: the index itself is damaged
            fail({"where": table, "code": "search_index_damaged",
                  "message": f"{what} cannot be read ({exc}): its FTS5 tables were edited; every search of it "
                             "would fail or mislead"})
            return True
        skipped.append(f"{table} text: FTS5's comparison could not run ({exc}: a read-only store or a writer "
                       "holding the lock); entry sizes were compared instead" if table == "events_fts" else
                       f"{table} index against its stored text ({exc})")
        return False
    finally:
        await db.execute("ROLLBACK TO verify_index")
        await db.execute("RELEASE verify_index")
    return True


_INDEXED_LONG = (f"FROM events INDEXED BY events_long WHERE {LONG_TEXT} AND event_id <= "
                 "(SELECT indexed_through FROM search_watermark WHERE name = 'events')")
_WHOLE_FOR_CHECK = (
    f"INSERT INTO events_fts (events_fts, rowid, content) SELECT 'delete', event_id, {INDEXED_TEXT} {_INDEXED_LONG}",
    f"INSERT INTO events_fts (rowid, content) SELECT event_id, content {_INDEXED_LONG}")


def _varint(blob: bytes) -> int:
    value = 0
    for i, byte in enumerate(blob[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value


async def _event_sizes(store: Store, fail: Fail) -> None:
    """Each events_fts entry's trigram count against its event's length (a trigram per
    position: ``length - 2``). Reads the sizes table and the lengths only, never the text."""
    bad: list[int] = []
    # an entry holds an event's text through its first EVENT_INDEX_CHARS characters (format 8)
    async with store.db.execute(f"SELECT d.id, d.sz, min(length(e.content), {EVENT_INDEX_CHARS}) FROM "
                                "events_fts_docsize d JOIN events e ON e.event_id = d.id") as cur:
        async for event_id, size, length in batched(cur):
            if _varint(bytes(size or b"")) != max(0, int(length or 0) - 2):
                bad.append(int(event_id))
    if bad:
        fail({"where": "events_fts", "event_id": bad[0], "code": "search_index_text",
              "message": f"{counted(len(bad), 'entry')} of the event search index events_fts {'was' if len(bad) == 1 else 'were'} built from text of "
                         f"another length than their event's (first: event id {bad[0]}): a search would find or "
                         "hide events by words they do not hold"})


EVENT_GRAMS = (f"SELECT event_id, ci_grams({INDEXED_TEXT}) FROM events WHERE content IS NOT NULL AND event_id <= "
               "(SELECT indexed_through FROM search_watermark WHERE name = 'events')")


async def _grams_text(store: Store, fail: Fail, skipped: list[str], *, exact: bool, index: str = "events_grams",
                      source: str = EVENT_GRAMS) -> None:
    """Rebuild the short-query index in a temporary table and compare it with the store's:
    ``exact`` (--full), every (gram, event) pair; by default each gram's event count and each
    event's gram count (a fraction of the cost: an entry given another event's grams shows,
    two entries whose whole gram sets were swapped with each other and of equal size do not,
    which ``not_checked`` says)."""
    db = store.db
    try:
        tokenizer = "unicode61 remove_diacritics 0 categories 'L* N* Co M* P* S*'"
        await db.execute("DROP TABLE IF EXISTS temp.verify_grams")
        await db.execute(f"CREATE VIRTUAL TABLE temp.verify_grams USING fts5(grams, content='', detail=none, "
                         f"tokenize=\"{tokenizer}\")")
        await db.execute(f"INSERT INTO temp.verify_grams (rowid, grams) {source}")
    except sqlite3.OperationalError as exc:  # no ci_grams on this connection, or no temp space: not the index's fault
        skipped.append(f"{index} text: could not be rebuilt for comparison ({exc})")
        await _drop_temp(db)
        return
    try:
        for name, table in (("verify_grams_have", f"main.{index}"), ("verify_grams_want", "temp.verify_grams")):
            schema, _, base = table.partition(".")
            await db.execute(f"DROP TABLE IF EXISTS temp.{name}")
            await db.execute(f"CREATE VIRTUAL TABLE temp.{name} USING fts5vocab({schema}, {base}, instance)")
        # exact: every (gram, event) pair; by default per gram its event count and two sums over
        # its events' ids (their sum, and their sum under a multiplicative hash): a gram moved to
        # another event changes them, at a third of the pairs' cost (docs/store-format.md)
        first, cols, source = ("doc", "term, doc", "{t}") if exact else (
            "NULL", "term, COUNT(*), SUM(doc), SUM((doc * 2654435761) % 4294967311)", "{t} GROUP BY term")
        have, want = (f"SELECT {cols} FROM " + source.format(t=f"temp.{n}") for n in ("verify_grams_have",
                                                                                     "verify_grams_want"))
        rows = await db.execute_fetchall(
            f"SELECT COUNT(*), MIN({first}) FROM ({have} EXCEPT {want} UNION ALL SELECT * FROM ({want} EXCEPT {have}))")
        if not exact:
            sizes = await db.execute_fetchall(
                f"SELECT COUNT(*), MIN(w.id) FROM temp.verify_grams_docsize w LEFT JOIN main.{index}_docsize h "
                "ON h.id = w.id WHERE h.sz IS NOT w.sz")
            if sizes and int(sizes[0][0]):
                rows = [(int(rows[0][0]) + int(sizes[0][0]), sizes[0][1])]
            skipped.append(f"{index}: compared by each gram's events (their count and two sums of their ids) and "
                           "each event's gram count (--full compares every gram of every event)")
    except sqlite3.DatabaseError as exc:  # the store's own index cannot be read back: its tables were edited
        fail({"where": index, "code": "search_index_damaged",
              "message": f"the short-query index {index} cannot be read ({exc}): its FTS5 tables were edited; "
                         "every one- or two-character search would fail or mislead"})
        return
    finally:
        await _drop_temp(db)
    if rows and int(rows[0][0]):
        what = (f"{counted(int(rows[0][0]), '(gram, event) pair')} its events' text does not give, or lacks them (first: event id "
                f"{rows[0][1]})" if exact else f"{rows[0][0]:,} grams or events (together) whose entries its events' text does "
                "not give")
        fail({"where": index, "event_id": rows[0][1], "code": "search_index_text",
              "message": f"the short-query index {index} holds {what}: a one- or two-character search would "
                         "find or hide the wrong events"})


async def _drop_temp(db: Any) -> None:
    for name in ("verify_grams_have", "verify_grams_want", "verify_grams"):
        try:
            await db.execute(f"DROP TABLE IF EXISTS temp.{name}")
        except sqlite3.OperationalError:  # a temporary table goes with the connection anyway
            continue


async def _pg_event_text(store: Store, fail: Fail) -> None:
    rows = await store.db.execute_fetchall(
        "SELECT COUNT(*), MIN(s.event_id) FROM events_search s JOIN events e ON e.event_id = s.event_id "
        "WHERE s.lowered IS DISTINCT FROM lower(e.content) OR s.session IS DISTINCT FROM e.session")
    if rows and int(rows[0][0]):
        fail({"where": "events_search", "event_id": rows[0][1], "code": "search_index_text",
              "message": f"{counted(int(rows[0][0]), 'entry')} of the event search index {'holds' if int(rows[0][0]) == 1 else 'hold'} text their event does not "
                         f"(first: event id {rows[0][1]}): a search would find or hide events by words they do not "
                         "hold"})


async def _material_text(store: Store, fail: Fail) -> None:
    """Each material index entry's text equals the searchable prefix of the material's bytes
    (the material search shows that text: an edited entry would show words the material lacks)."""
    key = "material_id" if store.dialect == "postgresql" else "rowid"
    rows = await store.db.execute_fetchall(
        f"SELECT m.material_id, m.session, m.id, m.indexed_bytes, m.encoding, m.media_type, f.text FROM materials m "
        f"JOIN materials_fts f ON f.{key} = m.material_id WHERE m.deleted_at IS NULL ORDER BY m.material_id")
    for material_id, sid, mid, indexed, encoding, media, text in rows:
        prefix = bytearray()
        async with store.db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                    (material_id,)) as cur:
            async for (data,) in cur:
                prefix += bytes(data) if not isinstance(data, str) else data.encode("utf-8", "surrogatepass")
                if len(prefix) >= int(indexed or 0):
                    break
        want = searchable_text(bytes(prefix[:int(indexed or 0)]), str(encoding), media)
        if want is not None and text != want:
            fail({"where": "materials_fts", "session": sid, "id": mid, "code": "search_index_text",
                  "message": f"material {inert(mid)}: its search-index text is not the text of its bytes (a material "
                             "search would show words the material does not hold)"})
