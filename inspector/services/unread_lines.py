"""The lines of an imported transcript that could not be read, as the store remembers them.

A line a converter cannot read (not UTF-8, not JSON, a field of the wrong type…) is kept in the
file's original material and stored as an ``other`` event whose ``extra.problem`` names the
code (domain/formats/tolerant.py). Only the import that met it said so: a re-import ("nothing
new"), a follow's catch-up, ``check`` and the app opening the store again said nothing, so a
transcript with unread lines looked wholly read. Counted here from the events themselves, so
every one of those can say "N lines not read".
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.domain.formats.tolerant import PROBLEM_CODES
from inspector.domain.plurals import counted
from inspector.store.connection import Store

# Read once or read anyway (odd, not lost): the rest mean a line, or part of one, was not read.
NOT_READ = tuple(c for c in PROBLEM_CODES if c not in ("several_records_on_line", "duplicate_line"))
SHOWN = 8  # line numbers named before the rest are counted


@dataclass(frozen=True, slots=True)
class UnreadLine:
    seq: int
    line: int | None  # the line of the original file, when the format has lines
    code: str


async def unread_lines(store: Store, session: str) -> list[UnreadLine]:
    """Every part of ``session``'s transcript that was kept in the original and not read."""
    marks = ", ".join("?" * len(NOT_READ))
    cur = await store.db.execute(
        "SELECT seq, json_extract(extra, '$.origin.line'), json_extract(extra, '$.problem') FROM events "
        f"WHERE session = ? AND kind = 'other' AND extra LIKE '%\"problem\"%' "
        f"AND json_extract(extra, '$.problem') IN ({marks}) ORDER BY seq", (session, *NOT_READ))
    rows = await cur.fetchall()
    return [UnreadLine(int(seq), line if isinstance(line, int) else None, str(code)) for seq, line, code in rows]


def said(found: list[UnreadLine]) -> str:
    """"2 lines not read (kept in the original): lines 9, 10" — or "" when there are none."""
    if not found:
        return ""
    lines = sorted({u.line for u in found if u.line is not None})
    shown = ", ".join(map(str, lines[:SHOWN])) + (f" and {len(lines) - SHOWN} more" if len(lines) > SHOWN else "")
    n = len(found)
    # one count of parts read or not (a line of two records can leave its second unread): "1 line … is kept"
    return (f"{counted(n, 'line or part of a line', 'lines or parts of lines')} of the transcript could not be read "
            f"and {'is' if n == 1 else 'are'} kept in the original, not read"
            + (f": {'line' if len(lines) == 1 else 'lines'} {shown}" if lines else ""))
