"""verify's checks of the call-input index (store format 5) and the thinking index (format 6)
against the events they are built from: one check, run once per :class:`Checked` index.

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

The thinking index (``reasoning_fts`` / ``reasoning_grams`` / ``reasoning_search``, its text
:func:`inspector.domain.thinking_text.thinking_of_extra`) is checked exactly so: :data:`THINKING`.

Cost: the arguments (thinking) of the events that have any are read once per check (a call's input
is a few hundred bytes; thinking is like event text, which the event checks read too).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.domain.plurals import counted
from inspector.services.verify_rows import batched
from inspector.store.call_index import CALLS
from inspector.store.connection import Store
from inspector.store.reasoning_index import REASONING
from inspector.store.side_index import SideIndex

Fail = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Checked:
    """An index of text kept in ``events.extra`` and the words its problems are said in."""

    index: SideIndex
    what: str  # "call-input", "thinking"
    item: str  # what one entry is for: "call", "thinking text"
    source: str  # what its text is rebuilt from
    harm: str  # what a wrong index does to a search


CALL_INPUT = Checked(CALLS, "call-input", "call", "the events' arguments", "what the agent ran")
THINKING = Checked(REASONING, "thinking", "thinking text", "the events' reasoning_content", "what the model thought")
CHECKED = (CALL_INPUT, THINKING)


def _indexes(store: Store, checked: Checked) -> list[tuple[str, str]]:
    """(table, key) of each table holding one entry per indexed event."""
    if store.dialect == "postgresql":
        return [(checked.index.pg_table, "event_id")]
    return [(f"{checked.index.fts}_docsize", "id"), (f"{checked.index.grams}_docsize", "id")]


async def expected(store: Store, mark: int, checked: Checked = CALL_INPUT) -> dict[int, str]:
    """The text of each event at or below ``mark`` that has any, by event id: what the index holds of
    it (SQLite, format 9: its first EVENT_INDEX_CHARS characters; PostgreSQL: the whole text)."""
    want: dict[int, str] = {}
    text_of = checked.index.text_of_extra if store.dialect == "postgresql" else checked.index.indexed_text
    async with store.db.execute(f"SELECT event_id, extra FROM events WHERE event_id <= ? AND {checked.index.may_have}",
                                (mark,)) as cur:
        async for event_id, extra in batched(cur):
            text = text_of(extra)
            if text is not None:
                want[int(event_id)] = text
    return want


async def check(store: Store, fail: Fail, mark: int, checked: Checked = CALL_INPUT) -> int:
    """Coverage and text in one read of the events' extra (each parsed once); returns how many
    events the index should hold (verify_index_text.py bounds its gram rebuild by it)."""
    want = await expected(store, mark, checked)
    what, item = checked.what, checked.item
    for table, key in _indexes(store, checked):
        name = table.removesuffix("_docsize")
        try:
            have = {int(r[0]) for r in await store.db.execute_fetchall(f"SELECT {key} FROM {table}")}
        except sqlite3.DatabaseError as exc:
            fail({"where": name, "code": "search_index_damaged",
                  "message": f"the {what} search index {name} cannot be read ({exc}): its FTS5 tables were edited"})
            continue
        above = {i for i in have if i > mark}
        if above:
            fail({"where": "search_watermark", "code": "watermark_differs",
                  "message": f"the search watermark says events up to id {mark} are indexed, but the {what} text "
                             f"of {counted(len(above), 'event')} above it is in {name} already (the next catch-up would index "
                             "it twice)"})
        missing, extra = want.keys() - have, have - want.keys()  # an entry above the watermark is for no indexed one
        if missing or extra:
            first = min(missing | extra)
            fail({"where": name, "event_id": first, "code": "search_index_coverage",
                  "message": f"the {what} search index {name} does not match {checked.source}: "
                             f"{counted(len(missing), item)} missing from it, {counted(len(extra), 'entry')} for no {item} (first: "
                             f"event id {first}; a search would miss or misplace {checked.harm})"})
    await _check_text(store, fail, want, checked)
    return len(want)


async def _check_text(store: Store, fail: Fail, want: dict[int, str], checked: Checked) -> None:
    """Each entry's stored text (and, on PostgreSQL, session) against its event's."""
    pg = store.dialect == "postgresql"
    table = checked.index.pg_table if pg else checked.index.fts
    sql = (f"SELECT c.event_id, c.text, c.session IS NOT DISTINCT FROM e.session FROM {table} c LEFT JOIN events e "
           "ON e.event_id = c.event_id" if pg else f"SELECT rowid, text, 1 FROM {table}")
    bad: list[int] = []
    try:
        async with store.db.execute(sql) as cur:
            async for event_id, text, same_session in batched(cur):
                wanted = want.get(int(event_id))
                if wanted is not None and (text != wanted or not same_session):  # no entry wanted: coverage says so
                    bad.append(int(event_id))
    except sqlite3.DatabaseError as exc:
        fail({"where": table, "code": "search_index_damaged",
              "message": f"the {checked.what} search index cannot be read ({exc}): its tables were edited"})
        return
    if bad:
        fail({"where": table, "event_id": min(bad), "code": "search_index_text",
              "message": f"{counted(len(bad), 'entry')} of the {checked.what} search index {'holds' if len(bad) == 1 else 'hold'} text {checked.source} do "
                         f"not (first: event id {min(bad)}): a search would find or hide events by words they do "
                         "not hold"})
