"""A sensitive number is found in the same written forms as the one-regex-per-number pattern
found it, without its cost (domain/number_copies.py): a pasted log of 12,000 request ids made a
9 MB pattern that took 28 s to compile, so deleting such a log took minutes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.domain.deletion import number_pattern
from inspector.domain.number_copies import DIGIT_GAP, NumberCopies


def _old_pattern(numbers: set[str]) -> re.Pattern[str]:
    """The pattern deletion used before (session 15): an alternation of every number."""
    alternatives = [DIGIT_GAP.join(f"[{d}{chr(0xFF10 + int(d))}]" for d in n) for n in numbers]
    return re.compile(f"(?:{'|'.join(sorted(alternatives))})(?![0-9\uff10-\uff19])")


_PIECES = st.sampled_from(["1", "3", "8", "0", "１", "３", "８", "０", "-", " ", "\u200b", ".", "(", "a", "x", "\n",
                           "  ", "---", "9"])


@settings(max_examples=400, deadline=None)
@given(st.sets(st.text(alphabet="0138", min_size=7, max_size=9), min_size=1, max_size=4),
       st.lists(_PIECES, max_size=60), st.data())
def test_the_same_texts_hold_a_number_as_under_the_old_pattern(numbers: set[str], pieces: list[str],
                                                               data: st.DataObject) -> None:
    text = "".join(pieces)
    if data.draw(st.booleans()):  # a number written another way, somewhere in the text
        n = data.draw(st.sampled_from(sorted(numbers)))
        gaps = [data.draw(st.sampled_from(["", "", "-", " ", "\u200b", " - ", "....", "a"])) for _ in n]
        written = "".join(d if data.draw(st.booleans()) else chr(0xFF10 + int(d)) for d in n)
        written = "".join(c + g for c, g in zip(written, gaps, strict=True))
        at = data.draw(st.integers(0, len(text)))
        text = text[:at] + written + text[at:]
    copies = NumberCopies.of(numbers)
    assert copies is not None
    assert (copies.search(text) is not None) == (_old_pattern(numbers).search(text) is not None), text


def test_forms_a_copy_may_take_are_found_and_a_longer_number_is_not() -> None:
    copies = number_pattern(["call me on 13800138000 please"])
    assert copies is not None
    for text in ("13800138000", "138-0013-8000", "138 0013 8000", "１３８００１３８０００", "138-00\u200b13-8000",
                 "tel:(138) 0013.8000.", "9913800138000 x"):  # digits before it: as the old pattern
        assert copies.search(text) is not None, text
    for text in ("138001380001", "1380013800", "138 - - - - 0013 8000", "138a0013b8000"):
        assert copies.search(text) is None, text


def test_twelve_thousand_numbers_make_a_matcher_at_once() -> None:
    """The old pattern of this many numbers was 9 MB of regex (28 s to compile); a set is built
    in the time it takes to read them, and one search of a long text finds the last one."""
    numbers = {str(10**11 + 7919 * i) for i in range(12_000)}
    copies = NumberCopies.of(numbers)
    assert copies is not None
    text = " ".join(f"id {int(n) + 1}" for n in sorted(numbers)) + " and then 1" + max(numbers)[1:]
    assert copies.search(text[:-12]) is None
    assert copies.search(text) is not None
