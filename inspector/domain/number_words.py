"""A number written in words, read back to its digits (deletion round ten: said in ``not_checked`` before).

- **English digit words**, as a phone or card number is read out: "one three nine, one two three
  four…", with "oh" for zero and "double" / "triple" before a digit said twice or three times. The
  words may run together (a folded text has no spaces: "onethreenine…") and any punctuation may
  stand between them. A run is read as its digits and a number is looked for anywhere in it.
- **Chinese numerals in place-value form**: 一百三十九万… (a number as counted, not read digit by
  digit — that form is domain/number_copies.py's). A run holding a unit (十 百 千 万 亿, their
  financial and traditional forms) is read as the one number it writes, and compared whole.

- **English place value** (round eleven): "one hundred thirty-nine thousand two hundred and five",
  "a hundred and five", "thirteen million …" — a run of number words holding a unit (hundred, thousand,
  million, billion, trillion) or a teen or a tens word is read as the one number it writes, and
  compared whole (as Chinese place value is). Japanese writes numbers in the same kanji as Chinese
  (一億三千九百万…; 億 and 萬 are read), so it is read there.

Not read (said in ``not_checked``): Korean and other languages' number words, a number said in pairs
("thirteen ninety-one …", as years are) and Roman or other non-decimal numerals.
"""

from __future__ import annotations

import re

_WORD_DIGITS = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_REPEAT = {"double": 2, "triple": 3}
# Factored by first letter and matched in a lower-cased text: an alternation of whole words with
# re.IGNORECASE cost 7x as much, tried at every character of every text a deletion reads.
_TOKEN = "(?:o(?:ne|h)|t(?:wo|hree|riple)|f(?:our|ive)|s(?:ix|even)|eight|nine|zero|double)"
_SEP = r"[\s,.;:/\-_·]{0,8}"  # bounded: a long run of spaces after a word costs no backtracking
# Seven words or more: fewer make no number a deletion looks for (domain/deletion.NUMBER_MIN_DIGITS).
_WORD_RUN = re.compile(f"{_TOKEN}(?:{_SEP}{_TOKEN}){{6,}}")
_ONE_TOKEN = re.compile(_TOKEN)


def english_digits(text: str) -> list[str]:
    """The digits of each run of English digit words in ``text`` ("double five" is 55)."""
    runs = []
    for match in _WORD_RUN.finditer(text.lower()):
        digits, repeat = [], 1
        for word in _ONE_TOKEN.findall(match.group()):
            if word in _REPEAT:
                repeat = _REPEAT[word]
                continue
            digits.append(_WORD_DIGITS[word] * repeat)
            repeat = 1
        runs.append("".join(digits))
    return runs


_CN_DIGIT = {"〇": 0, "零": 0, "○": 0, "一": 1, "壹": 1, "二": 2, "两": 2, "兩": 2, "贰": 2, "貳": 2, "三": 3, "叁": 3,
             "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8,
             "九": 9, "玖": 9}
_CN_UNIT = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CN_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CN_RUN = re.compile(f"[{''.join(_CN_DIGIT)}{''.join(_CN_UNIT)}{''.join(_CN_BIG)}]{{2,}}")
_CN_UNITS = frozenset((*_CN_UNIT, *_CN_BIG))


def _place_value(run: str) -> int | None:
    """The number a place-value run writes (一千三百九十一万二千三百四十五 is 13912345), or None when the
    run is not one (two digits in a row with no unit between them: digit by digit, read elsewhere)."""
    total = section = 0
    number: int | None = None
    for ch in run:
        if ch in _CN_DIGIT:
            if number not in (None, 0) and _CN_DIGIT[ch] != 0:
                return None
            number = _CN_DIGIT[ch]
        elif ch in _CN_UNIT:
            # a unit with no digit before it is one of it: 十二 is 12, and Japanese writes 百, 千 so too
            # (百三十九億千二百… : round eleven; 千 alone was read as 0)
            section += (1 if number is None else number) * _CN_UNIT[ch]
            number = None
        elif _CN_BIG[ch] == 10**8:
            total = (total + section + (number or 0)) * 10**8
            section, number = 0, None
        else:
            total += (section + (number or 0)) * 10**4
            section, number = 0, None
    return total + section + (number or 0)


def chinese_place_values(text: str) -> list[str]:
    """Each place-value number in ``text`` written in Chinese numerals, as ASCII digits."""
    if text.isascii():
        return []
    out = []
    for match in _CN_RUN.finditer(text):
        run = match.group()
        if _CN_UNITS.isdisjoint(run):
            continue
        value = _place_value(run)
        if value is not None:
            out.append(str(value))
    return out


