"""The words the verdict rules match, read from one data file per language.

``words/en.json`` and ``words/zh.json`` hold, per category, plain words and regular
expressions (documented in docs/verdict-words.md). Keeping them as data lets a reviewer
read exactly which words a finding can name, and extend them without touching a rule.
English words match as whole words; Chinese words as substrings (Chinese has no spaces).
All matching runs on text already normalised by ``textnorm.norm``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from inspector.domain.textnorm import CJK, norm

LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True)
class Hit:
    word: str  # the word or text the pattern matched, as it stands in the text
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class WordList:
    category: str
    pattern: re.Pattern[str] | None

    def hits(self, text_norm: str, start: int = 0, end: int | None = None) -> list[Hit]:
        if self.pattern is None:
            return []
        stop = len(text_norm) if end is None else end
        return [Hit(m.group(0), m.start(), m.end()) for m in self.pattern.finditer(text_norm, start, stop)]

    def first(self, text_norm: str, start: int = 0, end: int | None = None) -> Hit | None:
        if self.pattern is None:
            return None
        m = self.pattern.search(text_norm, start, len(text_norm) if end is None else end)
        return Hit(m.group(0), m.start(), m.end()) if m else None


@cache
def _data(lang: str) -> dict[str, dict[str, list[str]]]:
    raw = resources.files("inspector.domain.words").joinpath(f"{lang}.json").read_text(encoding="utf-8")
    return {k: v for k, v in json.loads(raw).items() if not k.startswith("_")}


def _alternative(word: str) -> str:
    w = norm(word)
    body = re.escape(w)
    if CJK.search(w):
        return body
    head = r"(?<![\w'])" if w[:1].isalnum() else ""
    tail = r"(?![\w'])" if w[-1:].isalnum() else ""
    return head + body + tail


@cache
def wordlist(category: str) -> WordList:
    """Every language's words and patterns of one category as one compiled alternation
    (longest words first, so "no longer" wins over "no")."""
    words: list[str] = []
    patterns: list[str] = []
    for lang in LANGUAGES:
        entry = _data(lang).get(category, {})
        words += entry.get("words", [])
        patterns += entry.get("patterns", [])
    parts = [_alternative(w) for w in sorted(set(words), key=len, reverse=True) if norm(w)]
    parts += [f"(?:{p})" for p in patterns]
    return WordList(category, re.compile("|".join(parts), re.IGNORECASE) if parts else None)


def raw_patterns(category: str) -> list[re.Pattern[str]]:
    """A category's regular expressions one by one (for rules that read named groups)."""
    out: list[re.Pattern[str]] = []
    for lang in LANGUAGES:
        out += [re.compile(p, re.IGNORECASE) for p in _data(lang).get(category, {}).get("patterns", [])]
    return out
