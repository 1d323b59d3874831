"""Amounts as agents paraphrase them: spelled in words ("three", "half a dozen", "two hundred and
fifty"), in Chinese numerals ("三次", "五次", "两百五十美元", "十次") and in money ("$200",
"200 dollars", "200 美元").

The limit rules (``said_quantities`` and the rules built on it) read digits only, so "At most
three retries per batch" beside "Retries: up to 5 per batch", or "Keep the cloud budget under
$200" beside "two hundred and fifty dollars", were never compared (docs/verdicts.md, "The
fourth attack"). Here a text is rewritten with its spelled amounts as digits — for reading
only, never stored — and money is parsed as an amount of its own kind. A Chinese numeral is
read only before a measure word or a currency ("三次", "两百美元"), so "一起", "十分", "万一"
are never numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_ONES = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
         "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORD = "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
# "two hundred and fifty", "twenty-five", "a hundred", "three thousand"
_EN_NUMBER = re.compile(rf"(?<![a-z-])(?:a\s+(?=hundred|thousand))?(?:{_WORD})(?:(?:\s+and\s+|\s+|-)(?:{_WORD}))*(?![a-z-])")
_DOZEN = re.compile(r"(?<![a-z])(?:half\s+a\s+dozen|a\s+dozen|one\s+dozen|a\s+couple\s+of|a\s+pair\s+of)(?![a-z])")
_DOZEN_VALUE = {"half": 6, "a": 12, "one": 12}

_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
# A Chinese numeral, read only before a measure word or a currency.
_ZH_NUMBER = re.compile(r"[零〇一二两三四五六七八九十百千万]+(?=\s*(?:次|遍|回|个|条|行|批|轮|项|台|人|天|小时|分钟|秒|"
                        r"美元|美金|元|块|倍|GB|MB|%|％))")


def _en_value(words: str) -> int | None:
    total = current = 0
    seen = False
    for w in re.split(r"\s+and\s+|\s+|-", words.strip()):
        if not w or w == "a":
            current = current or 1 if w == "a" else current
            continue
        if w in _ONES:
            current += _ONES[w]
        elif w in _TENS:
            current += _TENS[w]
        elif w in _SCALES:
            scale = _SCALES[w]
            current = (current or 1) * scale
            if scale >= 1000:
                total += current
                current = 0
        else:
            return None
        seen = True
    return total + current if seen else None


def _zh_value(chars: str) -> int | None:
    if "万" in chars:
        head, _, tail = chars.partition("万")
        hi = _zh_value(head) if head else 1
        lo = _zh_value(tail) if tail else 0
        return None if hi is None or lo is None else hi * 10000 + lo
    if all(c in _ZH_DIGITS for c in chars) and len(chars) > 1:  # "二〇二五": digit by digit
        return int("".join(str(_ZH_DIGITS[c]) for c in chars))
    total = digit = 0
    for c in chars:
        if c in _ZH_DIGITS:
            digit = _ZH_DIGITS[c]
        elif c in _ZH_UNITS:
            total += (digit or 1) * _ZH_UNITS[c]
            digit = 0
        else:
            return None
    return total + digit


@lru_cache(maxsize=8192)
def with_digits(text: str) -> str:
    """``text`` (lower case) with its spelled amounts written as digits: "three retries" → "3
    retries", "half a dozen" → "6", "两百五十美元" → "250美元". For reading amounts only."""
    if not _has_spelled(text):
        return text
    out = _DOZEN.sub(lambda m: str(_DOZEN_VALUE.get(m.group().split()[0], 2) if "dozen" in m.group() else 2), text)
    out = _EN_NUMBER.sub(lambda m: str(v) if (v := _en_value(m.group())) is not None else m.group(), out)
    return _ZH_NUMBER.sub(lambda m: str(v) if (v := _zh_value(m.group())) is not None else m.group(), out)


_SPELLED = re.compile(rf"(?<![a-z])(?:{_WORD}|dozen|couple|pair)(?![a-z])|[零〇一二两三四五六七八九十百千万]")


def _has_spelled(text: str) -> bool:
    return _SPELLED.search(text) is not None


@dataclass(frozen=True, slots=True)
class Money:
    amount: float
    currency: str  # "usd", "cny", "eur", "gbp"
    text: str


_MONEY = re.compile(
    r"(?P<sym>[$€£¥￥])\s*(?P<a>\d+(?:,\d{3})*(?:\.\d+)?)(?P<k>\s*[km](?![a-z]))?|"
    r"(?<!\d)(?P<b>\d+(?:,\d{3})*(?:\.\d+)?)(?P<k2>\s*[km](?![a-z]))?\s*(?P<word>dollars?|usd|bucks|euros?|eur|pounds?|gbp|"
    r"美元|美金|欧元|英镑|元|块钱|块)(?![a-z])")
_CURRENCY = {"$": "usd", "€": "eur", "£": "gbp", "¥": "cny", "￥": "cny", "dollar": "usd", "dollars": "usd",
             "usd": "usd", "bucks": "usd", "euro": "eur", "euros": "eur", "eur": "eur", "pound": "gbp",
             "pounds": "gbp", "gbp": "gbp", "美元": "usd", "美金": "usd", "欧元": "eur", "英镑": "gbp", "元": "cny",
             "块钱": "cny", "块": "cny"}


def money(text: str) -> list[Money]:
    """Every amount of money in ``text`` (lower case, spelled amounts already digits)."""
    out: list[Money] = []
    for m in _MONEY.finditer(text):
        raw = m.group("a") or m.group("b")
        scale = (m.group("k") or m.group("k2") or "").strip()
        amount = float(raw.replace(",", "")) * {"k": 1e3, "m": 1e6}.get(scale, 1)
        out.append(Money(amount, _CURRENCY[m.group("sym") or m.group("word")], m.group()))
    return out


__all__ = ["Money", "money", "with_digits"]
