"""A long line decoded once for the format's detection and the conversion that follows it.

``detect`` reads a transcript's first lines to tell its format, and the converter then reads
every line again: a 30 MB message on one of those first lines was decoded (and re-encoded, to
check it is the text the fast decoder answers for: store/jsoncodec.py) twice. :class:`DecodedOnce`
remembers what it decoded of a long line until the same line is read once more, then forgets it,
so each value is handed out at most twice (the detection only looks at it) and no memory is held
after the conversion.

A whole-document format (a saved message list, an Inspect AI log, a Gemini checkpoint) was decoded
by the guarded decoder twice more: the detection's read of the whole file and the converter's.
Both now come here: the detection's read is :meth:`DecodedOnce.looked_at` (kept for the converter,
whose read then takes it); it also finds a one-line document's value read as its line by the
detection's first-records pass, by the file's JSON text without the white space around it (which
changes neither a JSON text's value nor whether it is JSON).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

LONG_LINE = 1 << 16  # bytes: shorter lines are decoded each time (the cost of a lookup is theirs)
_MISSING = object()


class DecodedOnce:
    """``loads`` that keeps a long line's value for its next read (by equal bytes)."""

    def __init__(self, loads: Callable[[bytes], Any]) -> None:
        self._loads = loads
        self._kept: dict[bytes, Any] = {}

    def __call__(self, raw: bytes) -> Any:
        if len(raw) < LONG_LINE:
            return self._loads(raw)
        value = self._kept.pop(raw, _MISSING)
        if value is _MISSING:
            value = self._loads(raw)  # an exception is raised again by the next read: nothing kept
            self._kept[raw] = value
        return value

    def looked_at(self, raw: bytes) -> Any:
        """A read that only looks (the detection's of a whole document): the value is kept for the
        converter's read of the same bytes, which takes it. A one-line document was read as its line
        by the detection's first-records pass: that value is found by the file's JSON text without
        the blanks around it (only here: a line is still found only by its own bytes)."""
        if len(raw) < LONG_LINE:
            return self._loads(raw)
        value = self._kept.get(raw, _MISSING)
        if value is _MISSING:
            value = self._kept.get(_json_text(raw), _MISSING)  # type: ignore[call-overload]
            self._kept[raw] = value = self._loads(raw) if value is _MISSING else value
        return value

    def forget(self) -> None:
        self._kept.clear()


_BLANKS = b" \t\n\r"  # JSON's white space
_NOT_BLANK = re.compile(rb"[^ \t\n\r]")


def _json_text(raw: bytes) -> bytes | memoryview:
    """``raw`` without the JSON white space at its ends, as a key equal (and hashing equal) to those
    bytes; a view, not a copy, of a long file. Found in C: a file of megabytes of blanks costs no loop."""
    match = _NOT_BLANK.search(raw) if raw[:1] and raw[0] in _BLANKS else None
    start = 0 if match is None else match.start()
    tail = raw[-64:]
    kept = tail.rstrip(_BLANKS)
    end = len(raw) - (len(tail) - len(kept)) if kept or len(raw) <= 64 else len(raw.rstrip(_BLANKS))
    if start == 0 and end == len(raw):
        return raw
    return memoryview(raw)[start:max(start, end)]
