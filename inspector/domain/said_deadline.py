"""A deadline said in words, moved or dropped elsewhere in the summary (verdict-ten).

Round nine read a weekday ("by Friday" → "by Monday", said_weekday.py) and calendar dates; a
deadline said in words was no date to any rule, so a summary that kept "Ship the fix by the end of
the month" word for word and later said "The fix deadline moved to the end of next month", "The
incident report is due in three weeks" (for "in two weeks"), "The release branch freezes this
Friday" (for "next Friday"), "… by April" (for "by March") or "There is no deadline for the fix any
more" was "no drift" or at best "?". Read here, in English and Chinese:

- the end of a period: "by the end of the month", "end of next week", "EOD", "月底前", "下个月底", "年底";
- a span: "in two weeks", "within 10 days", "两周内", "三天之内";
- a weekday with "this"/"next": "next Friday", "this Friday", "下周五", "本周五" (a bare "Friday"
  agrees with either: it does not say which);
- a month: "by March", "before April", "in June", "3月前".

A clause elsewhere that names half the value's telling words (or the word "deadline" / "due" /
"截止", when no other protected value gives a deadline) and gives another deadline of
those shapes moves it; one that names its subject and says there is no deadline ("no deadline",
"whenever", "no rush", "不再有截止日期", "没有期限") drops it. Both are ``protected_negated``. A
clause that denies or asks says nothing; the value's own sentence is its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_steps import denies, first_at, telling_words

_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5,
        "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_DAYS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30, "months": 30, "天": 1, "日": 1, "周": 7, "星期": 7,
         "个星期": 7, "个月": 30, "月": 30}
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_DAYS = "一二三四五六日天"
_PERIOD = {"month": "month", "week": "week", "year": "year", "quarter": "quarter", "day": "day", "sprint": "sprint",
           "月": "month", "周": "week", "年": "year", "季度": "quarter"}

_SHAPES = re.compile(
    r"(?<![a-z])(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|(?P<next>next)\s+)?(?P<period>day|week|month|quarter|year|sprint)"
    r"(?![a-z])|(?<![a-z])(?P<eo>eod|eow|eom)(?![a-z])"
    r"|(?<![a-z])(?:in|within)\s+(?:the\s+next\s+)?(?P<n>\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)\s+(?P<unit>days?|weeks?|months?)(?![a-z])"
    r"|(?<![a-z])(?:(?P<rel>this|next|coming)\s+)?(?P<day>" + "|".join(_WEEKDAYS) + r")(?![a-z])"
    r"(?P<after>\s+after\s+next|\s+week)?"
    r"|(?<![a-z])(?:by|before|until|till|in|of|end of|early|late|mid-?)\s*(?P<month>" + "|".join(_MONTHS[:4] + _MONTHS[5:])
    + r")(?![a-z])"
    r"|(?P<znext>下个?|本|这个?|今)?(?P<zperiod>月|年|季度)(?:底|末)(?:之前|以前|前)?|(?P<zweekend>下个?|本|这个?)?周末(?:之前|以前|前)?"
    r"|(?P<zn>\d+|[一二两三四五六七八九十]+)\s*(?P<zunit>个星期|个月|天|日|周|星期)(?:内|之内|以内)"
    r"|(?P<zrel>下|本|这)?个?(?:周|星期|礼拜)(?P<zday>[" + _ZH_DAYS + r"])(?:之前|以前|前)?"
    r"|(?P<zmonth>\d{1,2}|十[一二]?|[一二三四五六七八九])月(?:份)?(?:前|之前|以前|底前)")
_DEADLINE_WORD = re.compile(r"(?<![a-z])(?:deadline|due|cut-?off)(?![a-z])|截止|期限|最晚")
_DROPPED = re.compile(r"(?<![a-z])(?:no (?:longer (?:a |any )?)?(?:deadline|due date|rush|time limit)|without (?:a |any )?"
                      r"deadline|deadline (?:was |has been |is )?(?:dropped|removed|lifted|waived|cancell?ed|gone)|"
                      r"whenever|any ?time|no hurry)(?![a-z])|不再有截止|没有截止|没有期限|不设期限|不限期|截止日期(?:已)?取消|"
                      r"不着急|不急|随时")
_CUT = re.compile(r"[;；。.!！\n]|(?<![a-z])but(?![a-z])|但是|不过")

Deadline = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DeadlineMoved:
    words: tuple[str, ...]
    sentence: str


def _count(n: str) -> int:
    if n.isdigit():
        return int(n)
    if n in _NUM:
        return _NUM[n]
    if n.startswith("十"):  # 十一, 十二
        return 10 + _NUM.get(n[1:], 0)
    return _NUM.get(n[0], 0) * 10 + _NUM.get(n[-1], 0) if len(n) == 3 else 0


def _token(m: re.Match[str]) -> Deadline:
    g = m.groupdict()
    if g["period"]:
        return ("end", g["period"], "next" if g["next"] else "this")
    if g["eo"]:
        return ("end", {"eod": "day", "eow": "week", "eom": "month"}[g["eo"]], "this")
    if g["n"]:
        return ("in", str(_count(g["n"]) * _DAYS[g["unit"]]))
    if g["day"]:
        if g["after"]:  # "the Friday after next", "Friday week": two weeks on
            return ("day", g["day"], "after next")
        return ("day", g["day"], "next" if g["rel"] in ("next", "coming") else g["rel"] or "")
    if g["month"]:
        return ("month", str(_MONTHS.index(g["month"]) + 1))
    if g["zperiod"]:
        return ("end", _PERIOD[g["zperiod"]], "next" if (g["znext"] or "").startswith("下") else "this")
    if "周末" in m.group():
        return ("end", "week", "next" if (g["zweekend"] or "").startswith("下") else "this")
    if g["zn"]:
        return ("in", str(_count(g["zn"]) * _DAYS[g["zunit"]]))
    if g["zday"]:
        day = _WEEKDAYS[(_ZH_DAYS.index(g["zday"]) if g["zday"] != "天" else 6)]
        return ("day", day, {"下": "next", "本": "this", "这": "this"}.get(g["zrel"] or "", ""))
    return ("month", str(_count(g["zmonth"])))


def _agree(a: Deadline, b: Deadline) -> bool:
    """The same deadline; a weekday without this/next agrees with either."""
    if a[:2] == b[:2] and a[0] == "day":
        return not a[2] or not b[2] or a[2] == b[2]
    return a == b


@lru_cache(maxsize=4096)
def deadline_of(value: str) -> tuple[Deadline, tuple[str, ...]] | None:
    """(the value's deadline, its subject's telling words) when the value gives one deadline in words."""
    v = norm_phrase(value)
    found = list(_SHAPES.finditer(v))
    if len(found) != 1:
        return None
    m = found[0]
    rest = (v[:m.start()] + " " + v[m.end():]).strip()
    words = tuple(w for w in telling_words(rest) if not w.isdigit() and w not in ("by", "before", "until", "前"))
    return (_token(m), words) if words else None


def deadline_moved(said: Said, value: str, others: Iterable[str] = ()) -> DeadlineMoved | None:
    """The first clause elsewhere that gives the value's deadline another one, or drops it.
    ``others``: the session's other protected values (a clause stating another's deadline is about it)."""
    shape = deadline_of(value)
    if shape is None:
        return None
    own, words = shape
    if not said.remember(("deadline_cue",), lambda: _SHAPES.search(said.text) is not None
                         or _DROPPED.search(said.text) is not None):
        return None
    rivals = [d[0] for d in (deadline_of(o) for o in others if o != value) if d is not None]
    v = norm_phrase(value).rstrip("。.!！ ")
    # A Chinese run counts once, whichever of its pieces names it ("修复" of "发布修复").
    groups = [[p for p in words if p in w] for w in words if not any(w != o and w in o for o in words)]
    need = max(1, math.ceil(0.5 * len(groups)))
    for s in said.sentences:
        if v in s.text:
            continue
        for part in _CUT.split(s.text):
            if "?" in part or "？" in part:
                continue
            named = sum(1 for g in groups if any(first_at(part, w) >= 0 for w in g)) >= need
            if not named and (rivals or not _DEADLINE_WORD.search(part)):
                continue  # "deadline" alone names the value only when no other protected value has one
            dropped = _DROPPED.search(part)
            if dropped and named and not denies(part[:dropped.start()]):
                return DeadlineMoved((dropped.group(),), said.stripped(s))
            given = [(m, _token(m)) for m in _SHAPES.finditer(part)]
            if not given or any(_agree(t, own) for _, t in given):
                continue  # no deadline here, or the value's own one restated
            m, _ = given[0]
            if not denies(part[:m.start()]):
                return DeadlineMoved((m.group().strip(),), said.stripped(s))
    return None


def deadline_kept(sentence: str, value: str) -> bool:
    """The sentence gives the value's own deadline and no other, and drops nothing ("The fix is
    planned for the end of the month."): a restatement the subject rule need not leave unjudged."""
    shape = deadline_of(value)
    if shape is None:
        return False
    text = norm_phrase(sentence)
    given = [_token(m) for m in _SHAPES.finditer(text)]
    return bool(given) and all(_agree(t, shape[0]) for t in given) and _DROPPED.search(text) is None


def deadline_restated(said: Said, value: str) -> tuple[str, str] | None:
    """A sentence that gives the value's own deadline (``deadline_kept``) beside half its subject's
    words, in other words than the value's ("The user wants the fix shipped by the end of the month."
    of "Ship the fix by the end of the month"): (the deadline words, the sentence). Drift's rule for a
    confirmed rule wants its words; this one is not called missing but left to a person (verdict-twelve)."""
    shape = deadline_of(value)
    if shape is None:
        return None
    words = shape[1]
    need = max(1, math.ceil(0.5 * len(words)))
    for s in said.sentences:
        if deadline_kept(s.text, value) and sum(1 for w in words if first_at(s.text, w) >= 0) >= need:
            m = _SHAPES.search(norm_phrase(s.text))
            return (m.group().strip() if m else value), said.stripped(s)
    return None


__all__ = ["DeadlineMoved", "deadline_kept", "deadline_moved", "deadline_of", "deadline_restated"]
