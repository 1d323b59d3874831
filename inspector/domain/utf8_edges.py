"""Cutting a byte range out of UTF-8 honestly.

A byte range rarely falls on character boundaries. The bytes of a character cut at
either edge are returned as themselves (hex), never replaced by U+FFFD and never
dropped, and the nearest wider and narrower ranges on boundaries are offered instead.
"""

from __future__ import annotations

from dataclasses import dataclass


def _is_continuation(byte: int) -> bool:
    return byte & 0b1100_0000 == 0b1000_0000


def _sequence_length(lead: int) -> int:
    """Bytes in the character a lead byte starts (1 for ASCII and for invalid leads)."""
    if lead >= 0b1111_0000:
        return 4
    if lead >= 0b1110_0000:
        return 3
    if lead >= 0b1100_0000:
        return 2
    return 1


def _lead_position(window: bytes, window_start: int, pos: int) -> int:
    """Where the character holding byte ``pos`` starts (at most 3 bytes back, within the window)."""
    lead = pos
    while lead > window_start and lead > pos - 3 and _is_continuation(window[lead - window_start]):
        lead -= 1
    return lead


@dataclass(frozen=True, slots=True)
class Edges:
    """How a slice [start, end) of a larger UTF-8 buffer sits on character boundaries."""

    text: str | None  # None when the whole-character middle is not valid UTF-8 (binary)
    cut_head: bytes
    cut_tail: bytes
    snap_wider: tuple[int, int]
    snap_narrower: tuple[int, int]


def cut_edges(window: bytes, window_start: int, start: int, end: int) -> Edges:
    """``window`` holds bytes [window_start, window_start + len(window)) and must cover
    [start, end) plus up to 3 bytes on each side, so the wider snap can be found."""
    rel_start, rel_end = start - window_start, end - window_start
    piece = window[rel_start:rel_end]
    head = 0
    while head < len(piece) and head < 3 and _is_continuation(piece[head]):
        head += 1
    tail = 0
    # find the last lead byte in the piece and see whether its character is complete
    for back in range(1, min(4, len(piece) - head) + 1):
        byte = piece[len(piece) - back]
        if not _is_continuation(byte):
            if _sequence_length(byte) > back:
                tail = back
            break
    middle = piece[head : len(piece) - tail]
    try:
        text: str | None = middle.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    wider_start = _lead_position(window, window_start, start) if head else start
    wider_end = end
    if end > start:
        lead = _lead_position(window, window_start, end - 1)
        wider_end = max(end, min(lead + _sequence_length(window[lead - window_start]), window_start + len(window)))
    return Edges(text, piece[:head], piece[len(piece) - tail :] if tail else b"",
                 (wider_start, wider_end), (start + head, end - tail))
