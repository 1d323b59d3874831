"""JSON for the import path: the guarded decoder's answers, faster where that is provable.

Digests are defined over the standard library's canonical form (docs/store-format.md) and
every line a person hands us is judged by the one guarded decoder
(inspector/domain/guarded_json.py). orjson reads and writes several times faster; it is
used only where its result is provably the same:

* Decoding: orjson decodes the line, and re-encoding the value must give the line back
  byte for byte (or, for a pretty-printed document, give it back once the white space between
  tokens is taken out of both: :func:`_same_but_blanks`). Then no key was dropped (a duplicate key would be missing from the
  re-encoded text), no integer is past 2^53 (``OPT_STRICT_INTEGER`` refuses to write it),
  there is no lone surrogate (orjson refuses to decode or write one), no NaN or infinity
  (refused on decoding), and nesting is checked by counting brackets. Any other line —
  keys repeated, escapes orjson writes differently, a refusal — goes through
  the guarded decoder, which decides and names the refusal.
* Encoding: orjson with sorted keys writes the same text as the standard encoder for every
  value without floats (floats are formatted differently in exponent form); a value is
  known to hold none when its orjson text has no digit followed by ``.``, ``e`` or ``E``
  (every float literal has one), else it is walked.
"""

from __future__ import annotations

import bisect
import itertools
import json
import re
from collections.abc import Sequence
from typing import Any

from inspector.domain import known_text
from inspector.domain.canonical import canonical_json
from inspector.domain.guarded_json import MAX_DEPTH
from inspector.domain.guarded_json import loads as guarded_loads

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a declared dependency; stay correct without it
    orjson = None

# Every JSON float literal holds a digit followed by one of these (strings may too: then the value is walked).
_FLOAT_MARK = re.compile(rb"[0-9][.eE]")
# The same test as one C pass over a copy where each digit reads "0", each of ".eE" reads "." and
# anything else " ": a digit followed by one of them is then the substring "0." (measured about
# twice as fast as the expression on record-sized texts, which it scans position by position; on
# long texts the expression usually stops at an early mark, so it keeps those).
_MARK_SHAPES = bytes(48 if 48 <= c <= 57 else (46 if c in b".eE" else 32) for c in range(256))
_SHORT = 4096


def lines_with_float_marks(lines: Sequence[bytes]) -> set[int]:
    """The indexes of the lines that hold a float mark (see :func:`has_float_mark`), found in one
    pass over the lines joined: a value decoded from any other line holds no float, so its
    canonical text is orjson's (:func:`float_free_canonical_bytes`) without a test of its own."""
    shaped = b"\n".join(lines).translate(_MARK_SHAPES)  # a newline reads " ": no mark spans two lines
    found: set[int] = set()
    at = shaped.find(b"0.")
    if at < 0:
        return found
    ends = list(itertools.accumulate(len(line) + 1 for line in lines))  # offset after each line's newline
    while at >= 0:
        index = bisect.bisect_right(ends, at)
        found.add(index)
        at = shaped.find(b"0.", ends[index])
    return found


def has_float_mark(text: bytes) -> bool:
    """True when some digit in ``text`` is followed by ``.``, ``e`` or ``E`` (every float literal has one)."""
    if len(text) <= _SHORT:
        return b"0." in text.translate(_MARK_SHAPES)
    return _FLOAT_MARK.search(text) is not None
# Types the standard encoder refuses (datetimes, dataclasses, subclasses of str/int/dict/list) are
# handed back to it rather than written by orjson's own rules.
_SORTED = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
           | orjson.OPT_PASSTHROUGH_SUBCLASS) if orjson is not None else 0