_SMALL = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
          "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
          "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
# Longest first, so a run written together ("seventeen", "sixty") is not read as "seven", "six".
_PLACE_WORDS = sorted([*_SMALL, *_TENS, *_SCALES, "hundred"], key=len, reverse=True)
_PLACE_TOKEN = "(?:" + "|".join(_PLACE_WORDS) + ")"
_PLACE_SEP = r"(?:[\s,\-_]{0,4}(?:and[\s,\-_]{0,4})?)"  # "a hundred and five", "thirty-nine", "…, two"
# Two words or more; a leading "a" stands for one ("a hundred and five").
_PLACE_RUN = re.compile(f"(?:\\ba[\\s]{{1,4}})?{_PLACE_TOKEN}(?:{_PLACE_SEP}{_PLACE_TOKEN})+")
_PLACE_ONE = re.compile(_PLACE_TOKEN + "|^a")
_TELLING = frozenset(("hundred", *_SCALES))


class _PlaceNumber:
    """One English place-value number being read word by word (:func:`english_place_values`)."""

    def __init__(self) -> None:
        self.total, self.group, self.small, self.last_scale = 0, None, None, None
        self.words = 0

    def take(self, word: str) -> bool:
        """Add ``word``; False (nothing changed) when it cannot continue this number ("one" after
        "three", a scale not smaller than the last): it starts the next one."""
        if word in _SMALL or word in _TENS:
            value = _SMALL.get(word, _TENS.get(word, 0))
            if self.small is None:
                self.small = value
            elif self.small % 10 == 0 and self.small >= 20 and 0 < value < 10:
                self.small += value  # "thirty" "nine"
            else:
                return False
        elif word == "hundred":
            if self.group is not None or self.small is None or self.small > 9 or not self.small:
                return False
            self.group, self.small = self.small * 100, None
        else:
            scale = _SCALES[word]
            amount = (self.group or 0) + (self.small or 0)
            if (self.last_scale is not None and scale >= self.last_scale) or not amount:
                return False
            self.total += amount * scale
            self.group, self.small, self.last_scale = None, None, scale
        self.words += 1
        return True

    def value(self) -> int:
        return self.total + (self.group or 0) + (self.small or 0)


def english_place_values(text: str) -> list[str]:
    """Each number in ``text`` written in English place value ("one hundred thirty-nine thousand …"),
    as ASCII digits. A run of digit words alone ("one three nine") is none: :func:`english_digits`."""
    lowered = text.lower()
    if "illion" not in lowered:  # a number of 7+ digits (all a deletion looks for) says million or more
        return []
    out = []
    for match in _PLACE_RUN.finditer(lowered):
        words = ["one" if w == "a" else w for w in _PLACE_ONE.findall(match.group())]
        if _TELLING.isdisjoint(words) and all(w in _SMALL and _SMALL[w] < 10 for w in words):
            continue  # digit words alone
        number = _PlaceNumber()
        for word in words:  # a word that cannot go on with the number read so far starts the next
            if not number.take(word):
                if number.words > 1:
                    out.append(str(number.value()))
                number = _PlaceNumber()
                number.take(word)
        if number.words > 1:
            out.append(str(number.value()))
    return out


_KOREAN = str.maketrans({"일": "一", "이": "二", "삼": "三", "사": "四", "오": "五", "육": "六", "륙": "六", "칠": "七",
                         "팔": "八", "구": "九", "공": "〇", "영": "〇", "십": "十", "백": "百", "천": "千", "만": "万",
                         "억": "亿"})
_HANGUL_DIGITS = re.compile("[일이삼사오육륙칠팔구공영십백천만억]{2}")
_NUMERAL_SPACE = re.compile("(?<=[〇一二三四五六七八九十百千万亿]) +(?=[〇一二三四五六七八九十百千万亿])")


def korean_as_chinese(text: str) -> str | None:
    """``text`` with its Sino-Korean numeral syllables written as the Chinese numerals they are, or None
    when it holds no two in a row (most Korean text: a digit syllable alone is a word's part)."""
    if text.isascii() or not _HANGUL_DIGITS.search(text):
        return None
    # Korean spaces a place-value number by its 만 / 억 groups (백삼십구억 천이백…): joined, as Chinese writes it
    return _NUMERAL_SPACE.sub("", text.translate(_KOREAN))
