"""A secret written another way is still the secret: matching a deletion's values loosely.

A deletion looks for what its targets held (domain/deletion.py). Copies are rarely exact:
a model rewrites ``Wang.Fang@Example.com`` in lower case, a tool wraps a long line, a URL
carries ``wang.fang%40example.com``, a JSON dump writes ``\\u0040``, a log base64-encodes a
header. So both the value and every text searched are *folded* the same way before they
are compared:

1. escapes decoded (up to four rounds, for an escape escaped again): ``%40`` and ``%u0040`` (URL,
   JavaScript's ``escape``), ``\\u0040`` / ``\\x40`` / ``\\u{40}`` / ``\\100`` (JSON, Python, JavaScript,
   Rust, octal), ``&#64;`` / ``&commat;`` (HTML), ``=40`` / ``=C3=A9`` and soft line breaks
   (quoted-printable, only where it encodes a sign or a non-ASCII character: ``x=31`` stays);
2. Unicode compatibility forms unified (NFKC: fullwidth ``ｗａｎｇ`` is ``wang``), every script's
   decimal digits read as ASCII ones (NFKC leaves Arabic-Indic ``١٣٩`` and Devanagari ``१३९`` as
   they are, yet they are the number 139), combining marks on an ASCII character dropped
   (``1̲3̲9̲``, a mark under each digit, is 139), and Cyrillic or Greek look-alikes inside a Latin word made Latin
   (``zq.hіdden@…`` with a Cyrillic ``і``) — each missed before hostile review eight;
3. spelled-out separators read as what they stand for: ``[at]``, ``(at)``, `` at `` → ``@``,
   ``[dot]``, `` dot `` → ``.``;
4. case folded; whitespace (line breaks included), invisible format characters and NUL removed
   (so UTF-16 text of ASCII characters, read as UTF-8, is its plain text).

The folded value is also looked for ROT13-ed and reversed (hostile review nine: a model asked to
"hide" an address writes it so, and any reader undoes it). Encodings that case folding would
destroy are looked for in the text as written, with whitespace removed (so a MIME-wrapped block
still matches): the value's base64 (standard and URL-safe alphabets, at each of the three byte
alignments, so it is found inside a longer encoded text) of its UTF-8 and UTF-16 bytes, and for a
sensitive value also of its lower- and upper-case spellings and base64 of its base64; since round
ten also its base85 and Ascii85, and base64 of the value ROT13-ed or reversed. Its hex (and a
sensitive value's UTF-16 hex, and the hex of the value ROT13-ed or reversed) and its base32 are
looked for after folding. Each form keeps the name of its spelling, so a listing says how a copy
was written (:meth:`LooseMatcher.spelling`); readings no fold can make — CSS escapes, UTF-7, a
separator between every letter — are domain/other_readings.py's, and domain/deletion_spelling.py
asks all of them.

Limits, said in docs/untrusted-content.md: a value shorter than :data:`MIN_FOLDED`
characters after folding is looked for exactly only (shorter strings match by
coincidence); encryption, hashing, compression, translation, paraphrase, or an encoding
not listed here hides a copy from this matching (hex dumps and byte lists are read back: hexdump.py;
an encoding of another spelling is found by decoding the text's runs: encoded_readings.py, round eleven).
"""

from __future__ import annotations

import base64
import codecs
import html
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import unquote

from inspector.domain import combining_marks
from inspector.domain.deletion import sensitive_values
from inspector.domain.disguise import latinised
from inspector.domain.encoded_fragments import base32_fragments, base85_fragments
from inspector.domain.hexdump import dumped_bytes, listed_bytes
from inspector.domain.needles import Needles
from inspector.domain.other_readings import letters_of, spaced_letters

MIN_FOLDED = 7  # a folded value shorter than this is left to exact matching
MIN_ENCODED = 8  # a base64 fragment shorter than this would match by coincidence

# \u0040, \U00000040, \x40 (JSON, Python, JavaScript), \u{40} (JavaScript, Rust, Swift), \100 (octal: C,
# Python bytes, shell printf); any number of backslashes, for an escape escaped again.
_ESCAPE = re.compile(r"\\+(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}"
                     r"|([0-3][0-7]{2}))")
