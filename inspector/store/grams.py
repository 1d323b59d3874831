"""The short-query index's documents: an event's distinct characters and character pairs.

Trigram FTS5 (SQLite 3.40) answers nothing for queries under three characters, and a
bounded scan over a million events is neither fast nor complete. So ``events_grams``
indexes, per event, every distinct character and every distinct pair of adjacent
characters as a token (space-separated; the table's tokenizer treats letters, digits,
marks, punctuation and symbols as token characters and folds case like the trigram
index). A one- or two-character query is one token lookup. A pair that contains
whitespace splits into its single characters, which are indexed anyway; such queries
are checked against the text itself (see inspector/services/search.py).
"""

from __future__ import annotations

import sqlite3
from operator import add

from inspector.store import call_index, reasoning_index

FUNCTION = "ci_grams"


def grams(text: str | None) -> str | None:
    """The gram document for ``text``: distinct characters and adjacent pairs, space-separated."""
    if text is None:
        return None
    # One 2-character string per position is the cost (the set keeps each once; the catch-up of a
    # 4 MB transcript makes a million): ``operator.add`` makes it a third faster than
    # ``str.__add__``'s slot wrapper. A text beyond ASCII is listed first, so each character is
    # made once, not again for every pair it starts and ends (ASCII characters are shared objects).
    # The set is main's to the string (docs/benchmarks.md, "Session 19: index-speed").
    chars = text if text.isascii() else list(text)
    tokens = set(chars)
    tokens.update(map(add, chars, chars[1:]))
    return " ".join(tokens)


def register(con: sqlite3.Connection) -> None:
    """Make ``ci_grams(text)`` available to SQL on this connection (catch-up, migrations, deletions)."""
    con.create_function(FUNCTION, 1, grams, deterministic=True)
    call_index.register(con)  # format 5's migration and the catch-up name ci_call_text
    reasoning_index.REASONING.register(con)  # format 6's: ci_thinking_text