def is_canonical_text(text: str) -> bool:
    """Whether a stored JSON text is exactly the canonical text of its value (what every write
    stores): orjson's sorted re-encoding giving the same bytes proves it for a value without
    floats (a repeated key, a space or an unsorted key would be gone); anything else — floats,
    or orjson refusing — is decided by the standard decoder and :func:`fast_canonical`."""
    if orjson is not None:
        try:
            data = text.encode("utf-8")
            # a float may be spelled orjson's way ("1e-7") where the canonical text has "1e-07"
            if not has_float_mark(data) and orjson.dumps(orjson.loads(data), option=_SORTED) == data:
                return True
        except (orjson.JSONDecodeError, orjson.JSONEncodeError, UnicodeEncodeError):
            pass  # not text orjson takes: the standard decoder decides below
    return fast_canonical(json.loads(text)) == text


def fast_loads(data: bytes | str) -> Any:
    """Decode one line (or a whole document) exactly as the guarded decoder would (see the module docstring).

    A document of several lines (a pretty-printed message list: a JSON line holds no line break) goes
    to the guarded decoder directly: its proof here (orjson's decode and re-encoding, the blanks taken
    out of both) cost more than the guarded decoder's one pass (2 MB, indent 1: 22 ms against 18;
    ``json.dumps``'s layout on one line 30 against 20, compact 9 against 14; docs/benchmarks.md)."""
    if orjson is not None and type(data) is bytes and data.find(b"\n", 0, len(data) - 2) < 0:
        try:
            value = orjson.loads(data)
            encoded = orjson.dumps(value, option=orjson.OPT_STRICT_INTEGER)
            if (encoded == data or _same_but_blanks(encoded, data)) and (
                    len(data) <= MAX_DEPTH
                    or (len(data) <= _COUNT_MAX and data.count(b"{") + data.count(b"[") <= MAX_DEPTH)
                    or _within_depth(value)):
                return value
        except (orjson.JSONDecodeError, orjson.JSONEncodeError):
            pass
    return guarded_loads(data)


_JSON_BLANKS = b" \t\n\r"  # the white space JSON allows between tokens


def _same_but_blanks(encoded: bytes, data: bytes) -> bool:
    """Whether ``data`` is orjson's compact text ``encoded`` with white space between its tokens (a
    line written as Python's ``json.dumps`` writes by default, ``", "`` and ``": "``): the two are
    equal once every blank byte is taken out of both. That proves what the byte-for-byte test
    proves. Blanks never sit inside a token but a string, and a string's spaces are the same in
    both (its text is the decoded one); a raw tab or line break inside a string (not JSON) is
    escaped in ``encoded`` and so never compares equal. So the tokens are the same, one by one: the
    same number of strings (two unescaped quotes each) — a duplicate key orjson dropped would have
    left one fewer — the same numbers as written, the same escapes. ``encoded`` holds no blank but a
    string's spaces (orjson escapes the rest)."""
    if len(encoded) >= len(data):
        return False
    # the lengths without blanks first (counted in C, ~4× cheaper than the copies below): a text whose
    # escapes differ from orjson's (``\u00e9`` for ``é``) fails here without them
    blanks = data.count(b" ") + data.count(b"\n") + data.count(b"\t") + data.count(b"\r")
    if len(data) - blanks != len(encoded) - encoded.count(b" "):
        return False
    return data.translate(None, _JSON_BLANKS) == encoded.translate(None, b" ")


# Past this many bytes a line's depth is measured on its decoded containers only, without first
# counting its brackets: a long line is mostly text (a tool result), whose brackets are many
# and whose containers few (the 4 MB bench transcript: counting its 123 lines over 8 KiB took
# 1.5 ms, walking them 0.4 ms; for its 1,460 shorter lines the count is the cheaper, 1.7 / 5.2 ms).
_COUNT_MAX = 8192


