"""A protected value found only after undoing a disguise: the reader sees it, the bytes are others.

The normal form every verdict compares in undoes disguises (``disguise.py``: invisible
characters, fullwidth and look-alike letters) and Unicode forms (NFC), so that a cancelling
word hidden from the rules ("li\u200bfted") is still read. The same folding made a *kept* value
kept whatever its bytes: "Only write to /srv/billing/d\u0430ta" with a Cyrillic а, a zero-width
space inside the path, "port ５４３２" in fullwidth digits, "Nev\u200der disable" — each a silent ✓
(verdict-four), though the path names another file, a grep for the port finds nothing, and a
model or a script reading the summary reads other characters than the rule's.

``disguised`` says so: the value is in the normal form of the text, but no occurrence of it
stands in the text's own characters (compared after case, white space and typographic quotes
only). Drift reports ``value_disguised`` — a warning that says a person must read it (``check``
shows ``?``), survival ``unknown`` — and names what was undone, with the span in the summary's
characters and the hidden ones written out (``da<U+200B>ta``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from inspector.domain.disguise import FOLDABLE_CHAR, INVISIBLE_CHAR, LOOKALIKE_CHAR, has_disguise
from inspector.domain.quotes import original
from inspector.domain.said import Said
from inspector.domain.textnorm import find_value, norm

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u3000": " "})


@dataclass(frozen=True, slots=True)
class Disguise:
    shown: str  # the span in the summary's characters, hidden ones written out
    how: str  # what was undone to find the value ("a zero-width or invisible character", …)


def disguises(text: str) -> bool:
    """Whether the text holds anything the normal form undoes beyond case, space and quotes
    (once per generation; an ASCII text never does)."""
    if text.isascii():
        return False
    # The normal form asked the same of this text when it was made (``has_disguise`` remembers).
    return not unicodedata.is_normalized("NFC", text) or has_disguise(text)


def _light(text: str) -> str:
    """Case, white space and typographic quotes only: the text's own characters otherwise."""
    return " ".join(text.translate(_QUOTES).casefold().split())


def disguised(text: str, said: Said, value: str, forms: tuple[str, ...] = ()) -> Disguise | None:
    """The value's disguised occurrence, when the text holds it only disguised; else None.
    ``forms``: the normalised forms that also name it (a path's file name: survival's
    identifier kinds), each of which must be missing from the text's own characters too."""
    found = [f for f in (forms or (norm(value),)) if f and find_value(said.flat(), f) >= 0]
    if not found:
        return None
    light = said.remember(("light",), lambda: _light(text))
    if any(find_value(light, _light(f)) >= 0 for f in (forms or (value,))):
        return None  # it stands in the text's own characters too
    span = original(text, found[0]) or found[0]
    how = []
    if INVISIBLE_CHAR.search(span):
        how.append("a zero-width or invisible character")
    if LOOKALIKE_CHAR.search(span):
        how.append("a look-alike letter from another script")
    if FOLDABLE_CHAR.search(span):
        how.append("fullwidth or mathematical letters or digits")
    if not how:
        how.append("another Unicode form of its accents (NFD)")
    shown = "".join(f"<U+{ord(ch):04X}>" if INVISIBLE_CHAR.match(ch) or LOOKALIKE_CHAR.match(ch) else ch for ch in span)
    return Disguise(shown, " and ".join(how))


__all__ = ["Disguise", "disguised", "disguises"]
