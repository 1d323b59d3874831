"""Word-bounded alternatives compiled so that the regular-expression engine skips, in C.

The rules spell an English word list as ``(?<![a-z])(?:may|can|allowed …)(?![a-z])|可以|…``:
"one of these words, with no letter before or after it". Written so, the pattern opens with an
assertion, and Python's engine cannot tell from a character whether a match may start there:
it tries every alternative at every position of the text. A drift run asks such lists of
every generation's whole text (#12's bench: 1,000 generations), ~40–80 µs a search.

:func:`letter_first` writes each alternative to open with its letter, check the letter before
it right after, and carry the group's suffix itself: ``m(?<![a-z]m)ay(?![a-z])|c(?<![a-z]c)an
(?![a-z])|…|可以``. At a position holding ``m`` the look-behind sees the character before it and
that ``m``, so it fails exactly when ``(?<![a-z])`` failed (at the text's start there is no
character before, in both); ``(?:A|B)S`` and ``AS|BS`` try the same things in the same order.
So every match is the same — start, end, text — and no verdict changes (tests compare them on
the labelled sets and on generated text); a search is 3–4× faster where nothing matches.
"""

from __future__ import annotations

import re

_HEAD = "(?<![a-z])(?:"
COMPILED: list[tuple[str, re.Pattern[str]]] = []  # (the source as written, its rewrite): the test compares them


def _top_level(source: str, start: int, depth: int) -> tuple[list[str], int]:
    """Alternatives of the group (``depth`` 1) or the pattern (``depth`` 0) from ``start``, and
    where they end (the group's ``)``, or the end of the text)."""
    parts: list[str] = []
    i, begin, level = start, start, depth
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = source.index("]", i + 2)  # no "[]…]" in these lists
        elif c == "(":
            level += 1
        elif c == ")":
            level -= 1
            if level < depth:
                break
        elif c == "|" and level == depth:
            parts.append(source[begin:i])
            begin = i + 1
        i += 1
    parts.append(source[begin:i])
    return parts, i


def letter_first(source: str) -> re.Pattern[str]:
    """``source`` (``(?<![a-z])(?:word|…)SUFFIX|other…``) compiled letter first (module docstring)."""
    if not source.startswith(_HEAD) or re.search(r"(?<!\\)\((?!\?)", source):
        raise ValueError(f"not a word-bounded list without capturing groups: {source[:40]!r}")
    words, end = _top_level(source, len(_HEAD), 1)
    rest, _ = _top_level(source, end + 1, 0)
    suffix, others = rest[0], rest[1:]
    for word in words:
        if not re.fullmatch(r"[a-z]", word[:1]) or word[1:2] in ("*", "+", "?", "{"):
            raise ValueError(f"an alternative that does not open with a plain letter: {word!r}")
    compiled = re.compile("|".join([*(f"{w[0]}(?<![a-z]{w[0]}){w[1:]}{suffix}" for w in words), *others]))
    COMPILED.append((source, compiled))
    return compiled


__all__ = ["COMPILED", "letter_first"]
