"""Scanning a material's stored bytes for a deleted value, chunk by chunk.

A material is kept as chunks (``material_chunks``), so a value may straddle two of them: each
scan carries the previous chunk's tail, and text scans decode UTF-8 incrementally so a character
cut by a chunk's end is read whole. Split from deletion_scan.py, which finds copies everywhere else.
"""

from __future__ import annotations

import codecs

import aiosqlite

from inspector.domain.deletion import AS_WRITTEN
from inspector.domain.deletion_forms import LooseMatcher
from inspector.domain.deletion_spelling import spelled_in, spellings_in
from inspector.domain.number_copies import NumberCopies


async def material_holds(db: aiosqlite.Connection, material_id: int, needles: dict[bytes, str]) -> str | None:
    """The spelling (a needle's name) in which the material's bytes hold a value, reading one chunk at a time."""
    overlap = max((len(n) for n in needles), default=1) - 1
    tail = b""
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + bytes(data)
            found = next((name for n, name in needles.items() if n in window), None)
            if found is not None:
                return found
            tail = window[-overlap:] if overlap else b""
    return None


def loosely_in(text: str, loose: LooseMatcher, numbers: NumberCopies | None) -> str | None:
    """The spelling in which ``text`` holds a value (domain/deletion_spelling.py), or None."""
    return spelled_in(text, loose, numbers)


def _decoder() -> codecs.IncrementalDecoder:
    """A UTF-8 decoder across chunks: decoding each chunk alone dropped a multi-byte character cut
    by the chunk boundary from both sides, so a fullwidth number or a Chinese address straddling
    it was never found."""
    return codecs.getincrementaldecoder("utf-8")(errors="replace")


async def material_holds_loosely(db: aiosqlite.Connection, material_id: int, loose: LooseMatcher,
                                  numbers: NumberCopies | None) -> str | None:
    """The material's text, a window at a time, holding a value in another spelling; the windows
    overlap by more than the longest value can take when escaped (``&#NNNNN;`` is 8 characters)."""
    overlap = 10 * loose.longest + 128
    tail = ""
    decoder = _decoder()  # a character cut by a chunk's end is read whole with the next chunk
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + decoder.decode(bytes(data))
            found = loosely_in(window, loose, numbers)
            if found is not None:
                return found
            tail = window[-overlap:]
    return None


async def material_holds_number(db: aiosqlite.Connection, material_id: int, numbers: NumberCopies) -> str | None:
    """How the material's text writes one of the numbers, or None. The tail carried between chunks
    holds a card number in English words ("seven, " is 7 characters a digit)."""
    tail = ""
    decoder = _decoder()  # a character cut by a chunk's end is read whole with the next chunk
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + decoder.decode(bytes(data))
            found = numbers.search(window)
            if found is not None:
                return found
            tail = window[-256:]
    return None


async def material_spellings(db: aiosqlite.Connection, material_id: int, needles: dict[bytes, str],
                             loose: LooseMatcher, numbers: NumberCopies | None) -> tuple[str, ...]:
    """Every spelling the material's bytes hold a value in (read once more, for a material already
    found: a listing names them all, not the first)."""
    found: dict[str, None] = {}
    overlap_bytes = max((len(n) for n in needles), default=1) - 1
    overlap = 10 * loose.longest + 128
    tail_bytes, tail = b"", ""
    decoder = _decoder()
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            raw = tail_bytes + bytes(data)
            found.update((name, None) for n, name in needles.items() if n in raw)
            tail_bytes = raw[-overlap_bytes:] if overlap_bytes else b""
            window = tail + decoder.decode(bytes(data))
            found.update((h, None) for h in spellings_in(window, loose, numbers) if h != AS_WRITTEN)
            tail = window[-overlap:]
    return tuple(found)
