"""Finding a sensitive number in any of its written forms, without one regex per number.

A deletion looks for each sensitive number of its targets written another way: fullwidth
digits, separators, spaces or invisible characters between them ("138-0013-8000",
"１３８００１３８０００"). That was one regex alternation of every number, each digit a class and
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

_GAP_CLASS = r"[\s\-\u2010-\u2015.·()/\u00ad\u200b-\u200f\u2060\ufeff]"
DIGIT_GAP = _GAP_CLASS + "{0,3}"
_DIGIT = r"[0-9\uff10-\uff19]"
_CHAIN = re.compile(f"{_DIGIT}(?:{DIGIT_GAP}{_DIGIT})*")
_ONE_DIGIT = re.compile(_DIGIT)
_FULLWIDTH = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)})


@dataclass(frozen=True, slots=True)
class NumberCopies:
    """The numbers (as ASCII digit strings) a text must not hold in any written form."""

    numbers: frozenset[str]
    lengths: tuple[int, ...]

    @classmethod
    def of(cls, numbers: set[str]) -> NumberCopies | None:
        if not numbers:
            return None
        return cls(frozenset(numbers), tuple(sorted({len(n) for n in numbers})))

    def search(self, text: str) -> bool | None:
        """True when ``text`` holds one of the numbers, else None (as ``re.Pattern.search``
        reads in the callers: ``is not None``)."""
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
                        return True
        return None
