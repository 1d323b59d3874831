"""One guarded JSON decoder for every file a person hands us.

``json.loads`` accepts things a store cannot keep or that silently change meaning:
a duplicate key (the last one wins: ``{"type":"event",…,"type":"session"}`` becomes a
session), a lone surrogate ``\\ud800`` (valid JSON, not text: it cannot be written as
UTF-8, so a material holding one breaks ``export``), an integer past SQLite's 64-bit
range, nesting deep enough to exhaust the interpreter's stack. Every importer decodes
through :func:`loads`, which refuses each of these with a stable code, naming where.

Cost: the duplicate-key hook runs per object (about 3 µs per typical record), the number
checks per number as it is read; the depth and surrogate walks run only when a cheap scan
of the raw bytes says they could apply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.domain.terminal_safe import inert

MAX_DEPTH = 200  # deeper than any transcript we have seen (~20); far below the stack's limit
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # SQLite INTEGER

# A JSON escape of a surrogate half: a lone one is not text. (Raw surrogate bytes are not
# valid UTF-8 and fail decoding before this.)
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_DIGITS = re.compile(rb"\d{19}|\d[eE][+-]?\d{3}")  # a long integer, or an exponent that may overflow
_INF = float("inf")


class JsonRefused(ValueError):
    """A JSON text that decodes but cannot be taken: code, sentence and where."""

    def __init__(self, code: str, message: str, *, lineno: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.lineno = lineno


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise JsonRefused("duplicate_key", f"the key {inert(dup)} appears twice in one object (which one is meant?)")
    return out


def _no_constant(name: str) -> Any:
    raise JsonRefused("not_json_number", f"{name} is not a JSON number")


def _convertible_int(text: str) -> int:
    """``int``, refusing (not raising a bare ``ValueError`` that reads as a crash) an integer of more
    digits than Python converts; the 64-bit range is checked afterwards (check_value)."""
    if len(text) <= 4000:
        return int(text)
    raise JsonRefused("integer_out_of_range", f"an integer of {len(text):,} digits, outside the 64-bit range a "
                                              "store can hold")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant, parse_int=_convertible_int)
DECODER = _DECODER  # for scanners that walk a document themselves (raw_decode); pair with check_part


class _NumberRefused(JsonRefused):
    """Raised by :data:`_CHECKED`'s number hooks; :func:`loads` then names where the number is."""


def _checked_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # more digits than Python converts (4,300): far outside 64 bits
        raise _NumberRefused("integer_out_of_range", f"an integer of {len(text):,} digits, outside the 64-bit "
                                                     "range a store can hold") from None
    if not INT_MIN <= value <= INT_MAX:
        raise _NumberRefused("integer_out_of_range", "an integer outside the 64-bit range a store can hold")
    return value


def _checked_float(text: str) -> float:
    value = float(text)
    if value in (_INF, -_INF):
        raise _NumberRefused("not_json_number", "too large a number to keep")
    return value


# What loads decodes with: the number checks run as each number is read (only numbers pay),
# instead of a walk over the whole value whenever a byte scan sees digits that could be one.
_CHECKED = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant, parse_int=_checked_int,
                            parse_float=_checked_float)


def check_part(value: Any) -> None:
    """Every check :func:`loads` makes, on a value a scanner decoded with :data:`DECODER`."""
    check_value(value)