def _within_depth(value: Any) -> bool:
    """No object or list nested ``MAX_DEPTH`` deep or more: what the guarded decoder checks on a
    line with that many brackets (a long tool result quoting JSON has them inside strings).
    Level by level over the containers only, so strings cost nothing."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 0
    while level:
        if depth >= MAX_DEPTH:
            return False
        below: list[Any] = []
        for item in level:
            below += [c for c in (item.values() if type(item) is dict else item) if type(c) is dict or type(c) is list]
        level, depth = below, depth + 1
    return True


def _float_free(value: Any) -> bool:
    """True when no float (and no integer past 64 bits) is inside: the values whose text
    orjson writes differently. Written as a flat loop: it runs once per imported record."""
    kind = type(value)
    if kind is dict:
        items: Any = value.values()
    elif kind is list:
        items = value
    else:
        return kind is not float and (kind is not int or -(2**63) <= value < 2**64)
    for item in items:
        t = type(item)
        if t is str or t is bool or item is None:
            continue
        if t is int:
            if not -(2**63) <= item < 2**64:
                return False
        elif t is dict or t is list:
            if not _float_free(item):
                return False
        else:
            return False
    return True


def fast_canonical(value: Any) -> str:
    """Same text as :func:`inspector.domain.canonical.canonical_json`, faster where that is provable."""
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=_SORTED)
        except TypeError:  # orjson.JSONEncodeError is one
            return canonical_json(value)
        if not has_float_mark(text) or _float_free(value):
            try:
                return text.decode("utf-8")
            except UnicodeDecodeError:
                pass
    return canonical_json(value)


def fast_canonical_bytes(value: Any) -> bytes:
    """:func:`fast_canonical` as UTF-8 bytes (what digests hash), without decoding orjson's bytes first."""
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=_SORTED)
        except TypeError:
            return canonical_json(value).encode("utf-8")
        if not has_float_mark(text) or _float_free(value):
            return text
    return canonical_json(value).encode("utf-8")


def float_free_canonical_bytes(value: Any) -> bytes:
    """:func:`fast_canonical_bytes` of a value known to hold no float (decoded from a line
    without a float mark, plus text and whole numbers): orjson's sorted text is then the
    standard encoder's, so the test is skipped."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_SORTED)
        except TypeError:
            pass
    return canonical_json(value).encode("utf-8")


def float_free_canonical(value: Any) -> str:
    """:func:`float_free_canonical_bytes` as text (see :func:`fast_canonical`)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_SORTED).decode("utf-8")
        except (TypeError, UnicodeDecodeError):
            pass
    return canonical_json(value)


_PLAIN = (orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
          | orjson.OPT_PASSTHROUGH_SUBCLASS) if orjson is not None else 0


def fast_compact_bytes(value: Any) -> bytes:
    """The bytes of ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` in UTF-8
    (keys in their order, not sorted), by orjson where that is provably the same text."""
    if orjson is not None:
        try:
            text = orjson.dumps(value, option=_PLAIN)
        except TypeError:
            text = b""
        if text and (not has_float_mark(text) or _float_free(value)):
            return text
    return _COMPACT.encode(value).encode("utf-8", errors="surrogatepass")


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


_EXACT = _PLAIN | orjson.OPT_STRICT_INTEGER if orjson is not None else 0
_SAFE_INT = 2**53 - 1


def _flat(record: dict[str, Any], *, original: bool = False) -> bool:
    """Keys and values all plain text, small integers, booleans or null: such a record reads back
    as an equal copy in its key order (a material holding a whole transcript is one, and skips
    writing and reading its megabytes). Text must be free of lone surrogates, which strict
    UTF-8 encoding refuses. ``original``: a ``known_text.OriginalText`` content counts as the text
    it stands for (:func:`exact_as_is`, which hands the record itself on, not a copy read back)."""
    for key, item in record.items():
        if type(key) is not str:
            return False
        kind = type(item)
        if kind is str:
            if not item.isascii() and known_text.known(item) is None:  # a remembered text was decoded from UTF-8
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif kind is int:
            if not -_SAFE_INT <= item <= _SAFE_INT:
                return False
        elif kind is not bool and item is not None and not (original and kind is known_text.OriginalText
                                                             and key == "content"):
            return False
        if not key.isascii():
            try:
                key.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


