"""A long line decoded once for the format's detection and the conversion that follows it.

``detect`` reads a transcript's first lines to tell its format, and the converter then reads
every line again: a 30 MB message on one of those first lines was decoded (and re-encoded, to
check it is the text the fast decoder answers for: store/jsoncodec.py) twice. :class:`DecodedOnce`
remembers what it decoded of a long line until the same line is read once more, then forgets it,
so each value is handed out at most twice (the detection only looks at it) and no memory is held
after the conversion.
"""

from __future__ import annotations

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

    def forget(self) -> None:
        self._kept.clear()
