"""JSON for the import path: the guarded decoder, and a faster canonical encoder.

Digests are defined over the standard library's canonical form (docs/store-format.md);
orjson writes the same text several times faster for values without floats, which is
where it is used.
"""

from __future__ import annotations

from typing import Any

from inspector.domain.canonical import canonical_json
from inspector.domain.guarded_json import loads as guarded_loads

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a declared dependency; stay correct without it
    orjson = None


def fast_loads(data: bytes | str) -> Any:
    """Decoding goes through the one guarded decoder (duplicate keys, lone surrogates,
    out-of-range integers and deep nesting refused); orjson cannot see duplicate keys, so it
    no longer decodes input (it still encodes, below)."""
    return guarded_loads(data)


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
