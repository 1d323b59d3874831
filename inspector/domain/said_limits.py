"""A limit or a deadline changed in another sentence while the rule stands verbatim:
"No more than 3 retries" beside "Retries were raised to 5 retries", "Finish the export fix by
2025-06-01" beside "The export fix deadline moved to 2025-06-15", "Keep the batch size at 500
rows" beside "The batch size may exceed 500 rows when needed".

``said_lifted`` reads a number given another value beside its unit, in a clause naming two of
the value's other words; a limit that *is* only its number and unit ("3 retries") has no other
words, a date has no unit, and going past the limit keeps its number. Read here, outside the
value's own sentence, in a clause that states no other protected value:

- **changed** — a change word ("raised", "increased", "lowered", "moved", "postponed",
  "extended", "set to", "is now", "改成", "提高到", "推迟到") and another number beside the
  value's unit, or another date where the value has one (and, for a date, one of the value's
  subject words or "deadline"/"due"/"截止");
- **loosened** — the value's number and unit with a word that allows going past them
  ("may exceed", "can go over", "above", "more than", "可以超过") and half of the value's
  subject words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_lifted import _number_and_unit, subject_words
from inspector.domain.said_negation import names_word

_DATE = re.compile(r"(?<![\d])(\d{4}-\d{1,2}-\d{1,2}|\d{4}/\d{1,2}/\d{1,2}|\d{4}年\d{1,2}月\d{1,2}日)(?![\d])")
_CHANGE = re.compile(r"(?<![a-z])(?:raised|increased|lowered|reduced|decreased|changed|moved|bumped|postponed|extended|"
                     r"pushed back|pushed out|delayed|relaxed|set to|is now|are now)(?![a-z])|"
                     r"改成|改为|改到|提高|提到|降到|调到|调整为|调整到|放宽|推迟|延期|延后|延到|现在是")
_PAST = re.compile(r"(?<![a-z])(?:may|can|could|allowed to|ok to|okay to|fine to)\s+(?:exceed|go over|go above|go beyond|"
                   r"be more than|be above|be over|surpass|exceed)(?![a-z])|可以超过|允许超过|能超过|可超过|不限")
_DEADLINE = re.compile(r"(?<![a-z])(?:deadline|due|due date)(?![a-z])|截止|期限")


@lru_cache(maxsize=4096)
def _date_of(value: str) -> str | None:
    dates = _DATE.findall(norm_phrase(value))
    return dates[0] if len(dates) == 1 else None


def limit_changed(said: Said, value: str,
                  others: tuple[tuple[str, str], ...] | Callable[[], tuple[tuple[str, str], ...]] = ()) -> Hits | None:
    """A clause elsewhere that changes the value's number or date, or allows going past it."""
    numbered = _number_and_unit(value)
    date = _date_of(value)
    if numbered is None and date is None:
        return None
    v = norm_phrase(value)
    own_sentences = set(said.holding(v))
    if not own_sentences:
        return None
    if date is None and not said.has(numbered[1]):  # type: ignore[index]
        return None
    if date is not None and _DATE.search(said.text) is None:
        return None
    rivals = [norm_phrase(o) for o, _ in (others() if callable(others) else others)
              if norm_phrase(o) and norm_phrase(o) != v]
    own = [w for w in subject_words(value) if not w.isdigit() and w not in _DATE.findall(w)]
    for i, s in enumerate(said.sentences):
        if i in own_sentences:
            continue
        for c in said.clauses(s):
            text = c.text
            if any(r in text for r in rivals):
                continue
            found = (_date_moved(text, date, own) if date else None) or (
                _number_moved(text, numbered, own) if numbered else None)
            if found:
                return Hits([found], said.stripped(s))
    return None


def _date_moved(text: str, date: str, own: list[str]) -> str | None:
    others = [d for d in _DATE.findall(text) if d != date]
    if not others or date in text:
        return None
    if not (_CHANGE.search(text) or _DEADLINE.search(text)):
        return None
    if not (_DEADLINE.search(text) or any(names_word(w, text) for w in own)):
        return None
    return f"{others[0]} (the value says {date})"


def _number_moved(text: str, numbered: tuple[str, str, bool], own: list[str]) -> str | None:
    number, unit, after = numbered
    near = (re.compile(rf"(?<![\w.])(\d+(?:[.,]\d+)*)\s*{re.escape(unit)}(?![\w])") if after else
            re.compile(rf"(?<![\w]){re.escape(unit)}\s*(?:of\s+|to\s+|at\s+|=\s*|:\s*)?(\d+(?:[.,]\d+)*)(?![\w]|[.,]\d)"))
    rest = [w for w in own if w != unit]
    need = max(1, math.ceil(0.5 * len(rest)))
    for m in near.finditer(text):
        if m.group(1) != number and _CHANGE.search(text) and (
                not rest or sum(1 for w in rest if names_word(w, text)) >= need):
            return f"{m.group(1)} (the value says {number})"
        if m.group(1) == number and _PAST.search(text) and rest and sum(
                1 for w in rest if names_word(w, text)) >= need:
            return _PAST.search(text).group()  # type: ignore[union-attr]
    return None


__all__ = ["limit_changed"]
