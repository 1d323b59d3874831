"""The thinking-text search index (store format 6): what a model thought, searchable like its words.

A Claude Code ``thinking`` block (and any provider's visible reasoning) is kept as
``reasoning_content`` in ``events.extra``, not in ``events.content``, so the event indexes never
saw it and a word only in it was a search's silent "no hits". Its searchable text is
:func:`inspector.domain.thinking_text.thinking_of_extra` (the reasoning as stored, nothing
dropped); it is indexed exactly as a call's input is (inspector/store/side_index.py): SQLite's
``reasoning_fts`` (trigram, ``rowid`` = event id) and ``reasoning_grams`` (one- and two-character
queries), PostgreSQL's ``reasoning_search`` under ``pg_trgm``, filled by the catch-up under the
events' watermark, emptied of an event by its deletion, checked by ``verify``.
"""

from __future__ import annotations

from inspector.domain.thinking_text import thinking_of_extra
from inspector.store.side_index import SideIndex

# Events that may hold thinking text: a cheap test of the stored JSON before any parse.
MAY_HAVE_THINKING = "instr(extra, '\"reasoning_content\"') > 0"
REASONING = SideIndex("reasoning", "ci_thinking_text", MAY_HAVE_THINKING, thinking_of_extra)
TABLES = REASONING.tables  # SQLite's (PostgreSQL: reasoning_search)
