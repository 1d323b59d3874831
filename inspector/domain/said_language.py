"""Which language a summary and a protected value are written in.

A value in one language and a summary in the other cannot be matched word for word: survival
and drift then say "not judged in the other language" rather than "dropped" (a false alarm) or
"kept" (a false all-clear). Kept apart from survival's rules because drift asks it too.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.drift_rules import Said

_CJK_CHAR = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[a-z]")
_LOWER = b"abcdefghijklmnopqrstuvwxyz"


def other_language(value: str, said: Said) -> bool:
    """The value is English and the summary mostly Chinese, or the reverse."""
    key = ("language",)
    lang = said._memo.get(key)
    if lang is None:
        text = said.text[:1000]  # the language of a summary is the language of its start
        if text.isascii():  # the usual English summary: no counting
            lang = said._memo[key] = "en" if _LATIN.search(text) else "mixed"
        else:
            # Counted in C: the characters outside ASCII (Chinese and its punctuation) against
            # the lower-case Latin letters (the text is case-folded).
            ascii_part = text.encode("ascii", "ignore")
            other = len(text) - len(ascii_part)
            latin = len(ascii_part) - len(ascii_part.translate(None, _LOWER))
            cjk = other if _CJK_CHAR.search(text) else 0
            lang = said._memo[key] = "zh" if cjk and cjk * 3 >= latin else "en" if latin and not cjk else "mixed"
    if lang == "mixed":
        return False
    value_lang = _value_language(value)
    return value_lang is not None and (lang == "zh") != (value_lang == "zh")


@lru_cache(maxsize=16384)
def _value_language(value: str) -> str | None:
    if _CJK_CHAR.search(value):
        return "zh"
    return "en" if _LATIN.search(value.lower()) else None
