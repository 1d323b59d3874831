"""Whether a text holds any of many fixed strings, in time that does not grow with their number.

A deletion looks for every value of its targets in several spellings (domain/deletion_forms.py):
each folded value, its hex, ROT13 and reversed forms, base64 of its UTF-8 and UTF-16 bytes at three
alignments in two alphabets. A pasted log's thousands of request ids make hundreds of thousands of
such strings, and testing each with ``in`` against every row of a session cost minutes (a 2,000-line
log over 1,000 events: 13 s before this round's forms, 58 s with them). Past a few hundred strings
they are looked up by their first characters instead: one pass over the text's slices (made and
looked up in C), and only a string whose start is there compared in full.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

# Below this many strings, ``in`` for each (a C search) beats a Python pass over the text.
_FEW = 200


@dataclass(frozen=True, slots=True)
class Needles:
    """Fixed strings, each at least ``width`` characters long, to look for in texts."""

    strings: tuple[str, ...]  # longest first
    width: int
    by_start: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, strings: Iterable[str], width: int) -> Needles:
        kept = sorted({s for s in strings if len(s) >= width}, key=lambda s: (-len(s), s))
        by_start: dict[str, list[str]] = {}
        if len(kept) > _FEW:
            for s in kept:
                by_start.setdefault(s[:width], []).append(s)
        return cls(tuple(kept), width, {k: tuple(v) for k, v in by_start.items()})

    def __bool__(self) -> bool:
        return bool(self.strings)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.strings)

    def any_in(self, text: str) -> bool:
        return self.first_in(text) is not None

    def first_in(self, text: str) -> str | None:
        """One of the strings ``text`` holds (the longest of those tried first), or None."""
        if not self.by_start:
            return next((s for s in self.strings if s in text), None)
        if self.by_start.keys().isdisjoint(self._windows(text)):  # the usual answer, in one C-level pass
            return None
        starts = self.by_start.keys() & self._windows(text)  # C-level: no set of every window is built
        return next((s for start in starts for s in self.by_start[start] if s in text), None)

    def all_in(self, text: str) -> list[str]:
        """Every one of the strings ``text`` holds (longest first)."""
        if not self.by_start:
            return [s for s in self.strings if s in text]
        starts = self.by_start.keys() & self._windows(text)
        found = {s for start in starts for s in self.by_start[start] if s in text}
        return [s for s in self.strings if s in found]

    def _windows(self, text: str) -> Iterator[str]:
        """Every ``width``-character slice of ``text``, made without a Python-level loop."""
        n = len(text) - self.width + 1
        return map(text.__getitem__, map(slice, range(n), range(self.width, n + self.width)))
