"""What a text's encoded runs say, decoded: a reading in which an encoding of *any* spelling is read.

Round ten looked for a value's base64, base32, base85 and hex by encoding the value (domain/
deletion_forms.py): each form a copy may take had to be made in advance, so base64 of the value
URL-escaped, base32 of its UTF-16, hex of it in upper case were never looked for (said in
``not_checked``). Here the text's runs in each alphabet are decoded instead, and the decoded text is
read like any other (folded: escapes, case, UTF-16 read back), so an encoding of anything the fold
undoes is found, and so is one the follow check can read without knowing the value (it keeps
digests only: domain/deletion_recurrence.py) — one reading for the listing and for follow.

A run is decoded at each alignment its alphabet's groups allow (base64: 4 characters, base32: 8,
hex: 2), since a value inside a longer encoded text, or a text cut mid-group, starts anywhere; only a
decoding that is text (UTF-8, or UTF-16 when every other byte is NUL) is kept. Ascii85 is decoded
between its ``<~`` ``~>`` marks (undelimited base85 and Ascii85 use nearly every printable character,
so no run can be told apart from prose: those stay looked for by the value's own forms).

Linear in the text (each run decoded at most 4 + 16 times, in C; a run repeated — a log's ids and long
words — decoded once: cached). How much of a text is read so is bounded by the caller, with the other
second readings (domain/deletion_spelling.READ_MAX), which says when the bound was hit.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from functools import lru_cache

MIN_RUN = 12  # base64 of a 7-character value (MIN_FOLDED) is 12 characters; shorter runs hold none

# MIME wraps base64 at 76 characters: a run may go on after one line break.
_B64_RUN = re.compile(r"[A-Za-z0-9+/_-]{12,}(?:={0,2}\r?\n[A-Za-z0-9+/_-]{4,})*={0,2}")
_HEX_RUN = re.compile(r"(?:[0-9a-fA-F]{2}){7,}")
_A85_RUN = re.compile(r"<~([!-u\sz]{5,}?)~>")
_CONTROL = re.compile(r"[^\S\n\r\t ]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd]")
_NOT_B64 = re.compile(r"[^A-Za-z0-9+/]")
_B32_STD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_B32_HEX = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUV")


@dataclass(frozen=True, slots=True)
class Decoded:
    """One run decoded: its text and the name of its encoding ("base64", "base32", "hex", "Ascii85")."""

    how: str
    text: str


def _text(data: bytes) -> tuple[str, str] | None:
    """``data`` as text when it is text: strict UTF-8, or UTF-16 when every other byte is NUL (either
    order); mostly printable either way. A wrong alignment decodes to noise, which is none. Returned
    with what to add to the encoding's name (" of UTF-16" or nothing)."""
    if len(data) < 7:
        return None
    of = ""
    if data.count(0) * 3 >= len(data):
        of = " of UTF-16"
        codec = "utf-16-le" if data[1::2].count(0) >= data[0::2].count(0) else "utf-16-be"
        try:
            text = data[: len(data) & ~1].decode(codec)
        except UnicodeDecodeError:
            return None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    unprintable = len(_CONTROL.findall(text)) if not text.isprintable() else 0
    return (of, text) if unprintable * 10 <= len(text) else None


def _base64(run: str) -> list[tuple[str, str]]:
    body = _NOT_B64.sub("", run.translate(_URLSAFE))
    out = []
    for start in range(4):
        piece = body[start:]
        if len(piece) % 4 == 1:  # no whole byte in a last lone character
            piece = piece[:-1]
        piece += "=" * (-len(piece) % 4)  # the run's last, partial group is read too
        if len(piece) < MIN_RUN:
            break
        try:
            text = _text(binascii.a2b_base64(piece))
        except binascii.Error:
            continue
        if text is not None:
            out.append(text)
    return out


_URLSAFE = str.maketrans("-_", "+/")


def _base32(run: str) -> list[tuple[str, str]]:
    body = run.rstrip("=").upper()
    out = []
    for alphabet, decode in ((_B32_STD, base64.b32decode), (_B32_HEX, base64.b32hexdecode)):
        if not alphabet.issuperset(body):
            continue
        for start in range(8):
            piece = body[start:]
            while len(piece) % 8 in (1, 3, 6):  # no whole byte ends there
                piece = piece[:-1]
            piece += "=" * (-len(piece) % 8)  # the run's last, partial group is read too
            if len(piece) < 16:
                break
            try:
                text = _text(decode(piece))
            except (binascii.Error, ValueError):
                continue
            if text is not None:
                out.append(text)
    return out


def _hex(run: str) -> list[tuple[str, str]]:
    out = []
    for start in (0, 1):
        piece = run[start:]
        piece = piece[: len(piece) - len(piece) % 2]
        text = _text(bytes.fromhex(piece)) if len(piece) >= 14 else None
        if text is not None:
            out.append(text)
    return out


def _ascii85(body: str) -> list[tuple[str, str]]:
    try:
        text = _text(base64.a85decode("".join(body.split())))
    except (ValueError, binascii.Error):
        return []
    return [] if text is None else [text]


@lru_cache(maxsize=8192)
def _decoded_run(how: str, run: str) -> tuple[Decoded, ...]:
    """One run decoded in each encoding its characters allow — cached: a log repeats its ids, hashes
    and long words in every line, and each was decoded four times over."""
    out = [Decoded(how + of, t) for of, t in (_hex(run) if how == "hex" else _base64(run))]
    if how == "base64" and len(run) >= 16 and run.rstrip("=").isalnum():
        out += [Decoded(f"base32{of}", t) for of, t in _base32(run)]
    return tuple(out)


def encoded_reading(text: str) -> tuple[Decoded, ...]:
    """The decoded runs of ``text`` (base64 with or without MIME line breaks, base32 of either alphabet,
    hex, Ascii85 between ``<~ ~>``), each as text, in order of encoding."""
    if len(text) < MIN_RUN:
        return ()
    out: list[Decoded] = []
    for pattern, how in ((_HEX_RUN, "hex"), (_B64_RUN, "base64")):
        for match in pattern.finditer(text):
            run = match.group()
            if how == "base64" and _HEX_RUN.fullmatch(run):
                continue  # read as hex above
            out += _decoded_run(how, run)
    if "<~" in text:
        out += [Decoded("Ascii85" + of, t) for m in _A85_RUN.finditer(text) for of, t in _ascii85(m.group(1))]
    return tuple(out)
