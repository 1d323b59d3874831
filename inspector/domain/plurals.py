"""A count said with its noun in the right number: "1 copy", "7 copies", never "7 cop(ies)".

The CLI and the messages it prints said "cop(ies)", "session(s)", "finding(s)" (flow-eight):
a reader (and a script matching the text) has to undo the brackets each time."""

from __future__ import annotations

from collections.abc import Iterable

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


# sif record types whose plural is not the name + "s", or whose name is not a word a reader knows.
_RECORD_NOUNS = {"state": ("state record", "state records"), "summary": ("summary", "summaries"),
                 "tool_def": ("tool definition", "tool definitions"),
                 "deletion_request": ("deletion request", "deletion requests"),
                 "ledger": ("ledger entry", "ledger entries")}


def record_count(n: int, record_type: str) -> str:
    """A count of sif records in words: "207 events", "1 state record" (the CLI's import line and
    the report's ledger acts, which said "added 4 event, 1 state")."""
    one, many = _RECORD_NOUNS.get(record_type, (record_type, f"{record_type}s"))
    return f"{n:,} {one if n == 1 else many}"


def record_counts(items: Iterable[tuple[str, int]]) -> str:
    """``(type, n)`` pairs as one phrase: "207 events, 2 materials, 1 session"."""
    return ", ".join(record_count(n, t) for t, n in items)
