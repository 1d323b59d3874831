"""Search over event text, tool calls' input, thinking and materials, driven by the full-text indexes.

A call's input (a Bash command, an Edit's path and strings: what the agent *ran*) and an event's
thinking (``reasoning_content``: what the model *considered*, store format 6) have indexes of
their own beside the event text's (inspector/store/call_index.py, reasoning_index.py); all are
asked, and their hits listed in event order (an event's text, then its call input, then its
thinking), each saying where it matched (``Hit.matched``), so its offsets and snippets are read
in the right text.

Queries of three characters or more use the trigram index (``events_fts``); shorter ones
use the gram index (``events_grams``: every event's distinct characters and character
pairs, see inspector/store/grams.py). Either way the plan starts at the index, joins
each matching row to its event, walks them in rowid (import) order and stops at the
limit, so a query costs what its first hits cost, not what the session's size costs.
The index queries are store functions (inspector/store/search_index.py), one per backend:
on PostgreSQL a ``pg_trgm`` index answers three characters or more and an exact scan of
the session's events the shorter ones, with the same hits.

The indexes are built after an import, not in it (inspector/store/catch_up.py): a search
first indexes what was imported since the last one, then asks the indexes; events above the
watermark that remain (a store that cannot be written, an import committed meanwhile) are
checked against their text, after the indexed hits, so nothing is silently left out.

``SearchResult.not_searched`` names text a search did not look in: ``{"materials_in_part": N}``, N
materials whose text past the index's cap (4 MiB) was not read (``note`` says it in words);
``{"thinking_events": N}`` was said by stores before format 6, whose thinking had no index. Empty,
the search looked everywhere — kept in ``--json`` so a script can rely on it.

Each hit carries its occurrence count and character offsets (found in the event's own
text, case-insensitively like the index). The search runs on a reader of its own; a
cancelled search interrupts its query, so typing never queues behind an old one.
"""

from __future__ import annotations

import asyncio
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

import aiosqlite

from inspector.domain import thinking_text
from inspector.domain.call_input import call_input_of_extra, matched_label
from inspector.domain.errors import BadInput, StoreBusy
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import quoted
from inspector.services import search_long
from inspector.store import call_index, material_index, reasoning_index, search_index
from inspector.store.catch_up import CatchUpProgress, catch_up
from inspector.store.connection import Store

# where a hit matched (else "call input of TOOL")
EVENT_TEXT, MATERIAL_TEXT, THINKING = "event text", "material text", thinking_text.LABEL
SNIPPET_CHARS = 48
MAX_OFFSETS = 100  # offsets listed per hit; the count covers them all
BATCH = 256  # index rows fetched per trip when hits are checked against the text
MAX_CHECKED = 20_000  # gram candidates checked for a query that contains whitespace


@dataclass(frozen=True, slots=True)
class Hit:
    where: str  # "event" or "material"
    ref: str  # evt:N or the material id
    snippet: str
    occurrences: int = 0
    offsets: tuple[int, ...] = ()
    snippets: tuple[str, ...] = ()  # the text around each listed offset, so ] / [ show that occurrence
    # which text the offsets and snippets are in: "event text", "call input of TOOL" (what the agent
    # ran: inspector/domain/call_input.py), "thinking" (inspector/domain/thinking_text.py), "material text"
    matched: str = "event text"

    def snippet_for(self, occurrence: int) -> str:
        return self.snippets[occurrence] if 0 <= occurrence < len(self.snippets) else self.snippet


