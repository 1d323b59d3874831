"""The store's digest key as read from ``store_meta``: 32 bytes, written as 64 hex digits.

Anything else (an edited or swapped row) is a store that can no longer be read as one —
``not_a_store``, which ``verify`` reports as ``damaged_store`` (exit 1), never a traceback.
"""

from __future__ import annotations

from typing import Any

from inspector.domain.errors import NotAStore

KEY_HEX = 64


def parse_key(value: Any, target: Any) -> bytes:
    text = value if isinstance(value, str) else ""
    if len(text) != KEY_HEX or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise NotAStore(f"{target}'s digest key in store_meta is damaged (not {KEY_HEX} hex digits): every seal and "
                        "binding depends on it")
    return bytes.fromhex(text)
