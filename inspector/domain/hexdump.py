"""The bytes a hex dump shows, read back: an agent that runs ``xxd``, ``hexdump -C`` or ``od -A x -t x1z``
on a file holding a secret prints it sixteen bytes a line, between offsets and an ASCII column.

Neither column holds the value whole — the hex is cut by offsets, the ASCII column by line ends
(``zq.hidden.person`` / ``@example.org``) — so no spelling a deletion compared found it (hostile
review nine). :func:`dumped_bytes` joins the hex of every dump line of a text, in order, and a
deletion reads the result as text like any other (domain/deletion_forms.py).
"""

from __future__ import annotations

import re

# An offset (6–8+ hex digits, ":" after it for xxd), then hex bytes in groups of 2 or 4 digits
# (xxd: "7a71 2e68", hexdump -C / od: "7a 71 2e"), then the ASCII column.
_LINE = re.compile(r"^[ \t]*[0-9a-fA-F]{6,16}:?[ \t]+((?:[0-9a-fA-F]{2}(?:[0-9a-fA-F]{2})?[ \t]{1,3}){1,16})",
                   re.MULTILINE)
_HINT = re.compile(r"^[ \t]*[0-9a-fA-F]{6,16}:?[ \t]+[0-9a-fA-F]{2}", re.MULTILINE)


def dumped_bytes(text: str) -> bytes | None:
    """The bytes of every hex-dump line in ``text`` joined in order (None when it holds fewer than two)."""
    if _HINT.search(text) is None:
        return None
    groups = [m.group(1) for m in _LINE.finditer(text)]
    if len(groups) < 2:
        return None
    try:
        return bytes.fromhex("".join("".join(g.split()) for g in groups))
    except ValueError:
        return None