_PERCENT = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_PERCENT_U = re.compile(r"%[uU]([0-9a-fA-F]{4})")  # JavaScript's old escape(): %u0040
# Quoted-printable (a mail body, a MIME part): "=" at a line's end joins two lines; "=40", "=C3=A9" are bytes.
_QP_SOFT_BREAK = re.compile(r"=\r?\n")
# A run of "=XX" starting with a byte quoted-printable must encode: a sign or a space, or a UTF-8
# lead byte with its next byte. "=31" (a digit) or "=AB" (no lead byte) never starts one, so an
# assignment such as "x=3139" or "token=AB12" costs no decoding.
_QP_BYTES = re.compile(r"=(?:2[0-9A-F]|3[A-F]|40|5[B-F]|60|7[B-F]|(?:[C-E][0-9A-F]|F[0-4])=[89AB][0-9A-F])"
                       r"(?:=[0-9A-F]{2})*")
# Spelled-out separators, as they read once whitespace is gone: "wang [at] example" -> "wang[@]example".
_SPELLED = tuple((f"{o}{word}{c}", sign) for word, sign in (("at", "@"), ("dot", "."), ("@", "@"), (".", "."))
                 for o, c in ("[]", "()", "{}", "<>"))
_WORDS = {"at": "@", "dot": "."}
# Invisible format characters that split a value without showing (zero-width, bidi, soft hyphen, …),
# and NUL: UTF-16 text read as UTF-8 (a material's bytes) has one beside each ASCII character.
_INVISIBLE = re.compile(r"[\x00\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
                        r"\u2066-\u206f\u3164\ufeff\uffa0]+")


# The zero of each other script's decimal digits in the Basic Multilingual Plane (Arabic-Indic,
# Devanagari, Bengali, Thai, Myanmar, …; Unicode 14.0.0 category Nd, each a run of ten, checked by
# tests/test_hostile_eight_deletion_forms.py). NFKC has already made fullwidth and mathematical digits
# ASCII; the planes above (Osmanya, Brahmi, …) are left out: a class reaching past U+FFFF takes
# Python's regex engine off its fast path (docs/reviews/untrusted-seven.md, "Cost").
OTHER_ZEROS = (0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66,
               0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
               0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0)
_DIGITS = "".join(f"{chr(z)}-{chr(z + 9)}" for z in OTHER_ZEROS)
# Combining marks on an ASCII character, left after NFKC (one that composes with its letter, as
# ``e`` + U+0301, is already part of it): ``1̲3̲9̲`` is 139. A mark on a letter of its own script
# (Arabic harakat, Hebrew points, Devanagari signs) stays: dropping every mark cost 0.6 s a
# megabyte of pointed Arabic, this 0.09 s. Marks of the planes above are left out, as digits are.
_MARK_RANGES = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in combining_marks.RANGES if b < 0x10000)
_OTHER_DIGIT = re.compile(f"[{_DIGITS}]")
_MARKS = re.compile(f"(?<=[\x21-\x7e])[{_MARK_RANGES}]+")
# One scan (one class) tells whether a text holds any of the three; most text holds none.
_ANY_PLAIN = re.compile(f"[{_DIGITS}{_MARK_RANGES}\u0370-\u03ff\u0400-\u04ff]")


def _plain(text: str) -> str:
    """A text that is not ASCII in compatibility form, other scripts' digits made ASCII, combining
    marks on ASCII characters dropped and look-alike letters of a Latin word made Latin."""
    text = unicodedata.normalize("NFKC", text)
    if not _ANY_PLAIN.search(text):
        return text
    if _OTHER_DIGIT.search(text):
        text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m.group())), text)
    return latinised(_MARKS.sub("", text))


def plain_spelling(text: str) -> str:
    """``text`` with the spellings :func:`_plain` undoes undone, case and spacing kept (so the
    sensitive-value patterns still read it): a later copy's text, before its values are digested."""
    return text if text.isascii() else _plain(text)


