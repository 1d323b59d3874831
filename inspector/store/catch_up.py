"""Bringing the event search indexes up to the events the store holds: ``catch_up``.

An import writes rows only; indexing its events (SQLite's trigram and gram FTS5 tables, or
PostgreSQL's ``events_search``) used to be more work than the rows themselves. So the
indexes record how far they reach (``search_watermark``) and this module indexes what lies
above it, after the import, in bounded chunks:

* each chunk is one short write transaction through the store's writer (``BEGIN IMMEDIATE``
  on SQLite, the store-wide advisory lock on PostgreSQL), sized to take about
  :data:`CHUNK_SECONDS`, so a reviewer's accept waits behind one chunk at most, never behind
  the whole backlog;
* each chunk reads the watermark inside its transaction and moves it in the same commit, so
  running it twice, in two processes at once, or again after it was interrupted indexes
  every event exactly once — the second runner simply finds the next chunk, or nothing;
* materials' text (store format 4) is indexed the same way, up to a watermark of its own,
  before the events (inspector/store/material_index.py); the count returned is the events';
* it is not an act: an index is derived data, rebuilt from ``events`` whenever needed, so no
  ledger entry is written and ``verify`` does not depend on it.

A store that cannot be written is not caught up: its searches check the events above the
watermark against their text instead (inspector/services/search.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from inspector.store import material_index, search_index

CatchUpProgress = Callable[[int, int], None]  # (events indexed so far, events to index)

CHUNK_SECONDS = 0.1  # the longest a chunk should hold the writer
FIRST_CHUNK = 1_000
MIN_CHUNK, MAX_CHUNK = 50, 50_000


async def _index_materials(store: Any) -> None:
    """Materials imported since the last catch-up (store format 4, inspector/store/material_index.py):
    a few per session, so checked with one lookup and indexed in short transactions of their own."""
    while await material_index.backlog(store.db):
        async with store.transaction() as db:
            if not await material_index.index_next(db):
                return


async def pending(store: Any) -> int:
    """How many events the search indexes do not reach yet."""
    _mark, count = await search_index.backlog(store.db)
    return count


async def catch_up(store: Any, progress: CatchUpProgress | None = None, *, chunk: int | None = None) -> int:
    """Index every event above the watermark; return how many this call indexed.

    ``progress`` is called after each chunk. ``chunk`` fixes the chunk size (tests); by
    default it adapts so each transaction takes about :data:`CHUNK_SECONDS`."""
    if getattr(store, "read_only", False) or getattr(store, "held_upgrade", None) is not None:
        # An older store read through its upgraded copy (store/read_copy.py): indexing is a write, which
        # would upgrade the file though no act was made (a search, the app's first paint); its searches
        # read the events and materials above the watermarks instead, as on a read-only store.
        return 0
    await _index_materials(store)
    total = await pending(store)
    if not total:
        return 0
    size, done = chunk or FIRST_CHUNK, 0
    while True:
        started = time.perf_counter()
        async with store.transaction() as db:
            count, _mark = await search_index.index_next(db, size)
        if not count:
            return done
        done += count
        if progress is not None:
            progress(done, max(total, done))
        if chunk is None:
            took = max(time.perf_counter() - started, 1e-3)
            size = int(min(MAX_CHUNK, max(MIN_CHUNK, size * min(4.0, CHUNK_SECONDS / took))))