@dataclass(slots=True)
class SearchResult:
    query: str
    method: str  # "fts" (trigram index), "grams" (short-query index) or "none"
    hits: list[Hit] = field(default_factory=list)
    complete: bool = True
    note: str = ""
    more: bool = False  # more events or materials match than the limit let it list
    limit: int | None = None  # the most hits listed, events and materials together
    # text the search did not look in, by kind: {"materials_in_part": N} (N materials past the index's
    # cap), {"thinking_events": N} (N events' thinking text, before store format 6)
    not_searched: dict[str, int] = field(default_factory=dict)

    def not_searched_sentence(self) -> str:
        """What the search did not look in, as the CLI and the app say it ("" when it looked everywhere)."""
        n = self.not_searched.get("thinking_events", 0)
        return f"thinking text in {n:,} event{'s' if n != 1 else ''} was not searched" if n else ""

    def counts(self) -> dict[str, int]:
        """What was listed, by kind: the limit bounds the total (it bounded events and materials
        each, so ``--limit 3`` listed five and said "5+ hits")."""
        materials = sum(1 for h in self.hits if h.where == "material")
        return {"shown": len(self.hits), "events": len(self.hits) - materials, "materials": materials}

    def counted(self, word: str = "hit") -> str:
        """"3 hits (2 events, 1 material; more match than the limit of 3)": what the count counted."""
        c = self.counts()
        kinds = (f"{c['events']} event{'s' if c['events'] != 1 else ''}, "
                 f"{c['materials']} material{'s' if c['materials'] != 1 else ''}")
        beyond = f"; more match than the limit of {self.limit:,}" if self.more and self.limit else ""
        return f"{c['shown']} {word}{'s' if c['shown'] != 1 else ''} ({kinds}{beyond})"

    def as_dict(self) -> dict[str, Any]:
        return {"query": self.query, "method": self.method, "complete": self.complete, "note": self.note,
                "more": self.more, "limit": self.limit, "counts": self.counts(), "not_searched": dict(self.not_searched),
                "hits": [{**asdict(h), "offsets": list(h.offsets), "snippets": list(h.snippets)} for h in self.hits]}


def _pattern(query: str) -> re.Pattern[str]:
    return re.compile(re.escape(query), re.IGNORECASE)


def _occurrences(pattern: re.Pattern[str], text: str) -> tuple[int, tuple[int, ...]]:
    return search_long.occurrences(pattern, text, MAX_OFFSETS)  # a long ASCII text: its lower-cased copy


