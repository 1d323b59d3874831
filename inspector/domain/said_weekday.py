"""A deadline given as a weekday, moved elsewhere: "The fix ships by Monday." beside "Ship the fix
by Friday", "周一前上线修复" beside "周五前上线修复" (verdict-nine).

The limit rules read ISO and Chinese calendar dates ("2025-06-15", "12月3日"); a weekday was no
date to them, so a summary that kept the rule word for word and moved its day elsewhere was
"no drift". Read: a value that bounds its act by a weekday ("by / before / until / no later than
Friday", "周五前", "星期五之前"), and a clause elsewhere that names half its subject's words and
gives the same bound word another weekday — or names the deadline ("deadline", "due", "截止")
with another weekday. A clause that denies or asks says nothing; one holding the value is its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_steps import denies, first_at, telling_words

_DAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAYS_ZH = "一二三四五六日天"
_EN = re.compile(r"(?<![a-z])(?P<bound>by|before|until|till|no later than|not later than)\s+(?:this\s+|next\s+)?"
                 r"(?P<day>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?![a-z])")
_ZH = re.compile(r"(?:周|星期|礼拜)(?P<day>[一二三四五六日天])(?P<bound>之前|以前|前)")
_DEADLINE = re.compile(r"(?<![a-z])(?:deadline|due|cut-?off)(?![a-z])|截止|期限|最晚")
_CUT = re.compile(r"[;；。.!！\n]|(?<![a-z])but(?![a-z])|但是|不过")


@dataclass(frozen=True, slots=True)
class DayMoved:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def weekday_of(value: str) -> tuple[str, str, tuple[str, ...]] | None:
    """(the bound word, the weekday, the subject's telling words) of a weekday deadline, or None."""
    v = norm_phrase(value)
    m = _EN.search(v) or _ZH.search(v)
    if m is None:
        return None
    rest = (v[:m.start()] + " " + v[m.end():]).strip()
    words = tuple(w for w in telling_words(rest) if not w.isdigit())
    return (m.group("bound"), _day(m.group("day")), words) if words else None


def _day(day: str) -> str:
    return "日" if day == "天" else day


def weekday_moved(said: Said, value: str) -> DayMoved | None:
    """The first clause elsewhere that gives the value's weekday deadline another day."""
    shape = weekday_of(value)
    if shape is None:
        return None
    bound, day, words = shape
    zh = not bound.isascii()
    pattern = _ZH if zh else _EN
    if not said.remember(("weekday_cue", zh), lambda: pattern.search(said.text) is not None
                         or (not zh and any(d in said.text for d in _DAYS_EN))
                         or (zh and re.search(f"(?:周|星期)[{_DAYS_ZH}]", said.text) is not None)):
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    need = max(1, math.ceil(0.5 * len(words)))
    for s in said.sentences:
        if v in s.text:
            continue
        for part in _CUT.split(s.text):
            if "?" in part or sum(1 for w in words if first_at(part, w) >= 0) < need:
                continue
            if any(_day(m.group("day")) == day for m in pattern.finditer(part)):
                continue  # "By Monday we knew the fix would ship by Friday": the own deadline kept
            for m in pattern.finditer(part):
                if _day(m.group("day")) != day and not denies(part[:m.start()]):
                    return DayMoved((m.group(),), said.stripped(s))
            if _DEADLINE.search(part):
                other = _other_day(part, day, zh)
                if other and not denies(part):
                    return DayMoved((other,), said.stripped(s))
    return None


def weekday_kept(sentence: str, value: str) -> bool:
    """The sentence gives the value's own weekday deadline and no other day ("The fix ships by
    Friday as planned."): a restatement, not a sentence the subject rule must leave unjudged."""
    shape = weekday_of(value)
    if shape is None:
        return False
    bound, day, _ = shape
    text = norm_phrase(sentence)
    found = [_day(m.group("day")) for m in (_EN if bound.isascii() else _ZH).finditer(text)]
    return bool(found) and all(d == day for d in found) and not _other_day(text, day, not bound.isascii())


def _other_day(part: str, day: str, zh: bool) -> str:
    if zh:
        m = re.search(f"(?:周|星期|礼拜)([{_DAYS_ZH}])", part)
        return m.group() if m and _day(m.group(1)) != day else ""
    m = re.search(r"(?<![a-z])(" + "|".join(_DAYS_EN) + r")(?![a-z])", part)
    return m.group() if m and m.group() != day else ""


__all__ = ["DayMoved", "weekday_kept", "weekday_moved", "weekday_of"]
