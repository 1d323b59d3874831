"""Which lines of a user's message are the user's own words, and which they quoted or pasted back.

A user quotes to reply ("> 2. Never touch prod" then "why?"), or pastes a line of what the
assistant said ("- Do not delete the staging bucket", copied from its plan). Those lines are
the assistant's words (or someone else's), not a rule, request, reference or decision of the
user's: read as theirs, they became protected records the user never said, and the drift
verdicts then judged summaries by false facts. Every rule that reads the user's words
(facts_goals, facts_text) reads them through ``split_quoted``, the one reading of "quoted or
pasted" there is.

What the user writes around the quote is theirs: "> Never touch prod" then "agreed: never touch
prod" is the user's own constraint, in their words; "keep that rule" names no rule of its own: it
is the rule it points back to, the quoted one here (back_refs.py, tests/test_back_reference_rule.py).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator

from inspector.domain.textnorm import norm

# A line this long (markup and spacing aside) found in what the assistant said was pasted back.
PASTED_MIN = 24
# How many of the assistant's last messages a pasted line is looked for in (the real paste quoted a
# message four assistant messages back: 7662d755, evt:168 from evt:151).
RECENT_SAID = 10
_QUOTED_LINE = re.compile(r"^\s*>")
_MARKUP = re.compile(r"[*`]+")


def pasted_form(text: str) -> str:
    """Text as a paste compares: normal form, without Markdown emphasis and code marks (a pasted
    "**User committed**: `x`" reads "User committed: x" in the terminal it was copied from)."""
    return norm(_MARKUP.sub("", text))


class RecentSaid:
    """What the assistant said last (its ``keep`` latest messages), each put in its paste form
    once, when a user's line first needs it (most messages are never compared)."""

    __slots__ = ("_items",)

    def __init__(self, keep: int = RECENT_SAID) -> None:
        # [text, its paste form once made, the message's seq]
        self._items: deque[list[str | int | None]] = deque(maxlen=keep)

    def add(self, text: str, seq: int = 0) -> None:
        self._items.append([text, None, seq])

    def _forms(self) -> Iterator[tuple[str, int]]:
        for item in self._items:
            if item[1] is None:
                item[1] = pasted_form(str(item[0] or ""))
            yield str(item[1]), int(item[2] or 0)

    def forms(self) -> Iterator[str]:
        return (form for form, _ in self._forms())

    def said_in(self, form: str) -> int | None:
        """The seq of the latest recent message holding ``form`` (a paste form), if any."""
        found = None
        for said, seq in self._forms():
            if form in said:
                found = seq
        return found


def split_quoted(text: str, said: RecentSaid) -> tuple[str, list[str]] | None:
    """The message without its quoted lines ("> …") and the lines it pasted back from what the
    assistant said recently, and those lines; None when it quotes nothing."""
    kept: list[str] = []
    quoted: list[str] = []
    for line in text.split("\n"):
        form = pasted_form(line) if len(line) >= PASTED_MIN else ""
        if _QUOTED_LINE.match(line) or (len(form) >= PASTED_MIN and any(form in s for s in said.forms())):
            quoted.append(line)
        else:
            kept.append(line)
    return ("\n".join(kept).strip(), quoted) if quoted else None


def unquoted(text: str, said: RecentSaid) -> str | None:
    """The message without its quoted and pasted lines (``split_quoted``), or None when it quotes nothing."""
    split = split_quoted(text, said)
    return None if split is None else split[0]
