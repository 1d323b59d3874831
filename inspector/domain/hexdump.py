"""The bytes a hex dump or a byte list shows, read back: an agent that runs ``xxd``, ``hexdump -C`` or
``od -A x -t x1z`` on a file holding a secret prints it sixteen bytes a line, between offsets and an
ASCII column; one that embeds it in code writes ``{0x7a, 0x71, …}`` or ``7a:71:2e:…``.

Neither column holds the value whole — the hex is cut by offsets, the ASCII column by line ends
(``zq.hidden.person`` / ``@example.org``) — so no spelling a deletion compared found it (hostile
review nine). :func:`dumped_bytes` joins the hex of every dump line of a text, in order, and a
deletion reads the result as text like any other (domain/deletion_forms.py); :func:`listed_bytes`
does the same for each run of eight or more hex bytes written with separators (``:``, ``,``, spaces,
``-``) or ``0x`` prefixes — hex written as one run is found already (its hex is looked for).
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


_LISTED = re.compile(r"(?<![0-9A-Za-z])(?:(?:0[xX])?[0-9a-fA-F]{2}(?:[ \t]*[:,;\-][ \t]*|[ \t]+)){7,}(?:0[xX])?[0-9a-fA-F]{2}(?![0-9a-fA-F])")
_NOT_HEX = re.compile(r"0[xX]|[^0-9a-fA-F]")


def listed_bytes(text: str) -> list[bytes]:
    """The bytes of each run of 8+ separated hex bytes in ``text`` (``0x7a, 0x71``, ``7a:71``, ``7a 71``)."""
    if not any(sign in text for sign in ("0x", "0X", ":", ",", " ", "-")):
        return []
    return [bytes.fromhex(_NOT_HEX.sub("", m.group())) for m in _LISTED.finditer(text)]
