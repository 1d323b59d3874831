"""Visible stand-ins a pre-filled edit field shows in place of hidden characters (stale-and-prefill).

A dialog pre-fills an edit field with stored text made visible (``terminal_safe``): U+202E is
shown as ``⟨U+202E⟩``, ESC as ``␛``. The field holds those marks as text, so a small edit saved
the marks as the new value — the record silently changed in every place the reviewer did not
touch. ``marks_left`` says which marks the pre-fill put in and the text to be saved still holds,
so the dialog refuses instead of writing them. A mark counts only beyond the times the stored
text itself held it as typed text (a value that spells ``⟨U+202E⟩`` in letters is kept as it is).
"""

from __future__ import annotations

from inspector.domain import terminal_safe


def stand_ins(stored: str) -> dict[str, int]:
    """Each mark the shown form of ``stored`` put in place of a hidden character, with how often."""
    marks: dict[str, int] = {}
    for mark in terminal_safe.stand_ins(stored):
        marks[mark] = marks.get(mark, 0) + 1
    return marks


def marks_left(stored: str, to_save: str) -> list[str]:
    """The marks standing for hidden characters of ``stored`` that ``to_save`` still holds as text
    (more often than ``stored`` held them typed), in the order first met; empty when none."""
    return [mark for mark in stand_ins(stored) if to_save.count(mark) > (stored or "").count(mark)]
