"""Reading a session's rows for a deletion's values in every spelling (domain/deletion_spelling.py).

Split from deletion_scan.py (which finds copies by reference, as written in SQL and by number): the
rows are read in Python, since SQL cannot fold, and a row found is read once more for *every*
spelling it holds (round eleven: a record found as written may also hold the value in base64, and
naming the first hid the others). A row whose text is longer than the second readings read
(deletion_spelling.READ_MAX) is named, so a listing never says "gone" past what it read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import aiosqlite

from inspector.domain.deletion import AS_WRITTEN, Copy, strings_in
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in, spellings_in
from inspector.domain.number_copies import NumberCopies

_JSON_COLUMNS = frozenset({"extra", "claims", "unresolved"})


def cell_texts(column: str, cell: object, *, joined: bool = False) -> list[str]:
    """The texts a scan reads in a cell: a JSON column's strings (an escaped ``\\u200b`` is the
    character to a pattern), one per string or ``joined`` into one text; any other cell as stored."""
    if column not in _JSON_COLUMNS:
        return [str(cell)]
    try:
        strings = strings_in(json.loads(str(cell)))
    except ValueError:
        return [str(cell)]  # not JSON after all: its text as stored is scanned
    return ["\n".join(strings)] if joined else strings


@dataclass(slots=True)
class RowFinds:
    """What :func:`holding_loosely` found in one table."""

    # (id, whether the row has event text — its search entry goes too —, the first spelling, every spelling)
    found: list[tuple[str, bool, str, tuple[str, ...]]] = field(default_factory=list)
    bounded: list[str] = field(default_factory=list)  # ids of rows not found whose text passed READ_MAX


async def holding_loosely(db: aiosqlite.Connection, table: str, columns: tuple[str, ...], name: str, session: str,
                          loose: LooseMatcher, numbers: NumberCopies | None) -> RowFinds:
    """Rows of ``table`` in ``session`` holding a value in another spelling, each with every spelling it
    holds; and the rows too long to be read whole in the second readings."""
    out = RowFinds()
    first_is_text = table == "events"
    async with db.execute(f"SELECT {name}, {', '.join(columns)} FROM {table} WHERE session = ?", (session,)) as cur:
        async for ident, *cells in cur:
            bounds: list[str] = []
            for column, cell in zip(columns, cells, strict=True):
                if cell is None:
                    continue
                how = next((h for t in cell_texts(column, cell, joined=True)
                            if (h := spelled_in(t, loose, numbers, bounds=bounds)) is not None), None)
                if how is not None:  # then every spelling of every cell (a record found is rare: read again)
                    every = [h for c, other in zip(columns, cells, strict=True) if other is not None
                             for t in cell_texts(c, other, joined=True) for h in spellings_in(t, loose, numbers)]
                    out.found.append((str(ident), first_is_text and cells[0] is not None, how,
                                      tuple(dict.fromkeys(every)) or (how,)))
                    break
            else:
                if bounds:
                    out.bounded.append(str(ident))
    return out


def with_spellings(copy: Copy, spellings: tuple[str, ...]) -> Copy:
    """``copy`` (found as written or as a number first) saying every spelling its record holds."""
    every = tuple(dict.fromkeys((*copy.spellings, *spellings)))
    others = "; ".join(h for h in every if h != AS_WRITTEN)
    if copy.spelling == AS_WRITTEN:  # its reason says which line it repeats: the other spellings after it
        why = f"{copy.why}; also written another way: {others}" if others else copy.why
    else:
        why = f"repeats a value of the targets, written another way: {'; '.join(every)}"
    return Copy(copy.where, copy.id, why, copy.spelling, every)