def _unescape_one(match: re.Match[str]) -> str:
    octal = match.group(5)
    code = int(octal, 8) if octal is not None else int(next(g for g in match.groups() if g is not None), 16)
    return chr(code) if code <= 0x10FFFF else match.group(0)


def _qp_one(match: re.Match[str]) -> str:
    """A run of ``=XX`` as the text it encodes — only when that is what quoted-printable encodes
    (a non-ASCII character, or a sign or space), so a key such as ``token=AB12…`` or ``x=31`` is
    read as written: ``=AB`` alone is no UTF-8 text and ``=31`` would be a digit, which
    quoted-printable never encodes."""
    try:
        text = bytes.fromhex(match.group(0).replace("=", "")).decode("utf-8")
    except UnicodeDecodeError:
        return match.group(0)
    return match.group(0) if any(c.isascii() and c.isalnum() for c in text) else text


def decoded(text: str) -> str:
    """``text`` with URL, JSON/Python/JavaScript/octal, HTML and quoted-printable escapes decoded
    (up to four rounds: ``%252540`` is ``@`` percent-encoded three times)."""
    for _ in range(4):
        before = text
        if "\\" in text:
            text = _ESCAPE.sub(_unescape_one, text)
        if "%" in text:
            if "%u" in text or "%U" in text:
                text = _PERCENT_U.sub(lambda m: chr(int(m.group(1), 16)), text)
            text = _PERCENT.sub(lambda m: unquote(m.group(0), errors="replace"), text)
        if "&" in text:
            text = html.unescape(text)
        if "=" in text:
            if "=\n" in text or "=\r\n" in text:
                text = _QP_SOFT_BREAK.sub("", text)
            text = _QP_BYTES.sub(_qp_one, text)
        if text == before:
            break
    return text


def fold(text: str) -> str:
    """The form two spellings of the same value share (see the module's docstring)."""
    text = decoded(text)
    words = (text if text.isascii() else _plain(text)).casefold().split()  # split: every whitespace run goes
    if "at" in words or "dot" in words:
        words = [_WORDS.get(w, w) for w in words]
    text = "".join(words)
    if any(o in text for o in "[({<"):
        for spelled, sign in _SPELLED:
            if spelled in text:
                text = text.replace(spelled, sign)
    return _INVISIBLE.sub("", text) if _INVISIBLE.search(text) else text