def _path(parts: list[str | int]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "(top level)"


def check_value(value: Any, *, deep: bool = True, ints: bool = True, surrogates: bool = True) -> None:
    """Walk a decoded value (iteratively, so depth itself cannot crash the walk)."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        item, path = stack.pop()
        kind = type(item)
        if kind is dict or kind is list:
            if deep and len(path) >= MAX_DEPTH:
                raise JsonRefused("too_deep", f"nested more than {MAX_DEPTH} levels deep at {_path(path[:3])}…")
            if kind is dict:
                for k, v in item.items():
                    if surrogates and _SURROGATE.search(k):
                        raise JsonRefused("lone_surrogate", f"a key in {_path(path)} holds a lone surrogate "
                                          "(\\ud800–\\udfff), which is not text")
                    stack.append((v, [*path, k]))
            else:
                stack.extend((v, [*path, i]) for i, v in enumerate(item))
        elif kind is str:
            if surrogates and _SURROGATE.search(item):
                raise JsonRefused("lone_surrogate", f"{_path(path)} holds a lone surrogate (\\ud800–\\udfff), "
                                  "which is not text")
        elif kind is int and ints and not INT_MIN <= item <= INT_MAX:
            raise JsonRefused("integer_out_of_range", f"{_path(path)} is an integer outside the 64-bit range a "
                              "store can hold")
        elif kind is float and ints and (item != item or item in (_INF, -_INF)):
            raise JsonRefused("not_json_number", f"{_path(path)} is too large a number to keep")


# The integer scan on a copy of the bytes where every digit reads "0", e/E "e", +/- "+" and
# anything else ".": then a long integer or a large exponent (what _LONG_DIGITS matches) is
# one of three plain substrings, which bytes search finds in C far faster than the expression
# scans a long line position by position (the same answer; tests/test_jsoncodec.py).
_NUMBER_SHAPES = bytes.maketrans(b"0123456789eE+-", b"0000000000ee++").translate(
    bytes.maketrans(bytes(c for c in range(256) if chr(c) not in "0123456789eE+-"),
                    b"." * (256 - 14)))
_LONG_SHAPES = (b"0" * 19, b"0e000", b"0e+000")


def _long_digits(raw: bytes) -> bool:
    shaped = raw.translate(_NUMBER_SHAPES)
    return any(shape in shaped for shape in _LONG_SHAPES)


def suspicious(raw: bytes) -> tuple[bool, bool, bool]:
    """Which checks could apply to these bytes: (depth, integers, surrogates)."""
    return (raw.count(b"[") + raw.count(b"{") > MAX_DEPTH, _long_digits(raw),
            b"\\u" in raw and _SURROGATE_ESCAPE.search(raw) is not None)


def loads(data: bytes | str) -> Any:
    """Decode one JSON text, refusing what a store must not take (:class:`JsonRefused`,
    a ``ValueError``) and text that is not JSON (``json.JSONDecodeError``) or not UTF-8
    (``UnicodeDecodeError``)."""
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data
    text = data if isinstance(data, str) else data.decode("utf-8")
    deep = raw.count(b"[") + raw.count(b"{") > MAX_DEPTH
    surrogates = b"\\u" in raw and _SURROGATE_ESCAPE.search(raw) is not None
    try:
        value = _CHECKED.decode(text)
    except RecursionError:
        raise JsonRefused("too_deep", f"nested more than {MAX_DEPTH} levels deep") from None
    except _NumberRefused as refused:  # decode again without the hooks, to say where the number is
        try:
            whole = _DECODER.decode(text)
        except RecursionError:
            raise JsonRefused("too_deep", f"nested more than {MAX_DEPTH} levels deep") from None
        except ValueError:  # an integer too long to convert at all: said without its place
            raise JsonRefused(refused.code, refused.message) from None
        check_value(whole, deep=deep, ints=True, surrogates=surrogates)
        raise  # pragma: no cover - the walk finds what the hook found
    if deep or surrogates:
        check_value(value, deep=deep, ints=False, surrogates=surrogates)
    return value


def raw_decode_all(text: str) -> tuple[list[tuple[Any, int, int]], tuple[int, str] | None]:
    """Every JSON value written back to back in ``text`` (a line of JSONL that holds two
    records, an artifact of interrupted writes), as (value, start, end) character offsets,
    plus (offset, reason) of the first part that is not readable, if any."""
    out: list[tuple[Any, int, int]] = []
    pos, n = 0, len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            return out, None
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except RecursionError:
            return out, (pos, f"nested more than {MAX_DEPTH} levels deep")
        except JsonRefused as exc:
            return out, (pos, exc.message)
        except json.JSONDecodeError as exc:
            # "Unterminated string starting at" names a place itself: "…starting at column 9", not "at at"
            return out, (pos, f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})")
        part = text[pos:end].encode("utf-8", errors="surrogatepass")
        deep, ints, surrogates = suspicious(part)
        if deep or ints or surrogates:
            try:
                check_value(value, deep=deep, ints=ints, surrogates=surrogates)
            except JsonRefused as exc:
                return out, (pos, exc.message)
        out.append((value, pos, end))
        pos = end


def line_of(text: str | bytes, pos: int) -> int:
    """1-based line number of a character offset (for refusals of whole-document formats)."""
    sep = "\n" if isinstance(text, str) else b"\n"
    return text.count(sep, 0, pos) + 1  # type: ignore[arg-type]
