"""Counts a summary gives in words, read as digits, and the run a count's clause cites (verdict-thirteen).

"Both packages pass", "all three packages pass", "two tests failed", "两个包都通过" gave a count the
number rules never read (they read digits only), so a Go run of one ``ok`` and one ``FAIL`` package
passed "Both packages pass (evt:7)." as well as it passed "2 packages pass". Here a number word is
read only where it counts packages or tests — right before the noun ("three packages", "两个包",
"三个测试") or after "all"/"both" ("all three packages") — so "one of the fixes" or "两个方案" is left
alone. A Markdown table with passed/failed columns gives its counts as a sentence would
(:func:`table_counts`).

And a count is judged against the run it is about: the runs its clause cites (``evt:N`` of a tool
result), when it cites one; otherwise, as before, any run in range. "After the edit 2 packages pass
(evt:7)." agreed with an earlier run's two ``ok`` lines though evt:7 failed.
"""

from __future__ import annotations

import re

_EN = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
       "ten": 10, "eleven": 11, "twelve": 12}
_ZH = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_NOUN = r"(?:go\s+)?(?:packages?|tests?|test cases?|test files?)\b"
_EN_WORD = re.compile(rf"\b({'|'.join(_EN)})\b(?=\s+(?:\w+\s+)?{_NOUN})", re.IGNORECASE)
_BOTH = re.compile(rf"\bboth\s+(?:of the\s+)?(?=(?:\w+\s+)?{_NOUN})", re.IGNORECASE)
_ZH_WORD = re.compile(r"(?<![\d一二两三四五六七八九十])([一两二三四五六七八九十])\s*个\s*(?=包|测试|用例|package)")
_CITE = re.compile(r"(?<![\w:])evt:(\d+)(?!\d)")
_CLAUSES = re.compile(r"[;；]")


def digits(sentence: str) -> str:
    """``sentence`` with the number words that count packages or tests written as digits ("both
    packages pass" → "all 2 packages pass"; "两个包都通过" → "2 个包都通过")."""
    if not any(w in sentence for w in ("one", "two", "thr", "fou", "fiv", "six", "sev", "eig", "nin", "ten",
                                       "ele", "twe", "both", "个")):
        return sentence
    out = _BOTH.sub("all 2 ", sentence)
    out = _EN_WORD.sub(lambda m: str(_EN[m.group(1).casefold()]), out)
    return _ZH_WORD.sub(lambda m: f"{_ZH[m.group(1)]} 个", out)


def cited(text: str, seqs: frozenset[int]) -> frozenset[int]:
    """The ``seqs`` (tool results) that ``text`` cites as ``evt:N``."""
    return frozenset(n for n in (int(m) for m in _CITE.findall(text)) if n in seqs)


def clauses_with_cites(sentence: str, seqs: frozenset[int]) -> list[tuple[str, frozenset[int]]]:
    """The parts of a sentence to judge, each with the runs it cites (none: any run in range). A
    sentence citing no run is one part, as before; one that cites runs is cut at ``;``, each clause
    with its own citations ("The first run had all 4 packages passing; the last run (evt:7) fails":
    the count cites nothing and is about another run than evt:7)."""
    if "evt:" not in sentence or not cited(sentence, seqs):
        return [(sentence, frozenset())]
    return [(p, cited(p, seqs)) for p in _CLAUSES.split(sentence) if p.strip()]


def table_counts(text: str) -> list[tuple[str, str]]:
    """Markdown table rows with passed/failed columns, as "N passed, M failed" sentences."""
    out: list[tuple[str, str]] = []
    header: list[str] | None = None
    for line in text.splitlines():
        cells = [c.strip().casefold() for c in line.strip().strip("|").split("|")] if line.strip().startswith("|") else None
        if cells is None:
            header = None
            continue
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
            continue
        if header is None:
            header = cells
            continue
        said = ", ".join(f"{c} {h}" for h, c in zip(header, cells, strict=False)
                         if c.isdigit() and h in ("passed", "failed", "passing", "failing", "errors"))
        if said:
            out.append((said, line.strip()))
    return out


__all__ = ["cited", "clauses_with_cites", "digits", "table_counts"]
