"""Telling a value a deletion removed when it arrives again, without keeping the value.

A deletion removes every copy the store holds when it runs. A transcript that is still being
followed can write the same phone number again a minute later: the next poll imported it as
one more event, and nothing said that a value a carried-out request removed was back in the
store (docs/reviews/untrusted-seven.md). The deletion's ledger entry cannot keep the values
(DESIGN rule 2), so it keeps a keyed digest of each one's normal form (:func:`fingerprints`);
each later import digests the values its new events hold the same way (:func:`held`) and
names every event whose digest matches a done request's — a later copy, which that request
did not and cannot cover (a new request removes it).

What matches: a sensitive value (phone, e-mail, ID, card, address, key: however its digits
are separated or spaced, in any case) or a whole line of 16+ characters of the targets,
repeated as a line or a sensitive value of the new event's text, tool arguments or other
fields — also spelled in another script's digits, with marks on its digits or with look-alike
letters (``١٣٩…``, ``zq.hіdden@…``: each text is read a second time in its plain spelling,
deletion_forms.plain_spelling, hostile review eight), and with its escapes decoded (URL, JSON,
HTML, quoted-printable), ROT13-ed or reversed (a value or line of up to 96 characters), or in
Chinese numerals (一三九…: hostile review nine); since round ten also CSS-escaped or in UTF-7, and a
number in English digit words or Chinese place-value numerals.
Since round eleven also a number in English place-value words, and a copy in base64, base32, hex or
Ascii85 (between ``<~ ~>``) of any spelling above: the text's encoded runs are decoded and read like
the text (domain/encoded_readings.py — the reading the deletion listing makes of every record, so a
copy the listing finds encoded, follow finds too), and :func:`split_between` reads two neighbouring
events joined, so a value cut in two across them is recognised.
A sensitive value with a separator between every letter is recognised by a digest of its letters
alone, which a deletion keeps since round eleven (:func:`letter_fingerprints`). A copy in undelimited
base85, or a target line embedded in a longer line, is not recognised from a digest; ``deletion``
lists it while the request is pending, not after.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from inspector.domain.deletion import NUMBER_MIN_DIGITS, secret_values, sensitive_values
from inspector.domain.deletion_forms import decoded, fold, plain_spelling, rot13
from inspector.domain.deletion_spelling import READ_MAX
from inspector.domain.encoded_readings import encoded_reading
from inspector.domain.number_copies import CHINESE_DIGITS
from inspector.domain.number_words import (
    chinese_place_values,
    english_digits,
    english_place_values,
    korean_as_chinese,
)
from inspector.domain.other_readings import css_decoded, letters_of, spaced_letters, utf7_decoded

PREFIX = "deleted-value:"  # so a value's fingerprint never equals another keyed digest of the same text
_NUMBERISH = re.compile(r"[0-9\uff10-\uff19\s\-\u2010-\u2015.·()/+]+")
_SPACE = re.compile(r"\s+")
_DIGIT = re.compile(r"\d")
_CHINESE = str.maketrans({c: str(d) for c, d in CHINESE_DIGITS.items()})
_CHINESE_RUN = re.compile(f"(?:[{''.join(CHINESE_DIGITS)}][\\s\\-.·、，,]{{0,3}}){{7,}}")
# An escape that can hide part of a sensitive value: one decoding to "@", a digit or a non-ASCII
# character, any backslash escape, an HTML entity other than the five of markup, a soft line break.
# A text with none ("%20", "&amp;", "x=1") is not decoded and read again.
_TELLING_ESCAPE = re.compile(r"%(?:40|3[0-9]|[89A-Fa-f][0-9A-Fa-f]|[uU][0-9A-Fa-f]{4})|\\+[uUx0-3]"
                             r"|&(?!(?:amp|lt|gt|quot|apos);)#?[0-9A-Za-z]+;|=(?:40|3[0-9]|[C-F][0-9A-F]|\r?\n)")
def _telling(piece: str) -> bool:
    """A decoded CSS or UTF-7 piece that can be part of a value: a sign, a digit, a non-ASCII character
    (an escaped letter alone hides nothing a digest of the value could not find as written)."""
    return any(not ch.isalpha() or not ch.isascii() for ch in piece)


_DEPTH = 2  # an encoding of an encoding (domain/deletion_spelling.py reads as deep)
_TURNED_MAX = 96  # a sensitive value is shorter; a longer line of the targets is not looked for turned
_DIGIT_RUN = re.compile(r"\d(?:[\s\-.]{0,3}\d){6,}")


def normal(value: str) -> str:
    """The form two spellings of one value share: a number's digits alone (ASCII), else the
    text case-folded with its white space removed."""
    if _NUMBERISH.fullmatch(value):
        digits = "".join(_DIGIT.findall(value))
        if not digits.isascii():  # fullwidth digits, read as ASCII ones
            digits = "".join(str(int(ch)) for ch in digits)
        if len(digits) >= NUMBER_MIN_DIGITS:
            return digits
    return _SPACE.sub("", value.casefold())


def fingerprints(values: Iterable[str], digest: Callable[[str], str]) -> list[str]:
    """The keyed digests a deletion keeps of the values it removed, sorted, each once."""
    return sorted({digest(PREFIX + normal(v)) for v in values if normal(v)})


LETTERS = "deleted-letters:"  # a sensitive value's letters and digits alone (a separator between every letter)
_LETTER_CUTS = 4096  # candidate spellings digested per text: a run's every prefix and suffix (hostile text: bounded)
_LETTERS_MAX = 96  # letters of the longest sensitive value looked for so (an address; a key is shorter)


def letter_fingerprints(values: Iterable[str], digest: Callable[[str], str]) -> list[str]:
    """The keyed digests of each sensitive value's letters and digits alone (round eleven): a copy
    written with a separator between every letter (``z.q.h.i.d…``) keeps only those, and is recognised
    by them (:func:`_spaced_prints`). A deletion made before keeps none, so such a copy after it is not."""
    keys = {letters_of(fold(v)) for text in values for v in sensitive_values(text)}
    return sorted({digest(LETTERS + k) for k in keys if NUMBER_MIN_DIGITS <= len(k) <= _LETTERS_MAX})


def _spaced_prints(text: str, digest: Callable[[str], str]) -> set[str]:
    """The digests a text's runs of single letters with separators between (other_readings.spaced_letters)
    may match: each run's letters, and their prefixes and suffixes (a run may start or end with a letter
    that is no part of the value: "a z.q.h…"), at most :data:`_LETTER_CUTS` a text."""
    out: set[str] = set()
    for run in spaced_letters(text.casefold()):
        most = min(len(run), _LETTERS_MAX) + 1  # a sensitive value's letters are fewer: no cut longer is made
        cuts = {run[:n] for n in range(NUMBER_MIN_DIGITS, most)} | {run[-n:] for n in range(NUMBER_MIN_DIGITS, most)}
        for cut in cuts:
            if len(out) >= _LETTER_CUTS:
                return out
            out.add(digest(LETTERS + cut))
    return out


def held(texts: list[str], digest: Callable[[str], str], *, lines: bool = True) -> set[str]:
    """The fingerprints of every value ``texts`` hold, as :func:`fingerprints` makes them: as written,
    and in the plain spelling of a text that has another (the fingerprints kept are unchanged, so a
    deletion carried out before still matches)."""
    texts = [t for t in texts if t]
    written = set(texts)
    respelled = [p for p in (plain_spelling(t) for t in texts if not t.isascii()) if p not in written]
    undone = []  # the escapes and Chinese numerals a deletion lists (deletion_forms), undone: read again
    todo = [(text, 0) for text in [*texts, *respelled]]
    while todo:
        text, depth = todo.pop()
        if _TELLING_ESCAPE.search(text) and (plain := decoded(text)) != text:
            undone.append(plain)
        if not text.isascii() and (korean := korean_as_chinese(text)) is not None:  # 공일공…: Chinese numerals
            text = korean
            undone.append(text)
        if not text.isascii() and _CHINESE_RUN.search(text):
            undone.append(text.translate(_CHINESE))
        # round ten's second readings (CSS escapes, UTF-7) and numbers in words, read back (a number
        # as its digits: the patterns know a phone number by them)
        undone += [r for r in (css_decoded(text, _telling), utf7_decoded(text, _telling)) if r is not None]
        undone += [*english_digits(text), *chinese_place_values(text), *english_place_values(text)]
        if depth < _DEPTH:  # round eleven: base64, base32, hex and Ascii85 runs decoded and read like the text
            for piece in encoded_reading(text[:READ_MAX]):
                undone.append(piece.text)
                todo.append((piece.text, depth + 1))
    values = secret_values(texts + respelled + undone) if lines else \
        sensitive_values("\n".join(texts + respelled + undone))  # a split's: sensitive values alone
    # ROT13 and reversal keep a value's shape (an address stays one), so each value found is turned
    # back rather than every text read twice more — a value, not a long line: a log's every line
    # turned tripled the digests made; a reversed number is no phone number to the patterns, so each
    # run of 7+ digits is reversed as well
    turned = {t for v in values if len(v) <= _TURNED_MAX for t in (rot13(v), v[::-1])}
    turned |= {m.group()[::-1] for text in texts for m in _DIGIT_RUN.finditer(text)}
    spaced = {p for text in texts for p in _spaced_prints(text[:READ_MAX], digest)} if lines else set()
    return set(fingerprints(turned.union(values), digest)) | spaced


# Characters of each neighbour joined at the junction: a sensitive value spelled out (a phone number in
# words is ~70, an address's UTF-16 hex ~120) is cut with no more than this on either side. Each poll
# reads every new event's junction so: its length sets the check's cost.
SPLIT_EDGE = 160


def split_between(before: list[str], after: list[str], digest: Callable[[str], str],
                  known: set[str]) -> set[str]:
    """The fingerprints of the sensitive values spelled only by ``before``'s end joined to ``after``'s
    start (a model streaming ``sk-live-4f9a`` in one event and ``8b7c…`` in the next, a
    phone number's words over two results, a base64 run cut in two): what the junction holds and
    neither side alone does. ``known``: the fingerprints of both events whole. Sensitive values only,
    as the listing's split check (deletion_split.py): a line of prose is not read cut in two."""
    left = "\n".join(t for t in before if t)[-SPLIT_EDGE:]
    right = "\n".join(t for t in after if t)[:SPLIT_EDGE]
    if not left or not right:
        return set()
    joined = held([left + right], digest, lines=False) - known
    if not joined:  # the usual answer, in one reading of two short edges
        return set()
    return joined - held([left], digest, lines=False) - held([right], digest, lines=False)
