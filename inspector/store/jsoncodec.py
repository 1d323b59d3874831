"""A faster JSON decoder with exactly the standard library's results.

orjson decodes several times faster; for the few inputs it refuses but ``json.loads``
accepts (lone surrogates, NaN, integers past 64 bits) we fall back, so what is accepted
and what it decodes to never depends on which decoder ran. Encoding stays with the
standard library: digests are defined over its canonical form (docs/store-format.md).
"""

from __future__ import annotations

import json
import re
from typing import Any

from inspector.domain.canonical import canonical_json

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a declared dependency; stay correct without it
    orjson = None


# orjson turns integers outside 64 bits into floats without a word; any run of 19+
# digits (rare outside such numbers) goes to json instead.
_LONG_DIGITS = re.compile(rb"\d{19}")


def fast_loads(data: bytes | str) -> Any:
    raw = data.encode("utf-8", errors="surrogatepass") if isinstance(data, str) else data
    if orjson is not None and _LONG_DIGITS.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


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
    if orjson is not None and _float_free(value):
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")
        except (orjson.JSONEncodeError, UnicodeDecodeError):
            pass
    return canonical_json(value)
