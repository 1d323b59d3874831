"""Undo the disguises that hide a word from the verdict rules but not from a reader.

A summary that says "That restriction was li\u200bfted", "ｌｉｆｔｅｄ", "liftеd" (a Cyrillic
е) or "pas\u00adsed" reads as "lifted" / "passed" to a person and to the model that gets it,
yet no word list matches it: drift said "no drift" and survival "kept" on a cancelled
constraint. The normal form every verdict compares in (``textnorm``) therefore:

- drops invisible format characters (zero-width space/joiners, soft hyphen, word joiner,
  bidi controls, BOM, variation selectors, tag characters, Hangul fillers);
- folds fullwidth ASCII letters and digits and mathematical alphanumerics to ASCII
  ("８０８０" is 8080, "𝐩𝐚𝐬𝐬𝐞𝐝" is passed) — fullwidth punctuation (，：（）) stays, the
  clause rules read it as it is;
- in a word that mixes Latin letters with Cyrillic or Greek ones, maps the look-alikes
  to the Latin letters they imitate (a whole Russian or Greek word is left alone).

What stays undone: look-alikes from other scripts, and words made only of look-alikes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
_FOLDABLE = "\uff10-\uff19\uff21-\uff3a\uff41-\uff5a\U0001d400-\U0001d7ff"
_LOOKALIKE_SCRIPTS = "\u0370-\u03ff\u0400-\u04ff"
# One search tells whether a (non-ASCII) text needs any of this; most do not.
ANY = re.compile(f"[{_INVISIBLE}{_FOLDABLE}{_LOOKALIKE_SCRIPTS}]")
_INVISIBLE_RE = re.compile(f"[{_INVISIBLE}]+")
_FOLDABLE_RE = re.compile(f"[{_FOLDABLE}]")
# One character of each kind, for a reader that names which kind a span hides (said_disguised).
INVISIBLE_CHAR = re.compile(f"[{_INVISIBLE}]")
FOLDABLE_CHAR = _FOLDABLE_RE
LOOKALIKE_CHAR = re.compile(f"[{_LOOKALIKE_SCRIPTS}]")
# A word is looked at from its first letter only (the lookbehind): from each of its letters, the
# two lookaheads read a long word to its end again (quadratic on a long single-line text).
_MIXED_WORD = re.compile(f"(?<![^\\W\\d_])(?=[^\\W\\d_]*[a-zA-Z])(?=[^\\W\\d_]*[{_LOOKALIKE_SCRIPTS}])[^\\W\\d_]+")

# Cyrillic and Greek letters drawn like Latin ones (Unicode confusables, the common subset).
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g",
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H", "О": "O",
    "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ԁ": "D", "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "l",
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
})


@lru_cache(maxsize=4096)
def has_disguise(text: str) -> bool:
    """Whether the text holds anything ``undisguise`` undoes — remembered per text, since every
    generation's text is asked twice: when its normal form is made and by ``said_disguised``."""
    return ANY.search(text) is not None


def latinised(text: str) -> str:
    """``text`` with look-alike letters inside Latin words made Latin (a whole Russian or Greek
    word is left alone): ``zq.hіdden@…`` with a Cyrillic ``і`` reads as ``zq.hidden@…``."""
    return _MIXED_WORD.sub(lambda m: m.group().translate(_LOOKALIKES), text) if LOOKALIKE_CHAR.search(text) else text


def undisguise(text: str) -> str:
    """``text`` with invisible characters dropped, fullwidth/mathematical letters and digits
    folded to ASCII, and look-alike letters inside Latin words made Latin."""
    if not has_disguise(text):
        return text
    text = _INVISIBLE_RE.sub("", text)
    text = _FOLDABLE_RE.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    return _MIXED_WORD.sub(lambda m: m.group().translate(_LOOKALIKES), text)