def exact_copy(value: Any) -> Any | None:
    """What ``fast_loads(fast_compact_bytes(value))`` returns — a record written as a sif/1
    line and read back — without writing the line, or None when that is not provably the same.

    orjson writes the value (refusing a non-text key, a lone surrogate, an integer past 2^53,
    a subclass of a JSON type, deeper than orjson nests), and reads it back; the copy is the
    answer when it equals the value (a tuple, an enum, a UUID, NaN read back as something else
    are then told apart) and the brackets cannot nest past the guarded decoder's limit. Floats
    read back equal whichever encoder wrote them. Such a value decodes without refusal, in its
    own key order, to exactly this copy; anything else takes the written-and-read path."""
    found = exact_copy_float_free(value)
    return None if found is None else found[0]


def exact_copy_float_free(value: Any) -> tuple[Any, bool] | None:
    """:func:`exact_copy`, and whether the copy is known to hold no float (a float-free value's
    canonical text is orjson's: :func:`float_free_canonical_bytes`)."""
    if orjson is None:
        return None
    if type(value) is dict and value.get("type") == "material" and _flat(value):
        return dict(value), True  # _flat takes no float; a material's text can be megabytes, its keys are few
    try:
        text = orjson.dumps(value, option=_EXACT)
    except TypeError:
        return None
    if len(text) > MAX_DEPTH and text.count(b"{") + text.count(b"[") > MAX_DEPTH:
        return None
    copy = orjson.loads(text)
    if copy != value:
        return None
    return copy, not has_float_mark(text) or _float_free(copy)


_INFINITIES = (float("inf"), float("-inf"))


def _exact_text(text: str) -> bool:
    """Text strict UTF-8 can write (no lone surrogate): it reads back as the same string."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _exact_walk(value: Any, depth: int) -> int:
    """For a dict or list: -1 when some part is not provably read back as itself (see
    :func:`exact_as_is`), else 1 when a float is inside and 0 when none is."""
    if depth >= MAX_DEPTH:
        return -1  # the guarded decoder refuses this depth; the written-and-read path names it
    if type(value) is dict:
        for key in value:  # ASCII tested here, as for the values below: a call per key was 14% of the walk
            if type(key) is not str or not key.isascii() and not _exact_text(key):
                return -1
        items: Any = value.values()
    else:
        items = value
    found = 0
    for item in items:
        t = type(item)
        if t is str:
            if not item.isascii() and not _exact_text(item):
                return -1
        elif t is int:
            if not -_SAFE_INT <= item <= _SAFE_INT:
                return -1
        elif t is bool or item is None:
            continue
        elif t is float:
            if item != item or item in _INFINITIES:
                return -1
            found = 1
        elif t is dict or t is list:
            inner = _exact_walk(item, depth + 1)
            if inner < 0:
                return -1
            found |= inner
        else:
            return -1  # a tuple, a subclass, a UUID, an enum…: written as something else
    return found


def exact_as_is(value: Any) -> tuple[Any, bool] | None:
    """:func:`exact_copy_float_free` without writing, reading and comparing: ``value`` itself
    (not a copy), and whether it holds no float; None when that is not provable.

    One walk proves it: every part is a ``dict`` with text keys, a ``list``, text strict UTF-8
    can write, an integer within ±(2^53 − 1), a finite float, a boolean or None (exactly those
    types), nested less than the guarded decoder's limit. Written as a sif/1 line, such a value
    reads back without refusal as an equal value of the same types in the same key order —
    floats included: every encoder here writes a float's shortest exact form, which reads back
    as the same float. The import's records are read once after this (they are not changed),
    so the value itself stands for its copy."""
    if type(value) is dict and value.get("type") == "material" and _flat(value, original=True):
        # as exact_copy_float_free: a material's megabytes of text are not walked; a converter's
        # original as known_text.OriginalText stands for the text it was proved to decode to
        return dict(value), True
    if type(value) is not dict and type(value) is not list:
        return None
    found = _exact_walk(value, 0)
    return None if found < 0 else (value, found == 0)