def _snippet_at(text: str, at: int) -> str:
    start = max(0, at - SNIPPET_CHARS // 2)
    # Line breaks kept: ``--json`` gives the text exactly; the app and plain output mark them ``␊``
    # (``terminal_safe.line_safe``) — turned into spaces, "first line␊second" read as one line.
    piece = text[start : start + SNIPPET_CHARS]
    return ("…" if start else "") + piece + ("…" if start + SNIPPET_CHARS < len(text) else "")


def _hit(where: str, ref: str, text: str, pattern: re.Pattern[str], matched: str) -> Hit | None:
    count, offsets = _occurrences(pattern, text)
    if not count:
        return None
    return Hit(where, ref, _snippet_at(text, offsets[0]), count, offsets,
               tuple(_snippet_at(text, at) for at in offsets), matched)


def _token_runs(query: str) -> list[str]:
    """The query's runs of gram characters (what the tokenizer would make of it)."""
    runs, run = [], ""
    for c in query:
        if unicodedata.category(c)[0] in "LNMPS" or unicodedata.category(c) == "Co":
            run += c
        else:
            runs.append(run)
            run = ""
    return [r for r in [*runs, run] if r]


async def index_new_events(store: Store, indexing: CatchUpProgress | None = None) -> int:
    """Index the events imported since the last search (the app runs it after its first paint,
    so a search seldom waits); how many it indexed. Not an act: no ledger entry.

    Another program's write holding the store past the wait leaves it for the next search (0):
    the app opened beside one said "Cannot do that (store_busy) … nothing was written" 10 s
    later, to a reviewer who had done nothing (store-fault-six)."""
    try:
        return await catch_up(store, indexing)
    except StoreBusy:
        return 0


async def search(store: Store, session: str, query: str, *, limit: int = 50,
                 indexing: CatchUpProgress | None = None) -> SearchResult:
    """Events and materials of ``session`` containing ``query`` (case-insensitive): the first ``limit``
    hits in all, events first (in event order), then materials in the room left and at least
    ``limit // 5`` of it when they match.

    Events an import added since the last search are indexed first (``indexing`` hears how
    far that has got), so the answer is what the indexes give for the whole store."""
    if not query.strip():  # nothing to find: spaces alone would list only materials (no event index holds them)
        return SearchResult(query, "none")
    if "\0" in query:  # SQLite's index query ends at a NUL ("unterminated string"): it was said as a damaged store
        raise BadInput(f"the search query {quoted(query)} holds a NUL character (U+0000), which the search indexes "
                       "cannot look for; nothing was searched", code="query_not_searchable")
    try:
        await catch_up(store, indexing)
    except StoreBusy:
        # Another program's write held the store past the wait: the search is a read, so it goes
        # on, checking what the indexes do not reach against its text (_unindexed, as on a
        # read-only store). It was refused "store_busy … nothing was written" (store-fault-six).
        pass
    async with store.snapshot() as db:
        try:
            return await _search(db, session, query, limit)
        except asyncio.CancelledError:
            await db.interrupt()  # runs now, on this thread: the query stops instead of finishing for nobody
            raise


async def _search(db: aiosqlite.Connection, session: str, query: str, limit: int) -> SearchResult:
    pattern = _pattern(query)
    short = len(query) < 3
    result = SearchResult(query, "grams" if short else "fts", limit=limit)
    if short:
        settled = await _events_by_grams(db, session, query, pattern, limit, result)
        settled = settled or not search_index.short_queries_indexed(db)  # PostgreSQL's scan read every event
    else:
        settled = await _events_by_trigrams(db, session, query, pattern, limit, result)
    if not settled:
        await _unindexed(db, session, pattern, limit, result)
    await _materials(db, session, query, pattern, limit, result, short)
    return result


MATERIAL_SHARE = 5  # materials keep limit // 5 of the hits listed when they match (a fifth of the app's 50)

# ((event id, 0 text / 1 call input / 2 thinking), hit): merged in event order
Found = list[tuple[tuple[int, int], Hit]]
TEXT, CALL, THOUGHT = 0, 1, 2  # which of an event's texts a hit is in (their order within an event)
SIDE_KINDS = ((CALL, call_index.CALLS), (THOUGHT, reasoning_index.REASONING))  # indexed beside the text


def _label(which: int, tool: str | None) -> str:
    return EVENT_TEXT if which == TEXT else matched_label(tool) if which == CALL else THINKING


def _event_hit(seq: int, text: str, pattern: re.Pattern[str], tool: str | None, which: int, *,
               found_by_index: bool) -> Hit | None:
    """The hit on an event's text, its call input or its thinking; an index hit Python's case fold
    does not find again (the index folds as SQLite does) still counts, shown from the text's start."""
    matched = _label(which, tool)
    hit = _hit("event", f"evt:{seq}", text, pattern, matched)
    if hit is None and found_by_index:
        hit = Hit("event", f"evt:{seq}", _snippet_at(text, 0), matched=matched)
    return hit


def _merge(result: SearchResult, limit: int, *sources: Found) -> bool:
    """List the first ``limit`` hits of the event-text, call-input and thinking sources in event
    order (an event's text, then its call input, then its thinking); True when more were found
    than listed."""
    merged = sorted((item for source in sources for item in source), key=lambda item: item[0])
    result.hits.extend(hit for _key, hit in merged[:limit])
    result.more = result.more or len(merged) > limit
    return len(merged) > limit


async def _events_by_trigrams(db: aiosqlite.Connection, session: str, query: str, pattern: re.Pattern[str],
                              limit: int, result: SearchResult) -> bool:
    """The indexed events' hits, on their text, call input and thinking; True when the limit was
    reached (nothing later can be listed). Each source gives at most ``limit + 1`` rows: the
    first ``limit`` of their union in event order are among them."""
    texts: Found = []
    for event_id, seq, text in await search_index.events_containing(db, session, query, limit + 1):
        hit = _event_hit(seq, text, pattern, None, TEXT, found_by_index=True)
        if hit is not None:
            texts.append(((event_id, TEXT), hit))
    sides: list[Found] = []
    for which, side in SIDE_KINDS:
        found: Found = []
        for event_id, seq, tool, text in await side.whole_texts(db, await side.containing(db, session, query, limit + 1)):
            hit = _event_hit(seq, text, pattern, tool, which, found_by_index=True)
            if hit is not None:
                found.append(((event_id, which), hit))
        sides.append(found)
    return _merge(result, limit, texts, *sides, await _past_the_index(db, session, pattern, [texts, *sides], result))


async def _events_by_grams(db: aiosqlite.Connection, session: str, query: str, pattern: re.Pattern[str],
                           limit: int, result: SearchResult) -> bool:
    """The indexed events' hits on their text, call input and thinking; True when the search ends here
    (the limit reached, or a query that cannot be looked up), False when later events may still
    be listed."""
    # Characters the gram tokenizer keeps (letters, digits, marks, punctuation, symbols,
    # private use) make the lookup exact; whitespace or control characters split the
    # query into grams that only narrow the candidates, checked against the text.
    exact = all(unicodedata.category(c)[0] in "LNMPS" or unicodedata.category(c) == "Co" for c in query)
    tokens = [g for g in _token_runs(query) if g]
    if not tokens:
        result.complete, result.note = False, "a query of only spaces or control characters is not indexed"
        return True
    tokens_exact = exact

    async def texts(after: int, size: int) -> list[tuple[int, int, str | None, str]]:
        return [(r, seq, None, text) for r, seq, text in
                await search_index.short_candidates(db, session, query, tokens, after, size)]

    def side_fetch(side: Any) -> Any:
        async def fetch(after: int, size: int) -> list[tuple[int, int, str | None, str]]:
            return await side.whole_texts(db, await side.short_candidates(db, session, query, tokens, after, size))
        return fetch

    found: list[Found] = []
    ended = False
    sources = [(TEXT, texts, search_index.short_query_exact(db, tokens_exact), not tokens_exact)]
    sources += [(which, side_fetch(side), side.short_exact(db, tokens_exact), side.short_bounded(db, tokens_exact))
                for which, side in SIDE_KINDS]
    for which, fetch, trusted, bounded in sources:
        hits, stop = await _short_hits(fetch, pattern, limit, trusted, bounded, which, result)
        found.append(hits)
        ended = ended or stop
    found.append(await _past_the_index(db, session, pattern, found, result))
    return _merge(result, limit, *found) or ended


async def _past_the_index(db: aiosqlite.Connection, session: str, pattern: re.Pattern[str], indexed: list[Found],
                          result: SearchResult) -> Found:
    """Hits in the text (format 8), call input and thinking (format 9) of long events past what the
    indexes hold (services/search_long.py), other than those the indexes found already (``indexed``:
    the text's, call input's and thinking's hits); ``result`` says what was not read."""
    past = await search_long.past_the_index(db, session, pattern, {key[0] for key, _hit in indexed[0]})
    rows = [(event_id, seq, None, text, TEXT) for event_id, seq, text in past.found]
    notes = [search_long.unread_note(past.unread)] if past.unread else []
    left, unread = past.left, 0
    for (which, side), hits in zip(SIDE_KINDS, indexed[1:], strict=True):
        side_past = await search_long.past_the_side_index(db, side, session, pattern, {k[0] for k, _h in hits}, left)
        rows += [(event_id, seq, tool, text, which) for event_id, seq, tool, text in side_past.found]
        left, unread = side_past.left, unread + side_past.unread
    notes += [search_long.side_unread_note(unread)] if unread else []
    if notes:
        result.complete, result.note = False, "; ".join(notes)
    found: Found = []
    for event_id, seq, tool, text, which in rows:
        hit = _event_hit(seq, text, pattern, tool, which, found_by_index=False)
        if hit is not None:
            found.append(((event_id, which), hit))
    return found


async def _short_hits(fetch: Any, pattern: re.Pattern[str], limit: int, exact: bool, bounded: bool, which: int,
                      result: SearchResult) -> tuple[Found, bool]:
    """Up to ``limit + 1`` hits of one short-query source; True when it ends the search (more
    than the limit, or the whitespace query's bound reached: ``result`` says so). ``exact``: the
    source returns only true matches; else each candidate is checked against its text, and
    ``bounded`` stops after :data:`MAX_CHECKED` candidates (SQLite's grams of a query with
    whitespace only narrow the candidates)."""
    found: Found = []
    after, checked = 0, 0
    while True:
        rows = await fetch(after, (limit + 1) if exact else BATCH)
        for rowid, seq, tool, text in rows:
            after, checked = rowid, checked + 1
            hit = _event_hit(seq, text, pattern, tool, which, found_by_index=exact)
            if hit is None:
                continue
            found.append(((rowid, which), hit))
            if len(found) > limit:
                return found, True
        if exact or len(rows) < BATCH:
            return found, False
        if bounded and checked >= MAX_CHECKED:
            result.complete = False
            result.note = (f"a short query with whitespace is checked in the first {MAX_CHECKED:,} events holding "
                           "its characters; type 3 or more characters to search everything")
            return found, True


async def _unindexed(db: aiosqlite.Connection, session: str, pattern: re.Pattern[str], limit: int,
                     result: SearchResult) -> None:
    """Hits among the session's events the indexes do not reach yet (a read-only store cannot
    be caught up; another process may have imported since this search caught up), checked
    against their text, call input and thinking: a search never silently misses an event. They
    follow every indexed event in import order, so they come after the indexed hits."""
    after: int | None = None  # the watermark, read in the same query
    while True:
        rows = await search_index.unindexed_events(db, session, after, BATCH)
        for event_id, seq, content, tool, extra in rows:
            after = event_id
            hits = [_event_hit(seq, content, pattern, None, TEXT, found_by_index=False)
                    if content is not None else None]
            for which, side_text in ((CALL, call_input_of_extra(extra)), (THOUGHT, thinking_text.thinking_of_extra(extra))):
                if side_text is not None:
                    hits.append(_event_hit(seq, side_text, pattern, tool, which, found_by_index=False))
            for hit in hits:
                if hit is None:
                    continue
                if len(result.hits) == limit:
                    result.more = True
                    return
                result.hits.append(hit)
        if len(rows) < BATCH:
            return


async def _materials(db: aiosqlite.Connection, session: str, query: str, pattern: re.Pattern[str], limit: int,
                     result: SearchResult, short: bool) -> None:
    """Materials fill what the events leave of the limit, and keep a fifth of it whatever the
    events took: events first, materials after filling only the room left, hid every stored
    original (the Raw evidence channel's own items) behind a common word's first 50 events."""
    room = max(limit - len(result.hits), limit // MATERIAL_SHARE)
    rows = await search_index.materials_containing(db, session, query, room + 1, short)
    if len(rows) > room:
        result.more = True
        rows = rows[:room]
    found: list[Hit] = []
    for mid, text in rows:
        hit = _hit("material", mid, text, pattern, MATERIAL_TEXT)
        found.append(hit or Hit("material", mid, _snippet_at(text, 0), matched=MATERIAL_TEXT))
    # materials the index does not reach yet (a store that cannot be written, an import since
    # the catch-up), checked against their text: usually none, one lookup past the watermark
    for mid, text in await material_index.unindexed(db, session):
        hit = _hit("material", mid, text, pattern, MATERIAL_TEXT)
        if hit is not None and len(found) < room:
            found.append(hit)
        elif hit is not None:
            result.more = True
    over = len(result.hits) + len(found) - limit
    if over > 0:  # the materials' share is taken from the last events listed
        del result.hits[-over:]
        result.more = True
    result.hits.extend(found)
    partial = await search_index.partly_indexed_materials(db, session)
    if partial:
        result.complete = False
        # in --json too: a script reads "not_searched": {} as "it looked everywhere" (newuser-18)
        result.not_searched["materials_in_part"] = partial
        named = await search_index.partly_indexed_ids(db, session, 3)  # which ones (newuser-18: "1 material" named none)
        which = ", ".join(named) + (f" and {partial - len(named):,} more" if partial > len(named) else "")
        result.note = "; ".join(filter(None, (result.note, f"{counted(partial, 'material')} {'is' if partial == 1 else 'are'} "
                                                           f"indexed only in {'its' if partial == 1 else 'their'} first 4 MiB ({which})")))
