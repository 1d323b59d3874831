"""The searchable text of an event's thinking: its ``reasoning_content``, as the provider returned it.

Thinking (a Claude Code ``thinking`` block, DeepSeek's ``reasoning_content``, Gemini's thoughts)
is a provider continuation item: stored as returned, never rewritten. A reviewer still looks for
the moment a model *considered* something ("maybe drop the table"), and those words are only
there. This is the one definition of the text the thinking index holds (store format 6), used
by the index's writer, by the search (hits are found and shown in it, their offsets in it) and by
``verify`` (which rebuilds it and compares), so all three agree byte for byte on both backends.
An empty reasoning has nothing to search and is not indexed.
"""

from __future__ import annotations

import json

LABEL = "thinking"  # where a hit matched, as the CLI, ``--json`` and the app say it


def thinking_of_extra(extra: str | None) -> str | None:
    """The thinking text of an event row's ``extra`` column (canonical JSON of the sif fields
    without a column of their own, ``reasoning_content`` among them); None when it holds none,
    an empty one, or is not JSON (verify reports such a row; the index simply leaves it out)."""
    if not extra or '"reasoning_content"' not in extra:  # most events: no JSON parse
        return None
    try:
        fields = json.loads(extra)
    except ValueError:
        return None
    text = fields.get("reasoning_content") if isinstance(fields, dict) else None
    return text if isinstance(text, str) and text else None
