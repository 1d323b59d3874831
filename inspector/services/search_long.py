"""A search past the index: the text of events longer than what the event indexes hold.

Since store format 8 an event's text is indexed through its first ``EVENT_INDEX_CHARS`` characters
(inspector/store/schema.py): a trigram index of one pasted 30 MB log took a minute to build and
its cost grows faster than the text. The rest of such an event — a pasted log, a dumped file, few
in any session (``events_long`` finds them) — is checked here against the text itself, so a word
only in the 29th MB is found, not silently missed. The check is bounded: a search reads at most
:data:`SCAN_CHARS` characters of such text, and says so (``SearchResult.note``) when a session
holds more than that, naming how many events it looked in only up to the indexed part.

Since store format 9 a tool call's input and an event's thinking are indexed the same way
(inspector/store/side_index.py): :func:`past_the_side_index` reads the rest of the few such texts
(``events_long_extra`` finds their events), under the same bound, shared by the whole search.

Counting a hit's occurrences in a long text (every hit does, search.py) reads it once more: the
regular expression's case-insensitive walk costs 66 ms a MB, so an ASCII query in an ASCII text
(the common log) is counted on its lower-cased copy (``str.count`` / ``str.find``, ~10× faster),
with the same answer: ASCII letters fold only to ASCII letters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspector.domain.plurals import counted
from inspector.store import search_index
from inspector.store.schema import EVENT_INDEX_CHARS
from inspector.store.side_index import SideIndex

SCAN_CHARS = 256_000_000  # characters of long events' text one search reads past the index at most
FAST_FROM = 4096  # texts this long or longer are counted on their lower-cased copy when both are ASCII
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def occurrences(pattern: re.Pattern[str], text: str, most: int) -> tuple[int, tuple[int, ...]]:
    """How often the search's pattern (``re.escape`` of the query, case-insensitive) occurs in
    ``text``, and the first ``most`` offsets; non-overlapping, as ``finditer`` counts."""
    if len(text) >= FAST_FROM and text.isascii():  # isascii is O(1) on a str
        query = _ESCAPED.sub(r"\1", pattern.pattern)
        if query.isascii() and query:
            low, q = text.lower(), query.lower()
            offsets: list[int] = []
            at = low.find(q)
            while at >= 0 and len(offsets) < most:
                offsets.append(at)
                at = low.find(q, at + len(q))
            return low.count(q), tuple(offsets)
    found = [m.start() for m in pattern.finditer(text)]
    return len(found), tuple(found[:most])


def contains(pattern: re.Pattern[str], text: str) -> bool:
    """Whether the pattern occurs in ``text`` (as :func:`occurrences` finds it), stopping at the first."""
    if len(text) >= FAST_FROM and text.isascii():
        query = _ESCAPED.sub(r"\1", pattern.pattern)
        if query.isascii() and query:
            return query.lower() in text.lower()
    return pattern.search(text) is not None


@dataclass(slots=True)
class PastTheIndex:
    """The long events whose text past the index holds the query, and what was not read."""

    found: list[tuple[int, int, str]]  # (event_id, seq, text) in import order
    unread: int = 0  # long events not read past the index (the bound was reached)
    left: int = 0  # characters the search may still read past the indexes


async def past_the_index(db: Any, session: str, pattern: re.Pattern[str], already: set[int]) -> PastTheIndex:
    """The session's long events (their text runs past the indexed part) that hold the query,
    other than ``already`` (found by the index: their hit is made from their whole text anyway).
    Reads each one's text in turn, up to :data:`SCAN_CHARS` characters in all."""
    result = PastTheIndex([], left=SCAN_CHARS)  # read when called: a test may lower the bound
    for event_id, length in await search_index.long_events(db, session):
        if event_id in already:
            continue
        if length > result.left:
            result.unread += 1
            continue
        result.left -= length
        row = await search_index.long_event_text(db, event_id)
        if row is None:
            continue
        seq, text = row
        if contains(pattern, text):
            result.found.append((event_id, seq, text))
    return result


@dataclass(slots=True)
class PastTheSide:
    """The events whose call input (or thinking) past the index holds the query, and what was not read."""

    found: list[tuple[int, int, str | None, str]]  # (event_id, seq, tool, whole text) in import order
    unread: int = 0  # events whose text of this kind was not read past the index (the bound was reached)
    left: int = 0


async def past_the_side_index(db: Any, side: SideIndex, session: str, pattern: re.Pattern[str], already: set[int],
                              left: int) -> PastTheSide:
    """The session's events whose text of ``side``'s kind runs past what the index holds (format 9)
    and holds the query, other than ``already`` (found by the index, their hit made from the whole
    text); reads each one's stored JSON in turn while ``left`` characters allow."""
    result = PastTheSide([], left=left)
    for event_id, seq, tool, length in await side.long_events(db, session):
        if event_id in already:
            continue
        if length > result.left:
            result.unread += 1
            continue
        result.left -= length
        text = await side.whole_text(db, event_id)
        if text is not None and len(text) > EVENT_INDEX_CHARS and contains(pattern, text):
            result.found.append((event_id, seq, tool, text))
    return result


def side_unread_note(unread: int) -> str:
    """What a search says of the events whose call input or thinking it did not read past the index."""
    return (f"the call input or thinking of {counted(unread, 'event')} longer than {EVENT_INDEX_CHARS:,} characters "
            f"{'were' if unread != 1 else 'was'} searched only in {'their' if unread != 1 else 'its'} first "
            f"{EVENT_INDEX_CHARS:,} (a search reads at most {SCAN_CHARS:,} characters past the index)")


def unread_note(unread: int) -> str:
    """What a search says of the long events it did not read past the index."""
    return (f"{unread:,} event{'s' if unread != 1 else ''} longer than {EVENT_INDEX_CHARS:,} characters "
            f"{'were' if unread != 1 else 'was'} searched only in their first {EVENT_INDEX_CHARS:,} (a search reads "
            f"at most {SCAN_CHARS:,} characters past the index)")
