"""Quantities and dates as a reader compares them: "10 GB" is "10000 MB", "60 seconds" is "1
minute", "2025-06-01" is "June 1, 2025", "1 June 2025", "2025/06/01" and "2025年6月1日".

The limit rules (``said_limits``, ``said_limits_plain``, ``said_lifted``) compared a number
beside the *same unit word* and ISO dates only, so "Uploads are capped at 20000 MB" beside
"Keep uploads under 10 GB", or "Export fix due: June 15, 2025" beside "… by 2025-06-01", were
never read — and "The export finished in 42 seconds" beside "… under 60 seconds" read as a
change when it is a measurement within the limit. This module only parses and compares;
what counts as a limit restated is the rules' business.

- A quantity is a number and a unit: a known unit (bytes, time, percent; English and
  Chinese: "GB", "minutes", "秒", "小时") converts to a base amount — bytes both decimal and
  binary (10 GB is 10000 MB and 10240 MB), so a faithful re-spelling never alarms; any other
  word after the number ("rows", "retries", "行", "次") is a count of that thing, equal only to
  the same thing (singular or plural).
- A date is a set of (year, month, day) readings: "06/15/2025" reads both ways where both are
  dates; "6月15日" has no year and matches any year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_BYTES = {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 1024,
          "mib": 1024 ** 2, "gib": 1024 ** 3, "tib": 1024 ** 4, "兆": 1e6}
_BINARY = {"kb": 1024, "mb": 1024 ** 2, "gb": 1024 ** 3, "tb": 1024 ** 4}
_TIME = {"ms": 1e-3, "msec": 1e-3, "millisecond": 1e-3, "milliseconds": 1e-3, "s": 1, "sec": 1, "secs": 1,
         "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600,
         "hrs": 3600, "hour": 3600, "hours": 3600, "d": 86400, "day": 86400, "days": 86400, "week": 604800,
         "weeks": 604800, "毫秒": 1e-3, "秒": 1, "秒钟": 1, "分钟": 60, "分": 60, "小时": 3600, "个小时": 3600,
         "天": 86400, "日": 86400, "周": 604800, "星期": 604800}
_PERCENT = {"%": 1, "percent": 1, "pct": 1, "％": 1}
UNIT_WORDS = frozenset([*_BYTES, *_TIME, *_PERCENT])
_KNOWN = sorted([*_BYTES, *_TIME, *_PERCENT], key=len, reverse=True)
_NUM = r"(\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_QUANTITY = re.compile(
    rf"(?<![\w.]){_NUM}\s*(?:(?P<known>{'|'.join(re.escape(u) for u in _KNOWN)})(?![a-z])|"
    r"(?P<count>(?<=\s)[a-z][a-z-]{1,20}(?![\w])|[\u3400-\u9fff]))")
_BARE_NUMBER = re.compile(rf"(?<![\w.:/-]){_NUM}(?![\w]|[.,]\d|\s*(?:[a-z%％]|[\u3400-\u9fff]))")
# Words after a number that measure nothing: "3 of 10", "5 to 7", "2 and".
_NOT_UNITS = frozenset("of to and or in on at by for from the a an with than as per vs".split())


@dataclass(frozen=True, slots=True)
class Quantity:
    number: float
    dimension: str  # "bytes", "time", "percent", or "count:<thing>"
    amounts: tuple[float, ...]  # the base amounts it may mean (bytes: decimal and binary)
    text: str

    def same(self, other: Quantity) -> bool:
        """The same amount of the same thing, however spelled."""
        if self.dimension != other.dimension:
            return False
        return any(abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1) for a in self.amounts for b in other.amounts)


def _stem(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def quantities(text: str) -> list[Quantity]:
    """Every number with a unit in ``text`` (normal form: lower case)."""
    out: list[Quantity] = []
    for m in _QUANTITY.finditer(text):
        n = _number(m.group(1))
        known = m.group("known")
        if known:
            if known in _BYTES:
                amounts = {n * _BYTES[known], n * _BINARY.get(known, _BYTES[known])}
                out.append(Quantity(n, "bytes", tuple(sorted(amounts)), m.group()))
            elif known in _TIME:
                out.append(Quantity(n, "time", (n * _TIME[known],), m.group()))
            else:
                out.append(Quantity(n, "percent", (n,), m.group()))
            continue
        thing = m.group("count")
        if not _countable(thing, n) or _looks_like_date_part(text, m.end()):
            continue
        out.append(Quantity(n, "count:" + _stem(thing.strip("-")), (n,), m.group()))
    return out


def _looks_like_date_part(text: str, end: int) -> bool:
    return text[end - 1:end] in "年月" if end > 0 else False


def bare_numbers(text: str) -> list[float]:
    """Numbers with no unit after them ("Retry limit: 5.")."""
    return [_number(m.group(1)) for m in _BARE_NUMBER.finditer(text)]


# Chinese measure words a count is given in ("500 行", "3 次").
_ZH_COUNTS = frozenset("行次个条台份页项人张篇封件批轮遍位列字元块核笔单")
_NOT_NOUNS = frozenset("must should can may might will would could shall is are was were be been has have had do does "
                       "did hold holds more less times per".split())
_STANDALONE = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w]|[.,]\d)")


def _countable(thing: str, n: float) -> bool:
    """A word that counts things: a plural noun ("rows", "retries"), or a singular after 1, or
    a Chinese measure word; not a verb, a modal or a preposition ("42 must hold", "3 of 10")."""
    if not thing.isascii():
        return thing in _ZH_COUNTS
    if thing in _NOT_UNITS or thing in _NOT_NOUNS or len(thing) < 3 or thing.endswith(("ed", "ing", "ly")):
        return False
    return thing.endswith("s") or n == 1


@lru_cache(maxsize=4096)
def quantity_of(value: str) -> Quantity | None:
    """The one quantity a protected value states ("Keep uploads under 10 GB" → 10 GB), or None
    (no number with a unit, or several numbers: "约束 42：值 42 must hold" measures nothing)."""
    low = value.lower()
    if len(_STANDALONE.findall(low)) > 1:
        return None
    found = quantities(low)
    return found[0] if len(found) == 1 else None


_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|" \
         r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_DATES = (
    re.compile(r"(?<!\d)(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<!\d)(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]?"),
    re.compile(r"(?<![\d年])(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"),
    re.compile(rf"(?<![a-z]){_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])(?:,?\s+(?P<y>\d{{4}}))?"),
    re.compile(rf"(?<!\d)(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?![a-z])(?:,?\s+(?P<y>\d{{4}}))?"),
    re.compile(r"(?<![\d/.])(?P<a>\d{1,2})[/.](?P<b>\d{1,2})[/.](?P<y>\d{4})(?!\d)"),
)

Day = tuple[int | None, int, int]


@dataclass(frozen=True, slots=True)
class DateSaid:
    start: int
    end: int
    readings: frozenset[Day]

    def same(self, other: DateSaid) -> bool:
        return any(_same_day(a, b) for a in self.readings for b in other.readings)


def _same_day(a: Day, b: Day) -> bool:
    return a[1:] == b[1:] and (a[0] is None or b[0] is None or a[0] == b[0])


def _valid(y: int | None, m: int, d: int) -> bool:
    return 1 <= m <= 12 and 1 <= d <= 31


def dates(text: str) -> list[DateSaid]:
    """Every date in ``text`` (normal form), each with the readings it may have."""
    out: list[DateSaid] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATES:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            g = m.groupdict()
            y = int(g["y"]) if g.get("y") else None
            readings: set[Day] = set()
            if g.get("a"):
                a, b = int(g["a"]), int(g["b"])
                readings |= {(y, mm, dd) for mm, dd in ((a, b), (b, a)) if _valid(y, mm, dd)}
            else:
                month = _MONTHS[g["mon"].rstrip(".")[:4] if g["mon"].startswith("sept") else g["mon"].rstrip(".")[:3]] \
                    if g.get("mon") else int(g["m"])
                if _valid(y, month, int(g["d"])):
                    readings.add((y, month, int(g["d"])))
            if readings and g.get("mon") == "may" and y is None:
                continue  # "the 3 may be …": "may" without a year is the verb
            if readings:
                taken.append((m.start(), m.end()))
                out.append(DateSaid(m.start(), m.end(), frozenset(readings)))
    return sorted(out, key=lambda d: d.start)


@lru_cache(maxsize=4096)
def date_of(value: str) -> DateSaid | None:
    """The one date a protected value states, or None."""
    found = dates(value.lower())
    return found[0] if len(found) == 1 else None


_TIME_OF_DAY = re.compile(r"(?<![\d:])([01]?\d|2[0-3])[:：]([0-5]\d)(?![\d:])")


def times(text: str) -> tuple[str, ...]:
    """Times of day ("02:00", "4:00" → "04:00"), in order."""
    return tuple(f"{int(h):02d}:{m}" for h, m in _TIME_OF_DAY.findall(text))


@lru_cache(maxsize=4096)
def times_of(value: str) -> tuple[str, ...]:
    """The times of day a protected value states ("the 02:00-04:00 UTC window")."""
    return times(value.lower())


__all__ = ["times", "times_of", "DateSaid", "Quantity", "bare_numbers", "date_of", "dates", "quantities", "quantity_of"]
