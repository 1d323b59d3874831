"""Scanning a material's stored bytes for a deleted value, chunk by chunk.

A material is kept as chunks (``material_chunks``), so a value may straddle two of them: each
scan carries the previous chunk's tail, and text scans decode UTF-8 incrementally so a character
cut by a chunk's end is read whole. Split from deletion_scan.py, which finds copies everywhere else.
"""

from __future__ import annotations

import codecs

import aiosqlite

from inspector.domain.deletion_forms import LooseMatcher, fold
from inspector.domain.number_copies import NumberCopies


async def material_holds(db: aiosqlite.Connection, material_id: int, needles: list[bytes]) -> bool:
    """Whether the material's bytes contain any needle, reading one chunk at a time."""
    overlap = max((len(n) for n in needles), default=1) - 1
    tail = b""
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + bytes(data)
            if any(n in window for n in needles):
                return True
            tail = window[-overlap:] if overlap else b""
    return False


def loosely_in(text: str, loose: LooseMatcher, numbers: NumberCopies | None) -> bool:
    folded = fold(text)
    return loose.found_in(text, folded) or (numbers is not None and numbers.search(folded) is not None)


def _decoder() -> codecs.IncrementalDecoder:
    """A UTF-8 decoder across chunks: decoding each chunk alone dropped a multi-byte character cut
    by the chunk boundary from both sides, so a fullwidth number or a Chinese address straddling
    it was never found."""
    return codecs.getincrementaldecoder("utf-8")(errors="replace")


async def material_holds_loosely(db: aiosqlite.Connection, material_id: int, loose: LooseMatcher,
                                  numbers: NumberCopies | None) -> bool:
    """The material's text, a window at a time, holding a value in another spelling; the windows
    overlap by more than the longest value can take when escaped (``&#NNNNN;`` is 8 characters)."""
    overlap = 10 * loose.longest + 128
    tail = ""
    decoder = _decoder()  # a character cut by a chunk's end is read whole with the next chunk
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + decoder.decode(bytes(data))
            if loosely_in(window, loose, numbers):
                return True
            tail = window[-overlap:]
    return False


async def material_holds_number(db: aiosqlite.Connection, material_id: int, numbers: NumberCopies) -> bool:
    """Whether the material's text holds one of the numbers in any written form."""
    tail = ""
    decoder = _decoder()  # a character cut by a chunk's end is read whole with the next chunk
    async with db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (material_id,)) as cur:
        async for (data,) in cur:
            window = tail + decoder.decode(bytes(data))
            if numbers.search(window):
                return True
            tail = window[-96:]
    return False
