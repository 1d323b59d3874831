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
from typing import Any

from inspector.domain.textnorm import norm

# A line this long (markup and spacing aside) found in what the assistant said was pasted back. A
# shorter one is pasted only when it shows it was copied (``_short_pasted``): "use port 8080" alone,
# said by the assistant too, is as likely the user's own answer.
PASTED_MIN = 24
# How many of the assistant's last messages a pasted line is looked for in (the real paste quoted a
# message four assistant messages back: 7662d755, evt:168 from evt:151).
RECENT_SAID = 10
_QUOTED_LINE = re.compile(r"^\s*>")
_MARKUP = re.compile(r"[*`]+")
# A list mark, as a paste form starts with it (a bullet however it was drawn: "- ", "• ", "* ").
_BULLET = re.compile(r"^[-*•+]\s+")
_LIST_MARK = re.compile(r"^(?:- |\d{1,2}[.)] |[a-z][.)] )")
_WORDY = re.compile(r"\w")


def pasted_form(text: str) -> str:
    """Text as a paste compares: normal form, without Markdown emphasis and code marks (a pasted
    "**User committed**: `x`" reads "User committed: x" in the terminal it was copied from)."""
    return norm(_MARKUP.sub("", text))


def _line_form(line: str) -> str:
    return _BULLET.sub("- ", pasted_form(line))


class RecentSaid:
    """What the assistant said last (its ``keep`` latest messages), each put in its paste form
    once, when a user's line first needs it (most messages are never compared)."""

    __slots__ = ("_items",)

    def __init__(self, keep: int = RECENT_SAID) -> None:
        # [text, its paste form once made, the message's seq, its lines' forms once made]
        self._items: deque[list[Any]] = deque(maxlen=keep)

    def add(self, text: str, seq: int = 0) -> None:
        self._items.append([text, None, seq, None])

    def _forms(self) -> Iterator[tuple[str, int]]:
        for item in self._items:
            if item[1] is None:
                item[1] = pasted_form(item[0] or "")
            yield item[1], item[2]

    def forms(self) -> Iterator[str]:
        return (form for form, _ in self._forms())

    def said_in(self, form: str) -> int | None:
        """The seq of the latest recent message holding ``form`` (a paste form), if any."""
        found = None
        for said, seq in self._forms():
            if form in said:
                found = seq
        return found

    def line(self, form: str) -> str | None:
        """How a short line (``_line_form``) stands as a whole line of a recent message: "marked" with
        the list mark it has there, "bare" without the list mark it has there, or None."""
        found = None
        for item in self._items:
            if item[3] is None:
                whole = {_line_form(line) for line in (item[0] or "").split("\n")}
                item[3] = (whole, {_LIST_MARK.sub("", f, count=1) for f in whole if _LIST_MARK.match(f)})
            whole, bare = item[3]
            if form in whole:
                return "marked" if _LIST_MARK.match(form) else "bare"
            if form in bare:
                found = "bare"
        return found


def split_quoted(text: str, said: RecentSaid) -> tuple[str, list[str]] | None:
    """The message without its quoted lines ("> …") and the lines it pasted back from what the
    assistant said recently, and those lines; None when it quotes nothing."""
    lines = text.split("\n")
    pasted = [_QUOTED_LINE.match(line) is not None or _long_pasted(line, said) for line in lines]
    for i in _short_pasted(lines, pasted, said):
        pasted[i] = True
    if not any(pasted):
        return None
    kept = [line for line, was in zip(lines, pasted, strict=True) if not was]
    return "\n".join(kept).strip(), [line for line, was in zip(lines, pasted, strict=True) if was]


def _long_pasted(line: str, said: RecentSaid) -> bool:
    form = pasted_form(line) if len(line) >= PASTED_MIN else ""
    return len(form) >= PASTED_MIN and any(form in s for s in said.forms())


def _short_pasted(lines: list[str], pasted: list[bool], said: RecentSaid) -> list[int]:
    """The short lines a message pasted: each the whole of a line of a recent assistant message that
    shows it was copied — it keeps that line's list mark, or a line beside it is pasted too (a
    multi-line paste; blank lines between do not part them). A lone short line is the user's."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    if len(filled) < 2 and not any(_LIST_MARK.match(_line_form(lines[i])) for i in filled):
        return []
    how: dict[int, str] = {}
    for i in filled:
        if not pasted[i] and not _QUOTED_LINE.match(lines[i]):
            form = _line_form(lines[i])
            if form and len(form) < PASTED_MIN and _WORDY.search(form) and (found := said.line(form)):
                how[i] = found
    out = []
    for at, i in enumerate(filled):
        if i not in how:
            continue
        beside = [filled[j] for j in (at - 1, at + 1) if 0 <= j < len(filled)]
        if how[i] == "marked" or any(j in how or (pasted[j] and not _QUOTED_LINE.match(lines[j])) for j in beside):
            out.append(i)
    return out


def unquoted(text: str, said: RecentSaid) -> str | None:
    """The message without its quoted and pasted lines (``split_quoted``), or None when it quotes nothing."""
    split = split_quoted(text, said)
    return None if split is None else split[0]
