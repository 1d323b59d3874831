"""A live follow's own ledger entries as one timeline row per follow, not one row per batch.

Following a transcript imports every batch of appended lines in its own transaction with its
own ``import`` ledger entry (and a ``facts.proposed`` entry when the extractor proposed facts),
so a follow of a few minutes put dozens of ``import`` / ``facts.proposed`` rows at the end of
the timeline, pushing the events they imported out of sight. Here a *run* — consecutive
ledger entries of one actor that are each an import of an appended part of a file (``bytes``
not starting at 0) or a ``facts.proposed`` — reads as one row, placed where its last entry
would be (the entries stay in the ledger, one each; ``enter`` on the row lists them). A run of
one entry stays a plain row, and any other act (an accept, a correction, another reviewer's
entry) ends the run, so acts are never folded away.

Pages stay keyset pages: a folded row's key is its last entry's, a page going forward takes a
run whose last entry is beyond the key whole (reading the run's earlier entries for its
counts), and a page going backward leaves out a run that continues past the key (that row is
shown after the key). Pages therefore agree about where a run is, however the window slides.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

Raw = tuple[str, int, str, str, str]  # at, seq, kind, actor, payload (as stored)
Key = tuple[str, int, int]
Fetch = Callable[[Key | None, bool, int], Awaitable[list[Raw]]]

LEDGER = 1
BATCH = 200


def foldable(raw: Raw) -> bool:
    """An appended part's import, or the extractor's proposals that follow one."""
    _at, _seq, kind, _actor, payload = raw
    if kind == "facts.proposed":
        return True
    if kind != "import":
        return False
    try:
        span = json.loads(payload).get("bytes")
    except (ValueError, AttributeError):
        return False
    return isinstance(span, list) and len(span) == 2 and isinstance(span[0], int) and span[0] > 0


def joins(a: Raw, b: Raw) -> bool:
    return a[3] == b[3] and foldable(a) and foldable(b)


def key_of(raw: Raw) -> Key:
    return (raw[0], LEDGER, raw[1])


@dataclass(frozen=True, slots=True)
class Fold:
    """What a folded row says about its entries (ascending)."""

    first_seq: int
    last_seq: int
    entries: int
    imports: int
    proposals: int
    events: int
    bytes_from: int | None
    bytes_to: int | None

    def text(self) -> str:
        parts = [f"{self.imports} appended part{'' if self.imports == 1 else 's'} imported"]
        if self.bytes_from is not None and self.bytes_to is not None:
            parts[0] += f" (bytes {self.bytes_from:,}–{self.bytes_to:,}, {self.events:,} event"
            parts[0] += f"{'' if self.events == 1 else 's'})"
        if self.proposals:
            parts.append(f"{self.proposals} facts.proposed")
        return (" · ".join(parts) + f" · {self.entries} ledger entries L{self.first_seq}–L{self.last_seq}, "
                "enter lists them")


def summarise(run: list[Raw]) -> Fold:
    run = sorted(run, key=lambda r: (r[0], r[1]))
    imports = proposals = events = 0
    start: int | None = None
    end: int | None = None
    for _at, _seq, kind, _actor, payload in run:
        if kind == "facts.proposed":
            proposals += 1
            continue
        imports += 1
        body: dict[str, Any] = json.loads(payload)
        span = body.get("bytes") or [None, None]
        start = span[0] if start is None else start
        end = span[1] if isinstance(span[1], int) else end
        added = body.get("added") or {}
        events += int(added.get("event", 0)) if isinstance(added, dict) else 0
    return Fold(run[0][1], run[-1][1], len(run), imports, proposals, events, start, end)


async def _run_beyond(fetch: Fetch, edge: Raw, forward: bool) -> list[Raw]:
    """The entries of ``edge``'s run beyond it in direction ``forward`` (nearest first)."""
    out: list[Raw] = []
    last = edge
    while True:
        batch = await fetch(key_of(last), forward, BATCH)
        for raw in batch:
            if not joins(last, raw):
                return out
            out.append(raw)
            last = raw
        if len(batch) < BATCH:
            return out


async def folded_page(fetch: Fetch, key: Key | None, forward: bool, limit: int) -> list[tuple[Raw, Fold | None]]:
    """Up to ``limit`` ledger rows after ``key`` (before it going back), in direction order: a
    plain entry as ``(raw, None)``, a run as ``(its last entry, Fold)``."""
    out: list[tuple[Raw, Fold | None]] = []
    run: list[Raw] = []  # in direction order

    def close() -> None:
        nonlocal run
        if len(run) == 1:
            out.append((run[0], None))
        elif run:
            last = max(run, key=lambda r: (r[0], r[1]))
            out.append((last, summarise(run)))
        run = []

    size = max(limit, BATCH)
    cursor = key
    first = True
    while True:
        batch = await fetch(cursor, forward, size)
        if first:
            first = False
            if batch and foldable(batch[0]):
                if forward:  # a run begun before the key: its earlier entries count in its row
                    run = list(reversed(await _run_beyond(fetch, batch[0], False)))
                elif any(joins(batch[0], r) for r in await fetch(key_of(batch[0]), True, 1)):
                    # a run that goes on past the key is shown after it: this page starts below it
                    behind = await _run_beyond(fetch, batch[0], False)
                    cursor = key_of(behind[-1] if behind else batch[0])
                    continue
        for raw in batch:
            if run and joins(run[-1], raw):
                run.append(raw)
                continue
            close()
            if len(out) >= limit:
                return out
            if foldable(raw):
                run = [raw]
            else:
                out.append((raw, None))
                if len(out) >= limit:
                    return out
        if len(batch) < size:
            close()
            return out
        cursor = key_of(batch[-1])
