"""Keeping a shared report small enough to open, and saying exactly what it left out.

A report of a 100k-event session held every event: 27 MB of HTML that took Chromium
close to a minute to open, and one 50 MB tool result made a 50 MB page. A page that
does not open shares nothing, so the conversation keeps its first and last entries
(where a session starts and where it ended up) and each long text keeps its head; every
cut says, at its place, how much is missing and where the whole is (the store, the app,
``export``). The verdicts above the conversation are never cut: they are computed over
the whole log before any of this runs.
"""

from __future__ import annotations

import json
from typing import Any

DEFAULT_MAX_ENTRIES = 2_000  # conversation entries kept (first half + last half); 0 keeps all
DEFAULT_MAX_CHARS = 20_000  # characters kept of one text (a message, thinking, a result, a call's arguments)


def _cut_text(text: Any, limit: int) -> tuple[Any, int]:
    """``text`` cut to ``limit`` characters, and how many characters were left out."""
    if not isinstance(text, str) or limit <= 0 or len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def cut_turn(turn: dict[str, Any], limit: int) -> dict[str, Any]:
    """One conversation entry with each long text cut; ``cut`` names each cut field and the
    number of characters left out of it (the HTML says so beside the text)."""
    cut: dict[str, int] = {}
    out = dict(turn)
    for name in ("content", "reasoning"):
        out[name], lost = _cut_text(out.get(name), limit)
        if lost:
            cut[name] = lost
    if out.get("args") is not None:
        whole = json.dumps(out["args"], ensure_ascii=False, indent=2)
        if len(whole) > limit:  # shown as the head of its JSON text: a cut structure is not valid JSON
            out["args"] = whole[:limit]
            cut["args"] = len(whole) - limit
    if isinstance(out.get("result"), dict):
        result = dict(out["result"])
        result["content"], lost = _cut_text(result.get("content"), limit)
        if lost:
            cut["result"] = lost
        out["result"] = result
    if cut:
        out["cut"] = cut
    return out


def bound_conversation(turns: list[dict[str, Any]], max_entries: int = DEFAULT_MAX_ENTRIES,
                       max_chars: int = DEFAULT_MAX_CHARS) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The entries the report shows and, when some are left out, what: their number and the
    event range, with the index where the gap stands among the kept entries."""
    kept = turns
    left_out: dict[str, Any] | None = None
    if max_entries > 0 and len(turns) > max_entries:
        head, tail = (max_entries + 1) // 2, max_entries // 2
        gone = turns[head:len(turns) - tail]
        kept = turns[:head] + turns[len(turns) - tail:]
        left_out = {"entries": len(gone), "of": len(turns), "first_seq": gone[0]["seq"], "last_seq": gone[-1]["seq"],
                    "at_index": head, "max_entries": max_entries}
    return [cut_turn(t, max_chars) for t in kept], left_out


DEFAULT_MAX_CHECK_ITEMS = 100  # items kept per list of ``check``'s result (the badges count them all)


def bound_check(check: dict[str, Any], max_items: int = DEFAULT_MAX_CHECK_ITEMS) -> dict[str, Any]:
    """``check``'s result with each list cut to ``max_items`` (0: all); ``left_out`` counts the
    rest per list, and ``counts`` holds every list's whole length (25,000 protocol problems of a
    bench log made a 5 MB section)."""
    out = dict(check)
    counts: dict[str, int] = {}
    left_out: dict[str, int] = {}
    for name, value in check.items():
        if isinstance(value, list) and name != "checks_run":
            counts[name] = len(value)
            if max_items > 0 and len(value) > max_items:
                out[name] = value[:max_items]
                left_out[name] = len(value) - max_items
    out["counts"] = counts
    out["left_out"] = left_out
    return out
