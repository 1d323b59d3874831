"""In which spelling a text holds a deletion's value: the one question every scan asks of a text.

The rows of a session, a material's bytes, the names and ledger entries, and the files beside the
store are each read the same way (services/deletion_*.py), so a spelling looked for in one is looked
for in all: the value folded, escaped or encoded (domain/deletion_forms.LooseMatcher), a number
reformatted, in Chinese numerals or in words (domain/number_copies.NumberCopies), and then the text's
other readings — CSS escapes, UTF-7, a separator between every letter (domain/other_readings.py).

The answer names the spelling ("base64 of UTF-16", "a number in English words", "UTF-7"), so a
listing can say where each copy was *and how it was written* — never the value itself.
"""

from __future__ import annotations

from inspector.domain.deletion_forms import ESCAPED, FOLDED, LooseMatcher, fold
from inspector.domain.number_copies import NumberCopies
from inspector.domain.other_readings import css_decoded, utf7_decoded

SPACED = "a separator between every letter"


_DIGITS = frozenset("0123456789")


def _either(text: str, folded: str, loose: LooseMatcher, numbers: NumberCopies | None, *,
            whole: bool = True) -> str | None:
    """The spelling a value is found in, in ``text`` as folded (and, ``whole``, as written: encodings,
    hex dumps); a second reading (``whole=False``) is read folded only — its decoded characters are
    an escape's, which no base64 or hex copy holds."""
    found = (loose.spelling(text, folded) if whole else loose.folded_spelling(text, folded)) if loose else None
    if found is None and numbers is not None:
        found = numbers.search(folded)
    return found


def spelled_in(text: str, loose: LooseMatcher, numbers: NumberCopies | None, folded: str | None = None) -> str | None:
    """The name of the spelling in which ``text`` holds one of the values, or None when it holds none."""
    folded = fold(text) if folded is None else folded
    found = _either(text, folded, loose, numbers)
    if found is not None:
        return found
    chars = loose.chars | (_DIGITS if numbers is not None else frozenset())

    def wanted(piece: str) -> bool:  # a decoded character some value (or number) holds
        return not chars.isdisjoint(piece.casefold() if piece.isascii() else fold(piece))

    for how, read in (("CSS escapes", css_decoded), ("UTF-7", utf7_decoded)):
        reading = read(text, wanted)
        if reading is not None and (inner := _either(reading, fold(reading), loose, numbers, whole=False)) is not None:
            return how if inner in (FOLDED, ESCAPED) else f"{how}, then {inner}"
    return SPACED if loose.spaced(text) else None
