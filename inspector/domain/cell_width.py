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


KEY_CELLS = 40  # a key's column in a plain listing: an imported key is a slug of up to ~60 characters
SESSION_CELLS = 36  # a session id's column: a UUID whole; a longer sif id is cut


def fitted(value: object, width: int = KEY_CELLS) -> str:
    """``value`` made visible and padded to exactly ``width`` cells, or cut to them with "…" in its
    middle, so the columns after it stay in line (a 58-character key, or a key of CJK text, pushed
    them right, each row by its own amount: flow-19). The middle goes, not the end: an imported key
    ends in its digest (``….661542``) and a key of one family differs there, so the cut form still
    names one key, and a command given it names the whole one (``did you mean …?``). ``--json`` and
    the detail views keep it whole."""
    shown = line_safe(value if isinstance(value, str) else str(value))
    used = cells(shown)
    if used <= width:
        return shown + " " * (width - used)
    tail_room = max(0, min(width // 3, width - 2))
    head = _cells_from(shown, width - 1 - tail_room)
    tail = _cells_from(shown[::-1], tail_room)[::-1]
    while tail and cells(tail[0]) == 0:  # a mark cut from its letter would sit on the "…"
        tail = tail[1:]
    out = head + "…" + tail
    return out + " " * (width - cells(out))


def _cells_from(text: str, most: int) -> str:
    """The longest start of ``text`` taking at most ``most`` cells (a wide character never split)."""
    taken, used = [], 0
    for ch in text:
        width = cells(ch)
        if used + width > most:
            break
        taken.append(ch)
        used += width
    return "".join(taken)


def column_cells(values: list[str], least: int, most: int) -> int:
    """A column's width for ``values`` as shown: the widest, within ``least`` and ``most`` cells (the
    longer ones are :func:`fitted` to it)."""
    return min(most, max([least, *(cells(line_safe(v)) for v in values)]))
