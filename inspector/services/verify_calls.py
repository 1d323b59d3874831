"""verify's checks of the call-input index (store format 5) against the events it is built from.

A search trusts the index: a call indexed under words its arguments do not hold turns up for
them, one left out is hidden from its own command. The index is derived data, rebuilt from the
events' ``args`` by :func:`inspector.domain.call_input.call_input_of_extra`, so verify rebuilds
what it must hold and compares:

- coverage: every event at or below the events' watermark with call input has an entry in each
  table of the index, no entry is for an event without call input (or a deleted one), none is
  above the watermark (the catch-up would add it twice);
- text: each entry's stored text (``calls_fts`` / ``calls_search``) equals the text rebuilt from
  its event, and its session is the event's (PostgreSQL); on SQLite FTS5's integrity-check of
  ``calls_fts`` against that text, and ``calls_grams`` rebuilt from it and compared, like
  ``events_grams`` (inspector/services/verify_index_text.py).

Cost: the arguments of the events that have any are read once per check (a call's input is
a few hundred bytes; the event text, read by the event checks, is most of a store).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from inspector.domain.call_input import call_input_of_extra
from inspector.services.verify_rows import batched
from inspector.store.call_index import MAY_HAVE_INPUT
from inspector.store.connection import Store

Fail = Callable[[dict[str, Any]], None]


def _indexes(store: Store) -> list[tuple[str, str]]:
    """(table, key) of each table holding one entry per indexed call."""
    if store.dialect == "postgresql":
        return [("calls_search", "event_id")]
    return [("calls_fts_docsize", "id"), ("calls_grams_docsize", "id")]


async def expected(store: Store, mark: int) -> dict[int, str]:
    """The call-input text of each event at or below ``mark`` that has any, by event id."""
    want: dict[int, str] = {}
    async with store.db.execute(f"SELECT event_id, extra FROM events WHERE event_id <= ? AND {MAY_HAVE_INPUT}",
                                (mark,)) as cur:
        async for event_id, extra in batched(cur):
            text = call_input_of_extra(extra)
            if text is not None:
                want[int(event_id)] = text
    return want


async def check(store: Store, fail: Fail, mark: int) -> int:
    """Coverage and text in one read of the calls' arguments (each parsed once); returns how many
    calls the index should hold (verify_index_text.py bounds its gram rebuild by it)."""
    want = await expected(store, mark)
    for table, key in _indexes(store):
        name = table.removesuffix("_docsize")
        try:
            have = {int(r[0]) for r in await store.db.execute_fetchall(f"SELECT {key} FROM {table}")}
        except sqlite3.DatabaseError as exc:
            fail({"where": name, "code": "search_index_damaged",
                  "message": f"the call-input search index {name} cannot be read ({exc}): its FTS5 tables were edited"})
            continue
        above = {i for i in have if i > mark}
        if above:
            fail({"where": "search_watermark", "code": "watermark_differs",
                  "message": f"the search watermark says events up to id {mark} are indexed, but the call input of "
                             f"{len(above)} event(s) above it is in {name} already (the next catch-up would index "
                             "it twice)"})
        missing, extra = want.keys() - have, have - want.keys()  # an entry above the watermark is for no indexed call
        if missing or extra:
            first = min(missing | extra)
            fail({"where": name, "event_id": first, "code": "search_index_coverage",
                  "message": f"the call-input search index {name} does not match the events' arguments: "
                             f"{len(missing)} call(s) missing from it, {len(extra)} entry(ies) for no call (first: "
                             f"event id {first}; a search would miss or misplace what the agent ran)"})
    await _check_text(store, fail, want)
    return len(want)


async def _check_text(store: Store, fail: Fail, want: dict[int, str]) -> None:
    """Each entry's stored text (and, on PostgreSQL, session) against its call's arguments."""
    pg = store.dialect == "postgresql"
    sql = ("SELECT c.event_id, c.text, c.session IS NOT DISTINCT FROM e.session FROM calls_search c LEFT JOIN events e "
           "ON e.event_id = c.event_id" if pg else "SELECT rowid, text, 1 FROM calls_fts")
    bad: list[int] = []
    try:
        async with store.db.execute(sql) as cur:
            async for event_id, text, same_session in batched(cur):
                wanted = want.get(int(event_id))
                if wanted is not None and (text != wanted or not same_session):  # no entry wanted: coverage says so
                    bad.append(int(event_id))
    except sqlite3.DatabaseError as exc:
        fail({"where": "calls_search" if pg else "calls_fts", "code": "search_index_damaged",
              "message": f"the call-input search index cannot be read ({exc}): its tables were edited"})
        return
    if bad:
        fail({"where": "calls_search" if pg else "calls_fts", "event_id": min(bad), "code": "search_index_text",
              "message": f"{len(bad)} entry(ies) of the call-input search index hold text their call's arguments do "
                         f"not (first: event id {min(bad)}): a search would find or hide calls by words they do "
                         "not hold"})
