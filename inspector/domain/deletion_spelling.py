"""In which spelling a text holds a deletion's value: the one question every scan asks of a text.

The rows of a session, a material's bytes, the names and ledger entries, and the files beside the
store are each read the same way (services/deletion_*.py), so a spelling looked for in one is looked
for in all: the value folded, escaped or encoded (domain/deletion_forms.LooseMatcher), a number
reformatted, in Chinese numerals or in words (domain/number_copies.NumberCopies), and then the text's
other readings — CSS escapes, UTF-7, a separator between every letter (domain/other_readings.py) —
and since round eleven the text's encoded runs decoded and read again (domain/encoded_readings.py),
so an encoding of an escaped, UTF-16 or case-changed spelling (or of another encoding) is found.

The answer names the spelling ("base64 of UTF-16", "a number in English words", "UTF-7"), so a
listing can say where each copy was *and how it was written* — never the value itself.
"""

from __future__ import annotations

from collections.abc import Iterator

from inspector.domain.deletion import AS_WRITTEN
from inspector.domain.deletion_forms import ESCAPED, FOLDED, LooseMatcher, fold
from inspector.domain.encoded_readings import encoded_reading
from inspector.domain.number_copies import NumberCopies
from inspector.domain.other_readings import css_decoded, utf7_decoded

SPACED = "a separator between every letter"


_DIGITS = frozenset("0123456789")


def _either(text: str, folded: str, loose: LooseMatcher, numbers: NumberCopies | None, *,
            whole: bool = True, every: bool = False) -> Iterator[str]:
    """The spellings a value is found in, in ``text`` as folded (and, ``whole``, as written: encodings,
    hex dumps); a second reading (``whole=False``) is read folded only — its decoded characters are
    an escape's, which no base64 or hex copy holds. ``every``: each spelling, not the first."""
    if loose:
        if every:
            yield from loose.spellings(text, folded, whole=whole)
        else:
            found = loose.spelling(text, folded) if whole else loose.folded_spelling(text, folded)
            if found is not None:
                yield found
    if numbers is not None:
        found = numbers.search(folded)
        if found is not None:
            yield found


def _spellings(text: str, loose: LooseMatcher, numbers: NumberCopies | None, folded: str | None, *,
               every: bool, depth: int, bounds: list[str] | None) -> Iterator[str]:
    """Each spelling of a value in ``text``, cheapest reading first (the first is all most callers ask)."""
    folded = fold(text) if folded is None else folded
    yield from _either(text, folded, loose, numbers, every=every)
    if len(text) > READ_MAX:  # the second readings of a text this long: its start, and said (bounds)
        text = text[:READ_MAX]
        if bounds is not None:
            bounds.append(BOUND)
    chars = loose.chars | (_DIGITS if numbers is not None else frozenset())

    def wanted(piece: str) -> bool:  # a decoded character some value (or number) holds
        return not chars.isdisjoint(piece.casefold() if piece.isascii() else fold(piece))

    for how, read in (("CSS escapes", css_decoded), ("UTF-7", utf7_decoded)):
        reading = read(text, wanted)
        if reading is not None:
            for inner in _either(reading, fold(reading), loose, numbers, whole=False, every=every):
                yield how if inner in (FOLDED, ESCAPED) else f"{how}, then {inner}"
    if loose.spaced(text):
        yield SPACED
    if depth < _DEPTH:  # runs of base64, base32, hex, Ascii85 decoded and read again (encoded_readings.py)
        joined: dict[str, list[str]] = {}  # the runs of one encoding read as one text: linear in their number
        for piece in encoded_reading(text):
            joined.setdefault(piece.how, []).append(piece.text)
        for how, pieces in joined.items():
            text = "\n".join(pieces)
            for inner in _spellings(text, loose, numbers, None, every=every, depth=depth + 1, bounds=bounds):
                plain = inner == FOLDED and loose.written_in(text)  # the value itself, encoded
                yield how if plain else f"{how} of: {inner}"


_DEPTH = 2  # an encoding of an encoding of a spelling (base64 of hex of the value escaped)
# The second readings (CSS escapes, UTF-7, a separator between every letter, encoded runs decoded) are
# made of a text's first READ_MAX characters: each is linear, yet text built to attack them costs up to
# ~2 s a megabyte, and an event of 50 MB would hold a listing for minutes. A text past it is read as
# written and folded whole (every spelling of deletion_forms), and the listing names it (BOUND).
READ_MAX = 2 << 20
BOUND = ("its text past 2 MiB was read as written and folded (case, escapes, base64, hex, …) but not in the "
         "second readings (CSS escapes, UTF-7, a separator between every letter, encoded runs decoded)")


def spelled_in(text: str, loose: LooseMatcher, numbers: NumberCopies | None, folded: str | None = None, *,
               bounds: list[str] | None = None) -> str | None:
    """The name of the spelling in which ``text`` holds one of the values, or None when it holds none.
    A reading cut short by a bound appends what it left to ``bounds``."""
    return next(_spellings(text, loose, numbers, folded, every=False, depth=0, bounds=bounds), None)


def spellings_in(text: str, loose: LooseMatcher, numbers: NumberCopies | None) -> list[str]:
    """Every spelling in which ``text`` holds a value, each once, in the order found ("as written"
    first when the value is there as written): a record may hold a value in several, and a listing
    that named only the first hid the others (round ten said "as written" for a record that also
    held base64)."""
    out = [AS_WRITTEN] if loose.written_in(text) else []
    for how in _spellings(text, loose, numbers, None, every=True, depth=0, bounds=None):
        outer = how.split(" of: ", 1)[0] if " of: " in how else None  # a decoded run: said once by its encoding
        if how in out or (how == FOLDED and out[:1] == [AS_WRITTEN]) or (
                outer is not None and any(o.startswith(outer) for o in out)):
            continue
        out.append(how)
    return out
