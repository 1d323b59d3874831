"""Which fields of an event are the importer's bookkeeping, not what the event said.

A deletion by value looks for the targets' values in other records; the bookkeeping fields are
never taken as values (they are shared by every event of a session) and never searched as
said text.
"""

from __future__ import annotations

from typing import Any

# What an importer writes beside an event about the event — where its line sits in the original,
# the model, message and item ids, the record's type, flags and counts — and never what was said.
# Many events of a session share these ("original:x.jsonl", "claude-opus-4-5-20251101",
# "file-history-snapshot"): taken as values of a target, they made every event of a real Claude
# Code session a "copy" of one deleted message, and deleting it removed all 207.
BOOKKEEPING_FIELDS = frozenset({
    "origin", "model", "message_id", "item_id", "record_type", "subtype", "stub", "status", "at_inferred",
    "tokens", "is_error", "tools_present", "compact_summary", "compaction", "reasoning_item", "problem",
})


def said_fields(extra: Any) -> Any:
    """An event's ``extra`` without the importer's bookkeeping: what the event carried (a call's
    arguments, reasoning, an error's text, anything not known to be bookkeeping) is kept."""
    return {k: v for k, v in extra.items() if k not in BOOKKEEPING_FIELDS} if isinstance(extra, dict) else extra
