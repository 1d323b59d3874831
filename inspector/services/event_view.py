"""One event as the app shows it: a bounded head, with the rest read on request.

An event can hold tens of megabytes (a whole log pasted as a tool result). Reading it all,
pretty-printing it and laying it out in a dialog took half a minute; a person reads the
head first. So the content is read by SQL ``substr`` up to ``HEAD_CHARS`` (its length
from ``length``), other long strings in the record are cut the same way, and
:func:`content_window` reads any later stretch when the person asks for more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS

HEAD_CHARS = 32_000


@dataclass(slots=True)
class EventHead:
    record: dict[str, Any]
    content_chars: int  # the content's full length in characters (0 when it has none)
    cut: dict[str, int] = field(default_factory=dict)  # field -> full length, for every field shown cut

    @property
    def content_shown(self) -> int:
        return min(self.content_chars, HEAD_CHARS)


def _cut_strings(value: Any, path: str, cut: dict[str, int], head: int) -> Any:
    if isinstance(value, str) and len(value) > head:
        cut[path] = len(value)
        return value[:head]
    if isinstance(value, dict):
        return {k: _cut_strings(v, f"{path}.{k}" if path else k, cut, head) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v, f"{path}[{i}]", cut, head) for i, v in enumerate(value)]
    return value


async def event_head(store: Store, session: str, seq: int, *, head: int = HEAD_CHARS) -> EventHead | None:
    """The event's record with its content (and any other string) cut to ``head`` characters."""
    spec = SPECS["event"]
    columns = [f"substr(content, 1, {int(head)})" if c == "content" else c for c in spec.columns]
    row = await fetch_one(store.db, f"SELECT {', '.join(columns)}, extra, IFNULL(length(content), 0) FROM events "
                          "WHERE session = ? AND seq = ?", (session, seq))
    if row is None:
        return None
    cut: dict[str, int] = {}
    record = _cut_strings(spec.to_record(row[:-1]), "", cut, head)
    total = int(row[-1])
    if total > head:
        cut["content"] = total
    return EventHead(record, total, cut)


async def content_window(store: Store, session: str, seq: int, start: int, count: int) -> str:
    """Characters ``[start, start + count)`` of the event's content (0-based)."""
    row = await fetch_one(store.db, "SELECT substr(content, ?, ?) FROM events WHERE session = ? AND seq = ?",
                          (start + 1, count, session, seq))
    return str(row[0] or "") if row else ""
