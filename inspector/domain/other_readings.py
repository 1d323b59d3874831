"""Other readings of a text, in which a deleted value may be spelled: CSS escapes, UTF-7, and a
separator between every letter (deletion round ten; each was said in ``not_checked`` before).

These cannot be folded into the one spelling every text is compared in (domain/deletion_forms.fold):

- a **CSS escape** is ``\\`` and one to six hex digits, then one optional space (``\\40 ``,
  ``\\000040``) — ``\\100`` is U+0100 in CSS but ``@`` in octal, which the fold reads it as;
- **UTF-7** writes a run of characters outside its direct set as ``+`` and base64 of their UTF-16
  (``+AEA-`` is ``@``; IMAP's variant ``&AEA-``) — and ``+`` is everywhere in ordinary text;
- a **separator between every letter** (``z.q.h.i.d.d.e.n``, ``s-e-c-r-e-t``, ``1/3/9``) leaves
  the letters in order with punctuation between each two.

So each is a *second* reading, made only of a text that may hold one, and a value is found when
either reading holds it: the first reading is never changed, so nothing found before is lost, and
decoding a ``+`` or ``\\`` that was no escape only makes a reading in which no value is spelled.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

# "\" (any number, for an escape escaped again), then 2-6 hex digits and one optional white space, or one
# hex digit and the white space that ends it, or a sign escaped as itself ("\@", "\."). A lone hex
# letter ("\d+", "C:\build") and a letter ("\n", "\t") are what regexes, paths and escaped strings
# hold in every log, and reading them so would make a second reading of each such text for nothing.
_CSS = re.compile(r"\\+(?:([0-9a-fA-F]{2,6})(?:\r\n|[ \t\n\r\f])?|([0-9a-fA-F])(?:\r\n|[ \t\n\r\f])"
                  r"|([^\w\s]))")
# "+" and modified base64 (UTF-7, RFC 2152), "&" and base64 with "," for "/" (IMAP, RFC 3501); "-" ends it.
_UTF7 = re.compile(r"\+([A-Za-z0-9+/]{3,})-?|&([A-Za-z0-9+,]{3,})-")
_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
# Single letters or digits, each two apart by 1-7 other characters (white space too: "z . q . . . h": the
# value's own "." between two separators).
_SPACED = re.compile(r"(?<![^\W_])[^\W_](?:[\W_]{1,7}[^\W_]){6,}(?![^\W_])")
_NOT_LETTER = re.compile(r"[\W_]+")


def _css_one(match: re.Match[str]) -> str:
    if match.group(3) is not None:
        return match.group(3)
    code = int(match.group(1) or match.group(2), 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _reading(text: str, pattern: re.Pattern[str], one: Callable[[re.Match[str]], str],
             wanted: Callable[[str], bool]) -> str | None:
    """``text`` with each match of ``pattern`` replaced by ``one`` of it — or None when no replacement
    is ``wanted``: a copy found only in this reading holds a decoded character (else the first
    reading finds it), so a text whose escapes decode to nothing any value holds (``C:\\dev`` is
    ``C:Þv`` in CSS) is not read twice."""
    useful = False

    def each(match: re.Match[str]) -> str:
        nonlocal useful
        out = one(match)
        if not useful and out != match.group(0) and wanted(out):
            useful = True
        return out

    out = pattern.sub(each, text)
    return out if useful else None


def css_decoded(text: str, wanted: Callable[[str], bool] = bool) -> str | None:
    """``text`` with CSS escapes decoded, or None when it holds none (or none ``wanted``)."""
    if "\\" not in text:
        return None
    return _reading(text, _CSS, _css_one, wanted)


def _utf7_run(chars: str) -> str | None:
    """The UTF-16 text a run of modified base64 encodes, or None when it is no such run (its bits
    do not end on a whole character with only zero bits left over, or it is no valid UTF-16).
    Decoded by the base64 module (a run may be a megabyte of someone's base64: ``+`` is in its
    alphabet), never bit by bit."""
    units, left = divmod(len(chars) * 6, 16)
    if not units or left >= 6 or _B64[chars[-1]] & ((1 << left) - 1):
        return None
    data = base64.b64decode(chars + "A" * (-len(chars) % 4))[:units * 2]
    try:
        return data.decode("utf-16-be")
    except UnicodeDecodeError:
        return None


def _utf7_one(match: re.Match[str]) -> str:
    run = match.group(1) if match.group(1) is not None else match.group(2).replace(",", "/")
    decoded = _utf7_run(run)
    return match.group(0) if decoded is None else decoded


def utf7_decoded(text: str, wanted: Callable[[str], bool] = bool) -> str | None:
    """``text`` with UTF-7 (and IMAP's modified UTF-7) runs decoded, or None when it holds none (or
    none ``wanted``)."""
    if "+" not in text and "&" not in text:
        return None
    out = _reading(text, _UTF7, _utf7_one, wanted)
    return None if out is None else out.replace("+-", "+").replace("&-", "&")


def spaced_letters(text: str) -> list[str]:
    """The letters and digits of each run in ``text`` that puts a separator between every letter
    (``z.q...h.i.d.d.e.n`` is ``zqhidden``): compared with a value's letters and digits."""
    if len(text) < 13:
        return []
    return [_NOT_LETTER.sub("", m.group()) for m in _SPACED.finditer(text)]


def letters_of(key: str) -> str:
    """A folded value's letters and digits alone, as :func:`spaced_letters` reads a copy."""
    return _NOT_LETTER.sub("", key)
