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

Finding where a run ends and counting it are queries (a follow of an hour is thousands of
entries, and the end of the timeline is read again after every batch), so the test of an entry is
one text test the SQL and this module share: the stored payload is canonical JSON.

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

from inspector.store.connection import Store, fetch_one

Raw = tuple[str, int, str, str, str]  # at, seq, kind, actor, payload (as stored)
Key = tuple[str, int, int]
Fetch = Callable[[Key | None, bool, int], Awaitable[list[Raw]]]

LEDGER = 1
BATCH = 200


def foldable(raw: Raw) -> bool:
    """An appended part's import (``"bytes":[N,…]`` with N > 0), or the extractor's proposals."""
    _at, _seq, kind, _actor, payload = raw
    return kind == "facts.proposed" or (kind == "import" and '"bytes":[' in payload and '"bytes":[0,' not in payload)


# The same test in SQL, on the stored (canonical, compact) payload text.
FOLDABLE_SQL = ("(kind = 'facts.proposed' OR (kind = 'import' AND payload LIKE '%\"bytes\":[%' "
                "AND payload NOT LIKE '%\"bytes\":[0,%'))")


def joins(a: Raw, b: Raw) -> bool:
    return a[3] == b[3] and foldable(a) and foldable(b)


def key_of(raw: Raw) -> Key:
    return (raw[0], LEDGER, raw[1])


@dataclass(frozen=True, slots=True)
class Fold:
    """What a folded row says about its entries."""

    first_seq: int
    last_seq: int
    entries: int
    imports: int
    bytes_from: int | None
    bytes_to: int | None

    @property
    def proposals(self) -> int:
        return self.entries - self.imports

    def text(self) -> str:
        said = f"{self.imports} appended part{'' if self.imports == 1 else 's'} imported"
        if self.bytes_from is not None and self.bytes_to is not None:
            said += f" (bytes {self.bytes_from:,}–{self.bytes_to:,})"
        if self.proposals:
            said += f" · {self.proposals} facts.proposed"
        return f"{said} · {self.entries} ledger entries L{self.first_seq}–L{self.last_seq}, enter lists them"


class Runs:
    """The queries behind folding, for one session's ledger; ``fetch`` reads a keyset page."""

    def __init__(self, store: Store, session: str, fetch: Fetch) -> None:
        self.store, self.session, self.fetch = store, session, fetch

    async def edge(self, raw: Raw, forward: bool) -> Raw:
        """The farthest entry of ``raw``'s run in direction ``forward`` (``raw`` when none joins it)."""
        if not foldable(raw):
            return raw
        cmp, order = (">", "ASC") if forward else ("<", "DESC")
        stop = await fetch_one(
            self.store.db,
            f"SELECT at, seq FROM ledger WHERE session = ? AND seq {cmp} ? "
            f"AND NOT (actor = ? AND {FOLDABLE_SQL}) ORDER BY seq {order} LIMIT 1",
            (self.session, raw[1], raw[3]))
        back, border = ("<", "DESC") if forward else (">", "ASC")
        bound = f"AND seq {back} ?" if stop is not None else ""
        row = await fetch_one(
            self.store.db,
            f"SELECT at, seq, kind, actor, payload FROM ledger WHERE session = ? {bound} "
            f"ORDER BY seq {border} LIMIT 1",
            (self.session, *((stop[1],) if stop is not None else ())))
        return tuple(row) if row is not None else raw  # type: ignore[return-value]

    async def summary(self, a: Raw, b: Raw) -> Fold:
        first, last = sorted((a, b), key=lambda r: r[1])
        span = "session = ? AND seq >= ? AND seq <= ?"
        args = (self.session, first[1], last[1])
        counts = await fetch_one(
            self.store.db,
            f"SELECT COUNT(*), SUM(CASE WHEN kind = 'import' THEN 1 ELSE 0 END) FROM ledger WHERE {span}", args)
        ends: list[Any] = []
        for order in ("ASC", "DESC"):
            row = await fetch_one(self.store.db, f"SELECT payload FROM ledger WHERE {span} AND kind = 'import' "
                                  f"ORDER BY seq {order} LIMIT 1", args)
            found = json.loads(row[0]).get("bytes") if row is not None else None
            ends.append(found if isinstance(found, list) and len(found) == 2 else [None, None])
        entries, imports = (int(v or 0) for v in (counts or (0, 0)))
        return Fold(first[1], last[1], entries, imports, ends[0][0], ends[1][1])


async def folded_page(runs: Runs, key: Key | None, forward: bool, limit: int) -> list[tuple[Raw, Fold | None]]:
    """Up to ``limit`` ledger rows after ``key`` (before it going back), in direction order: a
    plain entry as ``(raw, None)``, a run as ``(its last entry, Fold)``."""
    out: list[tuple[Raw, Fold | None]] = []
    run: list[Raw] = []  # the open run's nearest and farthest entries so far, in direction order

    async def close() -> None:
        nonlocal run
        if len(run) == 1:
            out.append((run[0], None))
        elif run:
            last = max(run, key=lambda r: r[1])
            out.append((last, await runs.summary(run[0], run[-1])))
        run = []

    size = max(limit, BATCH)
    cursor = key
    first = True
    while True:
        batch = await runs.fetch(cursor, forward, size)
        if first:
            first = False
            if batch and foldable(batch[0]):
                if forward:  # a run begun before the key: its earlier entries count in its row
                    start = await runs.edge(batch[0], False)
                    run = [start] if start[1] != batch[0][1] else []
                elif (await runs.edge(batch[0], True))[1] != batch[0][1]:
                    # a run that goes on past the key is shown after it: this page starts below it
                    cursor = key_of(await runs.edge(batch[0], False))
                    continue
        for raw in batch:
            if run and joins(run[-1], raw):
                run[1:] = [raw]
                continue
            await close()
            if len(out) >= limit:
                return out
            if foldable(raw):
                run = [raw]
            else:
                out.append((raw, None))
                if len(out) >= limit:
                    return out
        if len(batch) < size:
            await close()
            return out
        if run and run[-1] is batch[-1]:  # a run reaching past the batch: jump to its far end
            far = await runs.edge(batch[-1], forward)
            run[1:] = [far]
            cursor = key_of(far)
        else:
            cursor = key_of(batch[-1])