def base64_fragments(value: str | bytes) -> list[str]:
    """The base64 characters that encode ``value``'s bytes (UTF-8 for a text) whatever bytes precede
    it, in both alphabets."""
    data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
    out: set[str] = set()
    for pad in range(3):
        encoded = base64.b64encode(b"\0" * pad + data).decode("ascii")
        start, end = -(-8 * pad // 6), (8 * pad + 8 * len(data)) // 6
        piece = encoded[start:end]
        if len(piece) >= MIN_ENCODED:
            out |= {piece, piece.translate(str.maketrans("+/", "-_"))}
    return sorted(out)


def _utf16(value: str) -> list[bytes]:
    return [value.encode(codec, "surrogatepass") for codec in ("utf-16-le", "utf-16-be")]


def encoded_forms(value: str, *, sensitive: bool) -> dict[str, str]:
    """The base64 a copy of ``value`` may be written in, each with the name of its spelling: of its
    UTF-8 and its UTF-16 bytes (both byte orders: a Windows tool, PowerShell's ``-EncodedCommand``);
    for a sensitive value (short, and what a program is likeliest to encode) also of its lower- and
    upper-case spellings and base64 of its base64 (a token wrapped twice, a data URL inside a JSON Web
    Token). Also (round ten) base85 / Ascii85 of its UTF-8 bytes, and base64 of the value ROT13-ed or
    reversed: a value "hidden" and then encoded."""
    out: dict[str, str] = {}
    for piece in base64_fragments(value):
        out.setdefault(piece, "base64")
    for data in _utf16(value):
        for piece in base64_fragments(data):
            out.setdefault(piece, "base64 of UTF-16")
    if sensitive:
        for spelling in (value.lower(), value.upper()):
            for piece in base64_fragments(spelling):
                out.setdefault(piece, "base64 of the value in lower or upper case")
            for data in _utf16(spelling):
                for piece in base64_fragments(data):
                    out.setdefault(piece, "base64 of UTF-16")
        for inner in base64_fragments(value):
            if "-" not in inner and "_" not in inner:
                for piece in base64_fragments(inner):
                    out.setdefault(piece, "base64 of base64")
    for piece, name in base85_fragments(value.encode("utf-8", "surrogatepass")).items():
        out.setdefault(piece, name)
    for turned, name in ((rot13(value), "ROT13-ed"), (value[::-1], "reversed")):
        if turned == value:  # a number ROT13-ed is itself: its forms are made above
            continue
        for piece in base64_fragments(turned):
            out.setdefault(piece, f"base64 of the value {name}")
        # round eleven: base85 / Ascii85 of a sensitive value so turned (no run of either can be told from
        # prose and decoded; a pasted log's every line so encoded doubled the forms a listing builds)
        if sensitive:
            for piece, alphabet in base85_fragments(turned.encode("utf-8", "surrogatepass")).items():
                out.setdefault(piece, f"{alphabet} of the value {name}")
    return out


_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


def rot13(text: str) -> str:
    """``text`` with its ASCII letters ROT13-ed (its own inverse)."""
    return codecs.encode(text, "rot13")


def turned_forms(key: str) -> set[str]:
    """A folded value ROT13-ed and reversed: the two ways a person or a model "hides" a value that
    any reader undoes — looked for, so a deletion that says no copy is left has looked for them."""
    return {key.translate(_ROT13), key[::-1]}


FOLDED = "case, spacing, line breaks, invisible or look-alike characters"
ESCAPED = "escaped (URL, JSON/Python/JavaScript, octal, HTML or quoted-printable)"


def _folded_forms(value: str, key: str, *, sensitive: bool) -> dict[str, str]:
    """The folded value and what is looked for after folding, each with the name of its spelling."""
    data = value.encode("utf-8", "surrogatepass")
    out = {key: FOLDED, data.hex(): "hex"}
    out.setdefault(key.translate(_ROT13), "ROT13")
    out.setdefault(key[::-1], "reversed")
    if sensitive:
        for utf16 in _utf16(value):
            out.setdefault(utf16.hex(), "hex of UTF-16")
    for piece in base32_fragments(data):
        out.setdefault(piece, "base32")
    for turned, name in ((rot13(value), "ROT13-ed"), (value[::-1], "reversed")):
        out.setdefault(turned.encode("utf-8", "surrogatepass").hex(), f"hex of the value {name}")
    # (base32 of it ROT13-ed or reversed is found by decoding the text's base32 runs: encoded_readings.py)
    return out


@dataclass(frozen=True, slots=True)
class LooseMatcher:
    """Finds any of a deletion's values in a text however it was written (module docstring), and
    says in which spelling (:meth:`spelling`)."""

    folded: Needles
    encoded: Needles
    letters: Needles  # each folded value's letters and digits alone (other_readings.spaced_letters)
    names: dict[str, str]  # a folded or encoded form -> the name of its spelling
    chars: frozenset[str]  # every character of the folded forms: a decoded escape holding none spells no value
    written: Needles  # the values as written (a record may hold one so and others encoded: spellings)

    @classmethod
    def of(cls, values: Iterable[str]) -> LooseMatcher:
        """The matcher for ``values``: built once for the same values (a listing builds it for the
        rows, the names and the files beside the store; a pasted log's thousands of lines make
        hundreds of thousands of forms, and building them three times cost more than the scan)."""
        return _built(tuple(values))

    @classmethod
    def build(cls, values: tuple[str, ...]) -> LooseMatcher:
        folded: dict[str, str] = {}
        encoded: dict[str, str] = {}
        letters: set[str] = set()
        written: set[str] = set()
        for value in values:
            made = _value_forms(value)
            if made is None:
                continue
            written.add(value)
            for form, name in made[0].items():
                folded.setdefault(form, name)
            for form, name in made[1].items():
                encoded.setdefault(form, name)
            letters.add(made[2])
        return cls(Needles.of(folded, MIN_FOLDED), Needles.of(encoded, MIN_ENCODED), Needles.of(letters, MIN_FOLDED),
                   {**encoded, **folded}, frozenset().union(*folded) if folded else frozenset(),
                   Needles.of(written, MIN_FOLDED))

    def __bool__(self) -> bool:
        return bool(self.folded or self.encoded)

    @property
    def longest(self) -> int:
        return max((len(v) for v in (*self.folded, *self.encoded)), default=0)

    def found_in(self, text: str, folded: str | None = None) -> bool:
        return self.spelling(text, folded) is not None

    def folded_spelling(self, text: str, folded: str) -> str | None:
        """The spelling of a value the folded text holds (the value, its hex, ROT13, base32, …), or None."""
        form = self.folded.first_in(folded)
        if form is None:
            return None
        name = self.names.get(form, FOLDED)
        return ESCAPED if name == FOLDED and form not in _undecoded(text) else name

    def spelling(self, text: str, folded: str | None = None) -> str | None:
        """The spelling in which ``text`` holds a value (``"base64 of UTF-16"``, ``"ROT13"``, …), or None."""
        folded = fold(text) if folded is None else folded
        found = self.folded_spelling(text, folded)
        if found is not None:
            return found
        if self.encoded:
            form = self.encoded.first_in("".join(text.split()))
            if form is not None:
                return self.names.get(form, "base64")
        dumped = dumped_bytes(text) if "\n" in text else None  # xxd / hexdump -C / od output
        if dumped is not None and self.found_in(dumped.decode("utf-8", "replace")):
            return "a hex dump"
        if any(self.found_in(data.decode("utf-8", "replace")) for data in listed_bytes(text)):
            return "hex as a list of bytes"
        return None

    def written_in(self, text: str) -> bool:
        """Whether ``text`` holds a value exactly as written."""
        return self.written.any_in(text)

    def spellings(self, text: str, folded: str, *, whole: bool = True) -> Iterator[str]:
        """Every spelling :meth:`spelling` may answer that ``text`` holds (each form found, not the first)."""
        undecoded: str | None = None
        for form in self.folded.all_in(folded):
            name = self.names.get(form, FOLDED)
            if name == FOLDED:
                undecoded = _undecoded(text) if undecoded is None else undecoded
                name = FOLDED if form in undecoded else ESCAPED
            yield name
        if not whole:
            return
        if self.encoded:
            for form in self.encoded.all_in("".join(text.split())):
                yield self.names.get(form, "base64")
        dumped = dumped_bytes(text) if "\n" in text else None
        if dumped is not None and self.found_in(dumped.decode("utf-8", "replace")):
            yield "a hex dump"
        if any(self.found_in(data.decode("utf-8", "replace")) for data in listed_bytes(text)):
            yield "hex as a list of bytes"

    def spaced(self, text: str) -> bool:
        """Whether ``text`` spells a value with a separator between every letter. Read in the text as
        written (case folded), not folded: white space removed would glue a run's last letter to the
        next word, and a run is single letters each two apart."""
        return bool(self.letters) and any(self.letters.any_in(run) for run in spaced_letters(text.casefold()))


def _value_forms(value: str) -> tuple[dict[str, str], dict[str, str], str] | None:
    key = fold(value)  # one value's folded and encoded forms and its letters (None: it folds too short)
    if len(key) < MIN_FOLDED:
        return None
    sensitive = bool(sensitive_values(value))
    return _folded_forms(value, key, sensitive=sensitive), encoded_forms(value, sensitive=sensitive), letters_of(key)


@lru_cache(maxsize=4)
def _built(values: tuple[str, ...]) -> LooseMatcher:
    return LooseMatcher.build(values)


def _undecoded(text: str) -> str:
    """``text`` folded without decoding its escapes: tells a value found as escaped from one found
    only with its case, spacing or look-alike characters changed."""
    words = (text if text.isascii() else _plain(text)).casefold().split()
    if "at" in words or "dot" in words:
        words = [_WORDS.get(w, w) for w in words]
    joined = "".join(words)
    for spelled, sign in _SPELLED:
        if spelled in joined:
            joined = joined.replace(spelled, sign)
    return _INVISIBLE.sub("", joined)
