"""The words the verdict rules match, read from one data file per language.

``words/en.json`` and ``words/zh.json`` hold, per category, plain words and regular
expressions (documented in docs/verdicts.md). Keeping them as data lets a reviewer
read exactly which words a finding can name, and extend them without touching a rule.
English words match as whole words; Chinese words as substrings (Chinese has no spaces).
All matching runs on text already normalised by ``textnorm.norm``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from inspector.domain.textnorm import CJK, norm

LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True)
class Hit:
    word: str  # the word or text the pattern matched, as it stands in the text
    start: int
    end: int


# Characters that end a sentence (textnorm.sentences cuts after them).
SENTENCE_ENDS = "。！？!?.\n"


@dataclass(frozen=True, slots=True)
class WordList:
    category: str
    pattern: re.Pattern[str] | None
    # No word holds a sentence end and there are no patterns: no match can cross a
    # sentence start, so a scan may begin at any sentence start (see ``Said.hits``).
    local: bool = False
    words: tuple[str, ...] = ()  # normalised
    patterns: tuple[str, ...] = ()
    firsts: tuple[str, ...] = ()  # the first characters of the words

    def restricted(self, present: frozenset[str]) -> WordList:
        """The same list without the words whose first character is not in ``present``.
        For a text holding none of those characters such a word matches nowhere, and the
        rest compile to the very alternatives (same order) the whole list has: every scan
        of that text finds the same matches, trying fewer alternatives at each position.

        Compiling costs a few milliseconds, as much as scanning ~100 KB, so a restricted
        list is compiled only once the same restriction has come back ``_WORTH`` times (the
        generations of one session tend to hold the same characters); until then, and when
        ``_KEPT`` restrictions are held already, the whole list scans (same matches)."""
        if len(present) == len(self.firsts):
            return self
        key = (self.category, present)
        found = _RESTRICTED.get(key)
        if found is not None:
            return found
        seen = _SEEN[key] = _SEEN.get(key, 0) + 1
        if seen < _WORTH or len(_RESTRICTED) >= _KEPT:
            if len(_SEEN) > 4 * _KEPT:
                _SEEN.clear()  # a bound on what is counted; counting starts again
            return self
        found = _RESTRICTED[key] = _restricted(_MADE[self.category], present)
        return found

    def iter_hits(self, text_norm: str, start: int = 0) -> Iterator[Hit]:
        """The matches from ``start`` on, one at a time (the caller stops when it has enough)."""
        if self.pattern is not None:
            for m in self.pattern.finditer(text_norm, start):
                yield Hit(m.group(0), m.start(), m.end())

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


_MAX_TREE_NESTING = 120  # groups nested deeper than this overflow the regular-expression parser's recursion


def _trie(words: list[str]) -> str:
    """One regular expression matching any of ``words``, shaped as a prefix tree
    ("no(?: longer| need to)?|not…"): at each position the engine tests one character
    per branch instead of every word, and a longer word still wins over its prefix
    (greedy optional), exactly as a longest-first alternation would.

    Built without recursion and with single-child chains written as one literal, since the
    words may be values taken from a transcript (a 5,000-character record value must not
    exhaust Python's stack); a tree nested deeper than the parser can read (every prefix of a
    long word its own word) falls back to that longest-first alternation."""
    root: dict[str, Any] = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    if _nesting(root) > _MAX_TREE_NESTING:
        return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    done: dict[int, str] = {}
    stack: list[tuple[dict[str, Any], bool]] = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if not ready:
            stack.append((node, True))
            stack.extend((_chain(child)[1], False) for ch, child in node.items() if ch)
            continue
        branches = []
        for ch, child in sorted(node.items()):
            if ch:
                literal, end = _chain(child)
                branches.append(re.escape(ch + literal) + done[id(end)])
        if not branches:
            done[id(node)] = ""
            continue
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        done[id(node)] = f"(?:{body})?" if "" in node else body
    return done[id(root)]


def _chain(node: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The letters of a run of nodes with one child and no word ending, and the node after it."""
    letters = []
    while len(node) == 1 and "" not in node:
        (ch, node), = node.items()
        letters.append(ch)
    return "".join(letters), node


def _nesting(root: dict[str, Any]) -> int:
    """How deep the emitted groups nest: one level per node that ends a word or branches."""
    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        here = depth + (1 if len(node) > 1 else 0)
        deepest = max(deepest, here)
        stack.extend((child, here) for ch, child in node.items() if ch)
    return deepest


