"""Padding a value to a column of a plain-text table by the cells a terminal gives it.

``f"{value:<24}"`` counts characters. A terminal gives a CJK, fullwidth or emoji character two
cells and a combining mark none, so every row whose id held Chinese (the sample sessions'
titles, a state key ``约束.生产库``) pushed the columns after it one cell per character, and a
row of accented or pointed text pulled them back: the columns of ``sessions``, ``ledger`` and
``deletion`` no longer lined up (docs/reviews/untrusted-seven.md). The value is made visible
first (:func:`line_safe`: its marks are what the terminal shows), then padded by its cells — or,
for a title, cut to a bounded number of them (:func:`clipped`).
"""

from __future__ import annotations

import unicodedata

from inspector.domain.terminal_safe import line_safe


def cells(text: str) -> int:
    """The terminal cells ``text`` (already made visible) takes: two for a wide or fullwidth
    character, none for a combining mark, one for the rest."""
    if text.isascii():
        return len(text)
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def padded(value: object, width: int) -> str:
    """``value`` made visible on one line and followed by spaces up to ``width`` cells (never cut:
    a longer value runs on, as ``:<`` did)."""
    shown = line_safe(value if isinstance(value, str) else str(value))
    return shown + " " * max(0, width - cells(shown))


TITLE_CELLS = 160  # a title in a plain listing: as the app's Sessions panel cuts it (ui/widgets/sessions_list)


def clipped(value: str, most: int = TITLE_CELLS) -> str:
    """``value`` made visible on one line and cut to ``most`` cells with "…" — a title holding a pasted
    document (100,000 characters, or 50,000 zero-width spaces shown as 450,000 ``⟨U+200B⟩``) was one
    line of a listing that filled the terminal's scrollback (hostile review nine). ``--json`` keeps
    it whole."""
    shown = line_safe(value)
    if cells(shown) <= most:
        return shown
    out, used = [], 0
    for ch in shown:
        width = 0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if used + width > most - 1:
            break
        out.append(ch)
        used += width
    return "".join(out) + "…"
