"""The search-index entries a deletion removes with the rows it lists, named in its listing.

``deletion`` says every copy it will remove. An event's text is in ``events_fts`` (listed since
the first round), but its call input (a tool call's arguments) is in the call-input index and
its thinking text in the thinking index, and a material's searchable prefix in
``materials_fts``: each is emptied of the row by the deletion (store/side_index.py ``unindex``,
the material's tombstone), so each is named too — before, a tool call or a thinking block
holding the secret was listed as the event alone, its index entry unnamed.
"""

from __future__ import annotations

import aiosqlite

from inspector.domain.call_input import call_input_of_extra
from inspector.domain.deletion import Copy
from inspector.domain.thinking_text import thinking_of_extra


async def index_entries(db: aiosqlite.Connection, session: str, copies: list[Copy]) -> list[Copy]:
    """The index entries of the events and materials in ``copies`` not listed yet."""
    seen = {(c.where, c.id) for c in copies}
    out: list[Copy] = []

    def add(where: str, ident: str, why: str) -> None:
        if (where, ident) not in seen:
            seen.add((where, ident))
            out.append(Copy(where, ident, why))

    events = [c.id for c in copies if c.where == "events" and c.id.startswith("evt:") and c.id[4:].isdigit()]
    for ident in events:
        rows = await db.execute_fetchall("SELECT extra FROM events WHERE session = ? AND seq = ?",
                                         (session, int(ident[4:])))
        extra = rows[0][0] if rows else None
        if call_input_of_extra(extra):
            add("calls_fts", ident, "its call-input search entry (the tool call's arguments)")
        if thinking_of_extra(extra):
            add("reasoning_fts", ident, "its thinking-text search entry")
    for ident in [c.id for c in copies if c.where == "materials"]:
        rows = await db.execute_fetchall("SELECT indexed_bytes FROM materials WHERE session = ? AND id = ? "
                                         "AND deleted_at IS NULL", (session, ident))
        if rows and rows[0][0]:
            add("materials_fts", ident, "its search-index entry (the material's searchable text)")
    return out