def _compiled(words: list[str], patterns: list[str]) -> re.Pattern[str] | None:
    """One alternative per first letter (and word-boundary need: English words match
    whole, Chinese words as substrings), each the prefix tree of the rest of its words,
    then the category's own patterns. Every alternative opens with a plain letter, so the
    regular-expression engine skips, in C, every position whose letter starts no word.

    Every caller matches text already case-folded (``norm`` or ``str.casefold``) and the
    words are normalised the same way, so words match exactly (faster than IGNORECASE);
    a pattern with ASCII letters in it keeps IGNORECASE, as written."""
    groups: dict[tuple[str, bool, bool], list[str]] = {}
    for word in {norm(w) for w in words if norm(w)}:
        latin = not CJK.search(word)
        groups.setdefault((word[0], latin and word[:1].isalnum(), latin and word[-1:].isalnum()), []).append(word[1:])
    alternatives = []
    for (first, head, tail), rests in sorted(groups.items()):
        # After the first letter, "(?<![\w'].)" says the letter before it was no word letter.
        alternatives.append(re.escape(first) + (r"(?<![\w'].)" if head else "") + _trie(rests)
                            + (r"(?![\w'])" if tail else ""))
    alternatives += [_pattern_alternative(p) for p in patterns]
    return re.compile("|".join(alternatives)) if alternatives else None


# An escaped punctuation character or an uncased symbol opening a pattern, not repeated.
_LEAD = re.compile(r"^(\\[^\w\s]|[^\\\w\s.^$*+?{}()\[\]|])(?![*+?{])")


def _pattern_alternative(pattern: str) -> str:
    """A pattern as one alternative, case-insensitive when it holds ASCII letters. A plain
    character opening it ("\\[" of "\\[…x\\]") is kept outside the flag group: the engine
    then skips, in C, every position whose character opens no alternative of the whole
    list; one alternative opening with a group (or an assertion) makes it try every
    alternative at every position — four times slower on the "done" list."""
    if not re.search(r"[A-Za-z]", re.sub(r"\\.", "", pattern)):
        return f"(?:{pattern})"
    lead = _LEAD.match(pattern)
    if lead is None:
        return f"(?i:{pattern})"
    return f"{lead.group(1)}(?i:{pattern[lead.end():]})"


@cache
def wordlist(category: str | tuple[str, ...]) -> WordList:
    """Every language's words and patterns of one category (or of several, as one list:
    a rule that accepts either kind of word scans the text once) as one compiled
    expression (a longer word wins over its prefix, so "no longer" wins over "no")."""
    categories = (category,) if isinstance(category, str) else category
    words: list[str] = []
    patterns: list[str] = []
    for lang in LANGUAGES:
        for cat in categories:
            entry = _data(lang).get(cat, {})
            words += entry.get("words", [])
            patterns += entry.get("patterns", [])
    normal = tuple(sorted({norm(w) for w in words if norm(w)}))
    local = not patterns and not any(ch in SENTENCE_ENDS for w in normal for ch in w)
    made = _MADE["+".join(categories)] = WordList("+".join(categories), _compiled(list(normal), patterns), local,
                                                  normal, tuple(patterns), tuple(sorted({w[0] for w in normal})))
    return made


# Every list ``wordlist`` made, by its name ("negation+weakening"), for ``_restricted``.
_MADE: dict[str, WordList] = {}


# Restricted lists compiled so far, and how often each not yet compiled one was asked for.
_RESTRICTED: dict[tuple[str, frozenset[str]], WordList] = {}
_SEEN: dict[tuple[str, frozenset[str]], int] = {}
_WORTH, _KEPT = 3, 256


def _restricted(whole: WordList, present: frozenset[str]) -> WordList:
    words = tuple(w for w in whole.words if w[0] in present)
    return WordList(whole.category, _compiled(list(words), list(whole.patterns)), whole.local, words,
                    whole.patterns, tuple(sorted(present)))


def raw_patterns(category: str) -> list[re.Pattern[str]]:
    """A category's regular expressions one by one (for rules that read named groups)."""
    out: list[re.Pattern[str]] = []
    for lang in LANGUAGES:
        out += [re.compile(p, re.IGNORECASE) for p in _data(lang).get(category, {}).get("patterns", [])]
    return out


def pairs(category: str) -> dict[str, list[str]]:
    """A category's word → equivalents table (``"pairs"``), every language merged."""
    out: dict[str, list[str]] = {}
    for lang in LANGUAGES:
        raw = resources.files("inspector.domain.words").joinpath(f"{lang}.json").read_text(encoding="utf-8")
        for k, v in json.loads(raw).get(category, {}).get("pairs", {}).items():
            out.setdefault(k, []).extend(v)
    return out
