"""The characters base32 and base85 write for a value, wherever in a longer encoded text it falls.

An encoder works in groups (base64: 3 bytes to 4 characters; base32: 5 to 8; base85 and Ascii85: 4 to
5), so a value inside a longer encoded text is spelled by the groups that hold only its bytes, and
which those are depends on where the value starts. For each possible start the whole groups are
encoded; the characters of a group that also holds a neighbour's bytes are unknown and left out.

Base32 (RFC 4648, and its "extended hex" alphabet) is case-insensitive and is looked for after case
folding; base85 (RFC 1924: git, Python's ``b85encode``) and Ascii85 (Adobe: PostScript, PDF,
``btoa``) are case-sensitive and looked for as written (deletion round ten: each was said in
``not_checked`` before).
"""

from __future__ import annotations

import base64
from collections.abc import Callable

MIN_ENCODED = 8  # fewer characters would match by coincidence


def _grouped(data: bytes, group: int, encode: Callable[[bytes], bytes]) -> list[str]:
    """``encode`` of ``data``'s whole groups for each start within a group (padding never kept)."""
    out = []
    for start in range(group):
        body = data[start:]
        body = body[:len(body) - len(body) % group]
        if body:
            piece = encode(body).decode("ascii").rstrip("=")
            if len(piece) >= MIN_ENCODED:
                out.append(piece)
    return out


def base32_fragments(data: bytes) -> list[str]:
    """Base32 of ``data`` (standard and extended-hex alphabets), in lower case: looked for folded."""
    return sorted({p.lower() for encode in (base64.b32encode, base64.b32hexencode) for p in _grouped(data, 5, encode)})


def base85_fragments(data: bytes) -> dict[str, str]:
    """Base85 (RFC 1924) and Ascii85 of ``data``, each with the name of its alphabet."""
    out = {p: "base85" for p in _grouped(data, 4, base64.b85encode)}
    for p in _grouped(data, 4, base64.a85encode):
        out.setdefault(p, "Ascii85")
    return out
