"""The call-input search index: what a tool call's arguments hold, searchable like event text.

A call's input (a Bash command, an Edit's path and strings, a URL) is kept in the event's
``args`` (``events.extra``), not in its text, so the event indexes never saw it. Its searchable
text is :func:`inspector.domain.call_input.call_input_text` (argument values, one per line); it
is indexed here, per event (``rowid`` / ``event_id`` = the event's id), beside the event indexes
and under the *same* watermark: the catch-up (inspector/store/search_index.py ``index_next``)
indexes an event's text and its call input in one chunk, a deletion takes both out, and every
event at or below ``search_watermark('events')`` with call input is in the call index.

SQLite: ``calls_fts`` (trigram FTS5 holding the text, so a hit shows it and verify compares it
with the text rebuilt from ``events``) and ``calls_grams`` (contentless gram index as
``events_grams``, for one- and two-character queries). PostgreSQL: ``calls_search(event_id,
session, text)`` under a ``pg_trgm`` index on ``lower(text)``; short queries scan the session's
rows, as its event search does. SQLite computes the text in SQL with ``ci_call_text(extra)``
(registered on the writer, like ``ci_grams``); PostgreSQL in Python, the same function. The
machinery is shared with the thinking-text index (store format 6): inspector/store/side_index.py.
"""

from __future__ import annotations

from inspector.domain.call_input import call_input_of_extra
from inspector.store.side_index import SideIndex, folded

# Events that may hold call input: a cheap test of the stored JSON before any parse.
MAY_HAVE_INPUT = "instr(extra, '\"args\"') > 0"
CALLS = SideIndex("calls", "ci_call_text", MAY_HAVE_INPUT, call_input_of_extra)
FUNCTION = CALLS.function
TABLES = CALLS.tables  # SQLite's (PostgreSQL: calls_search)

register = CALLS.register
register_async = CALLS.register_async
index_range = CALLS.index_range
unindex = CALLS.unindex
fill_to_watermark = CALLS.fill_to_watermark
containing = CALLS.containing
short_candidates = CALLS.short_candidates
short_exact = CALLS.short_exact
short_bounded = CALLS.short_bounded

__all__ = ["CALLS", "FUNCTION", "MAY_HAVE_INPUT", "TABLES", "containing", "fill_to_watermark", "folded",
           "index_range", "register", "register_async", "short_bounded", "short_candidates", "short_exact", "unindex"]
