"""A quote of a summary in the summary's own words (fresh-eyes F12).

The rules read a generation in its normal form (``textnorm.norm``: case-folded, NFC, plain
quotes, disguises undone), and the sentence that decided a verdict was quoted in that form:
Survival's "kept" evidence read "`checkconcurrentsessions` … `basecommit`" where the summary
says "`checkConcurrentSessions` … `baseCommit`" — not what the summary says. ``original`` finds
the span of the original text a normalised quote came from, so every quote shows the
summary's own characters.

How: the original is cut at white space into words, each word normalised on its own (the
normal form changes characters inside a word, never across white space, and collapses white
space), the normalised words joined by one space; the quote is found in that, and its first
and last words mapped back to where they stand in the original. A quote that starts or ends
inside a word keeps its offset there when normalising the word kept its length, else takes
the whole word.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.textnorm import norm

_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class _Index:
    joined: str  # the normalised words, joined by one space
    starts: tuple[int, ...]  # where each normalised word starts in ``joined``
    spans: tuple[tuple[int, int, bool], ...]  # each word's (start, end) in the original; same length normalised


@lru_cache(maxsize=256)
def _index(text: str) -> _Index:
    parts: list[str] = []
    starts: list[int] = []
    spans: list[tuple[int, int, bool]] = []
    at = 0
    for m in _WORD.finditer(text):
        word = norm(m.group(0))
        if not word:  # invisible characters only
            continue
        starts.append(at)
        spans.append((m.start(), m.end(), len(word) == m.end() - m.start()))
        parts.append(word)
        at += len(word) + 1
    return _Index(" ".join(parts), tuple(starts), tuple(spans))


def original(text: str, quote: str) -> str | None:
    """The span of ``text`` whose normal form is ``quote`` (a normalised sentence or words of
    it), in ``text``'s own characters; None when it cannot be placed (the caller keeps its quote)."""
    q = " ".join(quote.split())
    if not q or not text:
        return None
    index = _index(text)
    pos = index.joined.find(q)
    if pos < 0:
        return None
    end = pos + len(q)  # exclusive, in ``joined``
    first = bisect_right(index.starts, pos) - 1
    last = bisect_right(index.starts, end - 1) - 1
    s_start, _, s_same = index.spans[first]
    l_start, l_end, l_same = index.spans[last]
    start = s_start + (pos - index.starts[first]) if s_same else s_start
    stop = l_start + (end - index.starts[last]) if l_same else l_end
    return text[start:stop]


def in_own_words(text: str, quote: str) -> str:
    """``quote`` in ``text``'s own characters when it can be placed, else as it is."""
    found = original(text, quote) if quote else None
    return found if found is not None else quote


def requoted(text: str, message: str, quotes: Iterable[str]) -> str:
    """``message`` with each “quote” of the summary it holds (one of ``quotes``: the normalised
    sentence and words a rule reports) written in the summary's own characters."""
    for q in quotes:
        if q and f"“{q}”" in message:
            own = original(text, q)
            if own is not None and own != q:
                message = message.replace(f"“{q}”", f"“{own}”")
    return message
