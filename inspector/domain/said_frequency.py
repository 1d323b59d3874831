"""A rule's frequency restated: "Rotate the logs every hour" kept word for word, then "Logs are
rotated every day." or "日志每天轮换一次。" (verdict-eight).

The limit rules read an amount beside a unit ("5 MB", "1 hour"); "every hour", "hourly", "每小时"
is no amount, so a summary moving it was "no drift" (Chinese) or only a ``?`` (English). A value
naming one period — "every N seconds/minutes/hours/days/weeks/months", "hourly", "daily",
"once a day", "twice a day", "3 times an hour", "每小时", "每天", "每 5 分钟", "每周" — is read as that period in seconds; a sentence
elsewhere that names the value's subject (its other telling words, for Chinese a two-character
piece of it), is not denied, and gives one period:

- another period — ``protected_negated`` (survival ``contradicted``): the act is said to happen at
  another rate;
- the same period in other words ("hourly", "every 60 minutes", "每小时") — the rule restated:
  the subject rule's ``?`` for that sentence is dropped (``frequency_kept``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_steps import denies, telling_words
from inspector.domain.textnorm import CJK, norm

_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800, "month": 2592000,
            "秒": 1, "分钟": 60, "分": 60, "小时": 3600, "钟头": 3600, "天": 86400, "日": 86400, "周": 604800,
            "星期": 604800, "月": 2592000}
_ADVERB = {"hourly": 3600, "daily": 86400, "nightly": 86400, "weekly": 604800, "monthly": 2592000}
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10, "twelve": 12, "fifteen": 15,
          "thirty": 30, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "十": 10, "半": 0.5}
_EN = re.compile(r"(?<![a-z])(?:every|each|once (?:an?|per|every))\s+(?:(?P<n>\d+|one|two|three|four|five|six|ten|"
                 r"twelve|fifteen|thirty)\s+)?(?P<unit>second|minute|hour|day|week|month)s?(?![a-z])|"
                 r"(?<![a-z])(?P<adv>hourly|daily|nightly|weekly|monthly)(?![a-z])|"
                 r"(?<![a-z])(?:(?P<times>twice|thrice)|(?P<k>\d+|two|three|four|five|six|ten|twelve) times)\s+"
                 r"(?:an?|per|each|every)\s+(?P<per>second|minute|hour|day|week|month)(?![a-z])")
_ZH = re.compile(r"每(?:隔)?\s*(?P<n>\d+|[一两二三四五六十半])?\s*个?\s*(?P<unit>秒|分钟|小时|钟头|天|日|周|星期|月|分)")
# "一天三次", "一天备份一次", "两周一次": a count of periods, then a count of times (verdict-nine)
_ZH_PER = re.compile(r"(?<![每\d一两二三四五六十半今昨明前后当])(?P<n>\d+|[一两二三四五六十半])\s*个?\s*(?P<unit>小时|钟头|天|日|周|星期|月)"
                     r"(?P<mid>[\u3400-\u9fff]{0,4}?)(?P<k>\d+|[一两二三四五六十])\s*次")
_ZH_TIMES = re.compile(r"[^\d，。；,;]{0,4}?(\d+|[一两二三四五六十])\s*次")
_FREQ_CHARS = re.compile(r"[每秒分钟小时头天日周星期月隔个一两二三四五六十半次]")
_CUE = re.compile(r"every|each|once|twice|thrice|times|hourly|daily|nightly|weekly|monthly|每|次")


@dataclass(frozen=True, slots=True)
class Frequency:
    words: tuple[str, ...]  # (the summary's period, the rule's)
    sentence: str
    same: bool


def _period(m: re.Match[str]) -> float:
    if m.groupdict().get("adv"):
        return float(_ADVERB[m.group("adv")])
    if m.groupdict().get("per"):  # "twice a day": a period of half a day
        k = m.group("k")
        times = 2 if m.group("times") == "twice" else 3 if m.group("times") else float(k) if k.isdigit() else _WORDS[k]
        return _SECONDS[m.group("per")] / times
    n = m.group("n")
    count = float(n) if n and n.isdigit() else float(_WORDS.get(n, 1)) if n else 1.0
    return count * _SECONDS[m.group("unit")]


def _periods(text: str) -> list[tuple[float, str, int]]:
    pat = _ZH if CJK.search(text) and "每" in text else None
    out = [(_period(m), m.group().strip(), m.start()) for m in _EN.finditer(text)]
    if pat is not None:
        for m in pat.finditer(text):  # "每天轮换 24 次": a day over 24, an hour
            k = _ZH_TIMES.match(text, m.end())
            n = k.group(1) if k else "1"
            times = float(n) if n.isdigit() else float(_WORDS.get(n, 1))
            out.append((_period(m) / (times or 1), m.group().strip(), m.start()))
    if CJK.search(text) and "次" in text:
        for m in _ZH_PER.finditer(text):
            mid = m.group("mid")  # "三天前备份了两次": a time ago and a count, no rate
            if any(a <= m.start() < a + len(w) for _, w, a in out) or _FREQ_CHARS.sub("", mid) != mid or re.search(
                    r"[前后了过来内里]", mid):
                continue
            k = m.group("k")
            times = float(k) if k.isdigit() else float(_WORDS.get(k, 1))
            out.append((_period(m) / (times or 1), m.group().strip(), m.start()))
    return out


@lru_cache(maxsize=4096)
def frequency_of(value: str) -> tuple[float, str, tuple[str, ...]] | None:
    """(the period in seconds, its words, the subject words) when the value names one period."""
    v = norm(value).rstrip("。.!！ ")
    found = _periods(v)
    if len(found) != 1:
        return None
    period, words, _ = found[0]
    rest = v.replace(words, " ")
    subject = [w[:5] for w in telling_words(rest) if w.isascii() and len(w) >= 3 and not w.isdigit()]
    for run in re.findall(r"[\u3400-\u9fff]+", rest):
        subject += [run[i:i + 2] for i in range(len(run) - 1) if not _FREQ_CHARS.search(run[i:i + 2])]
    subject = list(dict.fromkeys(subject))
    return (period, words, tuple(subject)) if subject else None


def _read(said: Said, value: str) -> list[Frequency]:
    f = frequency_of(value)
    if f is None or not said.remember(("freq_cue",), lambda: _CUE.search(said.text) is not None):
        return []
    period, words, subject = f
    v = norm(value).rstrip("。.!！ ")
    need = min(len(subject), 2)  # "Checked the logs every day" is not "rotate the logs"
    out: list[Frequency] = []
    for s in said.sentences:
        if v in s.text or sum(1 for w in subject if w in s.text) < need:
            continue
        found = _periods(s.text)
        # "Logs are rotated hourly, backups run daily.": two periods, each in a clause of its own
        # subject — the clause naming the rule's (verdict-nine).
        parts = [s.text] if len(found) == 1 else [c for c in re.split(r"[,，;；]", s.text)
                                                   if sum(1 for w in subject if w in c) >= need]
        for text in parts:
            found = _periods(text)
            if len(found) != 1 or denies(text[:found[0][2]]):
                continue
            out.append(Frequency((found[0][1], words), said.stripped(s), abs(found[0][0] - period) < 1e-6))
    return out


def frequency_moved(said: Said, value: str) -> Frequency | None:
    """The first sentence giving the rule's act another period."""
    return next((f for f in said.remember(("frequency", value), lambda: _read(said, value)) if not f.same), None)


def frequency_kept(said: Said, value: str) -> frozenset[str]:
    """The sentences restating the rule's period in other words."""
    return frozenset(f.sentence for f in said.remember(("frequency", value), lambda: _read(said, value)) if f.same)


__all__ = ["Frequency", "frequency_kept", "frequency_moved", "frequency_of"]
