"""Finding a sensitive number in any of its written forms, without one regex per number.

A deletion looks for each sensitive number of its targets written another way: fullwidth
digits, separators, spaces or invisible characters between them ("138-0013-8000",
"１３８００１３８０００", "一三八〇〇一三八〇〇〇"). That was one regex alternation of every number, each digit a class and
each gap ``_DIGIT_GAP``: a pasted log with 12,000 request ids read as numbers made a 9 MB
pattern that took 28 s to compile and 3 s per 200,000 characters to search, so deleting it
took minutes (huge-eight, untrusted-eight). Here a regex finds each *chain* of digits (digits
with at most three gap characters between neighbours) once, and the chain's digits are looked
up in a set: the same matches, in time linear in the text.

The rule is unchanged: a number matches where its digits appear in order with 0–3 gap
characters between neighbours and no digit right after its last one (digits before it may
be anything: the old pattern had no look-behind either).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.number_words import (
    chinese_place_values,
    english_digits,
    english_place_values,
    korean_as_chinese,
)

# Between two digits: spaces, dashes, dots, brackets, slashes, underscores, commas, colons (ASCII,
# fullwidth and the Chinese enumeration comma), invisible characters.
_GAP_CLASS = r"[\s\-\u2010-\u2015.·()/_,:\uff0c\u3001\uff1a\u00ad\u200b-\u200f\u2060\ufeff]"
DIGIT_GAP = _GAP_CLASS + "{0,3}"
# A phone or card number read out in Chinese is written digit by digit: 一三九… (幺 for 1 when a
# number is spoken, 〇/零/○ for 0), or in the financial numerals 壹贰叁… (and their traditional forms).
CHINESE_DIGITS = {
    "〇": 0, "零": 0, "○": 0, "一": 1, "幺": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "三": 3, "叁": 3, "參": 3,
    "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}
_DIGIT = r"[0-9\uff10-\uff19]"
_CHAIN = re.compile(f"{_DIGIT}(?:{DIGIT_GAP}{_DIGIT})*")
_ONE_DIGIT = re.compile(_DIGIT)
_FULLWIDTH = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)})
# Chinese numerals are a chain of their own, matched anywhere in it: a numeral word may follow
# the number at once ("…五六七八一下", "一个"), so "no digit right after" would miss the copy.
_CN_DIGIT = f"[{''.join(CHINESE_DIGITS)}]"
_CN_CHAIN = re.compile(f"{_CN_DIGIT}(?:{DIGIT_GAP}{_CN_DIGIT})+")
_CN_PLAIN = str.maketrans({c: str(d) for c, d in CHINESE_DIGITS.items()})
_NOT_CN_DIGIT = re.compile(f"[^{''.join(CHINESE_DIGITS)}]+")


WRITTEN = "a number with other separators or digits"
IN_CHINESE = "a number in Chinese numerals, digit by digit"


@dataclass(frozen=True, slots=True)
class NumberCopies:
    """The numbers (as ASCII digit strings) a text must not hold in any written form."""

    numbers: frozenset[str]
    lengths: tuple[int, ...]
    turned: frozenset[str] = frozenset()  # those that are a number of the targets reversed

    @classmethod
    def of(cls, numbers: set[str], turned: set[str] | None = None) -> NumberCopies | None:
        if not numbers:
            return None
        return cls(frozenset(numbers), tuple(sorted({len(n) for n in numbers})), frozenset(turned or ()))

    def _said(self, number: str, how: str) -> str:
        return f"{how}, reversed" if number in self.turned else how

    def search(self, text: str, *, in_words: bool = True) -> str | None:
        """How ``text`` writes one of the numbers (the name of its spelling), else None (callers
        read it as ``re.Pattern.search``: ``is not None``). ``in_words=False`` leaves out numbers in
        words (English, Chinese place value): a scan that reads the same text folded afterwards
        (deletion_scan) finds them there, and reading them twice cost a listing 5–10 %."""
        shortest = self.lengths[0]
        for chain in _CHAIN.finditer(text):
            run = chain.group()
            digits = [m.start() for m in _ONE_DIGIT.finditer(run)]
            if len(digits) < shortest:
                continue
            plain = "".join(run[i] for i in digits).translate(_FULLWIDTH)
            for k in range(shortest, len(digits) + 1):
                # a match may end at the k-th digit only if no digit follows it at once
                if k < len(digits) and digits[k] == digits[k - 1] + 1:
                    continue
                for n in self.lengths:
                    if n > k:
                        break
                    if plain[k - n:k] in self.numbers:
                        return self._said(plain[k - n:k], WRITTEN)
        return self._in_chinese(text, in_words) or (self._in_words(text) if in_words else None)

    def _anywhere(self, plain: str) -> str | None:
        return next((plain[i:i + n] for n in self.lengths for i in range(len(plain) - n + 1)
                     if plain[i:i + n] in self.numbers), None)

    def _in_chinese(self, text: str, place_value: bool = True, *, korean: bool = True) -> str | None:
        if text.isascii():
            return None
        if korean and (written := korean_as_chinese(text)) is not None:  # 공일공 일이삼사…: read as 〇一〇 一二三四…
            found = self._in_chinese(written, place_value, korean=False)
            if found is not None:
                return found.replace("Chinese", "Korean (Sino-Korean)")
        shortest = self.lengths[0]
        for chain in _CN_CHAIN.finditer(text):
            plain = _NOT_CN_DIGIT.sub("", chain.group()).translate(_CN_PLAIN)
            if len(plain) >= shortest and (found := self._anywhere(plain)) is not None:
                return self._said(found, IN_CHINESE)
        for value in chinese_place_values(text) if place_value else ():
            if value in self.numbers:
                return self._said(value, "a number in Chinese place-value numerals")
        return None

    def _in_words(self, text: str) -> str | None:
        for plain in english_digits(text):
            if (found := self._anywhere(plain)) is not None:
                return self._said(found, "a number in English words")
        for value in english_place_values(text):
            if value in self.numbers:
                return self._said(value, "a number in English place-value words")
        return None
