"""Reading a typed ``evt:N``: which event number it names, if any.

Typed on the command line or in a dialog, ``evt:１`` (fullwidth) or ``evt:٣`` passes
``str.isdigit`` and was stored as typed, then read by the deletion scan as event 1 and listed
twice; ``evt:`` with 4,301 digits made ``int()`` raise, and with 20 digits SQLite raised
OverflowError (review-15). So N is ASCII digits, its leading zeros dropped, and a number past
SQLite's INTEGER names no event.
"""

from __future__ import annotations

from inspector.domain.guarded_json import INT_MAX


def event_number(text: str) -> str | None:
    """The N of ``evt:N`` written in ASCII digits, leading zeros dropped (``evt:0006`` → ``6``);
    None for anything else. A string, not an int: ``int()`` of 4,301 digits or more raises."""
    digits = text[4:] if text.startswith("evt:") else ""
    if not (digits.isascii() and digits.isdigit()):
        return None
    return digits.lstrip("0") or "0"


def stored_seq(number: str) -> int | None:
    """``number`` (from :func:`event_number`) as a seq SQLite can be asked about, or None when it is
    past SQLite's INTEGER: no event has it."""
    return int(number) if len(number) <= len(str(INT_MAX)) and int(number) <= INT_MAX else None
