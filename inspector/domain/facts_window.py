"""How much of one huge event the fact rules read: its head and its tail, never the whole of it.

The fact rules (goals, constraints, decisions, references, failures…) are Python over the text,
about 5 µs a character: a 30 MB log pasted as one message kept the import busy 42 s and 3.8 GB
to propose facts from text nobody typed (new-user-15). A person's own words sit around a paste,
not inside it — the ask before ("look at this log"), the rule after ("don't restart prod") — and
a failure's words at the end of its output. So an event longer than :data:`WHOLE_BELOW` characters
is read as its first :data:`HEAD` and last :data:`TAIL` characters, joined by a paragraph break
(no sentence is made across the cut, and every proposal is still words the event holds). Events
under the bound — every message a person types, nearly every tool result — are read whole, as
before. What is read is a proposal's evidence only: the event itself is stored, indexed and shown
byte for byte (inspector/store/search_index.py bounds the search index the same way, and says so).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from inspector.domain.facts_own_words import EDGE, USER_HEAD, USER_TAIL, Reading, user_reading
from inspector.domain.logevents import LogEvent
from inspector.domain.protocol import ProtocolProblem

USER = "user_message"

WHOLE_BELOW = 64_000  # characters: an event this long or longer is read in its head and tail
HEAD = 48_000
TAIL = 16_000
CUT = "\n\n"  # a paragraph break: the rules' sentences and paragraphs end at it


def is_windowed(content: str | None) -> bool:
    """Whether the fact rules read only the head and tail of this text."""
    return content is not None and len(content) >= WHOLE_BELOW


def window(content: str) -> str:
    """The part of a huge text the rules read (the text itself when it is under the bound)."""
    if not is_windowed(content):
        return content
    return content[:HEAD] + CUT + content[-TAIL:]


def window_of(kind: str, content: str) -> str:
    """What the rules read of an event's text: a huge user message its own words
    (facts_own_words.user_reading), any other huge text its head and tail."""
    if not is_windowed(content):
        return content
    return user_reading(content).text if kind == USER else window(content)


def windowed(events: Iterable[LogEvent]) -> list[LogEvent]:
    """The events as the fact rules read them: huge texts cut to what is read (:func:`window_of`),
    the rest as they are (the same objects: nothing is copied for the common case). A user
    message's reading is shorter than the bound, so a text read once is never read again."""
    return [replace(e, content=window_of(e.kind, e.content)) if is_windowed(e.content) else e  # type: ignore[arg-type]
            for e in events]


READ_IN_PART = "read_in_part"


def in_part_note(seq: int, length: int, reading: Reading | None = None) -> dict[str, Any]:
    """One event read in part, for ``facts --json --with-notes``: which characters the rules read
    (``reading``: a user message's, whose own words and pasted blocks' edges are read)."""
    read = [list(r) for r in reading.read] if reading is not None else [[0, HEAD], [length - TAIL, length]]
    note = {"code": READ_IN_PART, "ref": f"evt:{seq}", "seq": seq, "characters": length, "read": read,
            "message": said_in_part(seq, length, reading)}
    if reading is not None:
        note["own_words_read_whole"] = not reading.own_skipped
    return note


def said_in_part(seq: int, length: int, reading: Reading | None = None) -> str:
    if reading is not None and not reading.own_skipped:
        return (f"evt:{seq} holds {length:,} characters: its facts were proposed from all its own words and the "
                f"first and last {EDGE:,} characters of each pasted block ({reading.pasted:,} characters of log or "
                "code between them not read; the event is stored, shown and searched whole)")
    if reading is not None:
        return (f"evt:{seq} holds {length:,} characters: its facts were proposed from its first {USER_HEAD:,} and "
                f"last {USER_TAIL:,} characters of own words and pasted edges only (the event is stored, shown and "
                "searched whole)")
    return (f"evt:{seq} holds {length:,} characters: its facts were proposed from its first {HEAD:,} and last "
            f"{TAIL:,} only (the event is stored, shown and searched whole)")


def read_in_part(records: Iterable[dict[str, Any]]) -> list[ProtocolProblem]:
    """What an import says of each event the fact rules read only in part, so a reviewer knows
    why a rule said in the middle of a paste was not proposed (the event itself is whole)."""
    return [ProtocolProblem(READ_IN_PART, r["session"], r["seq"], said_in_part(
                r["seq"], len(r["content"]), user_reading(r["content"]) if r.get("kind") == USER else None))
            for r in records if r.get("type") == "event" and is_windowed(r.get("content"))]
