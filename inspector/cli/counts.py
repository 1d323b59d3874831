"""Record counts said in words: "207 events, 1 session, 8 state records", never "207 event"."""

from __future__ import annotations

from collections.abc import Iterable

# sif record types whose plural is not the name + "s", or whose name is not a word a reader knows.
_NOUNS = {"state": ("state record", "state records"), "summary": ("summary", "summaries"),
          "tool_def": ("tool definition", "tool definitions"),
          "deletion_request": ("deletion request", "deletion requests"),
          "ledger": ("ledger entry", "ledger entries")}


def counted(n: int, record_type: str) -> str:
    one, many = _NOUNS.get(record_type, (record_type, f"{record_type}s"))
    return f"{n:,} {one if n == 1 else many}"


def counts_text(items: Iterable[tuple[str, int]]) -> str:
    """``(type, n)`` pairs as one phrase: "207 events, 2 materials, 1 session"."""
    return ", ".join(counted(n, t) for t, n in items)
