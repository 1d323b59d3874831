"""A count said with its noun in the right number: "1 copy", "7 copies", never "7 cop(ies)".

The CLI and the messages it prints said "cop(ies)", "session(s)", "finding(s)" (flow-eight):
a reader (and a script matching the text) has to undo the brackets each time."""

from __future__ import annotations

_IRREGULAR = {"copy": "copies", "entry": "entries", "summary": "summaries", "ledger entry": "ledger entries",
              "search-index entry": "search-index entries", "chunk of": "chunks of"}


def plural(one: str) -> str:
    if one in _IRREGULAR:
        return _IRREGULAR[one]
    if one.endswith("y") and one[-2:-1] not in "aeiou":
        return one[:-1] + "ies"
    return one + ("es" if one.endswith(("s", "x", "ch", "sh")) else "s")


def counted(n: int, one: str, many: str | None = None) -> str:
    """``n`` with ``one`` or its plural (``many`` when it is not made by the rules): "1,204 events"."""
    return f"{n:,} {one if n == 1 else many or plural(one)}"
