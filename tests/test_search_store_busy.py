"""A search while another program holds the store's write lock (store-fault-six).

A search first indexes the events imported since the last one (catch-up: short write
transactions). With another program's write holding the store (``sqlite3`` with ``BEGIN
IMMEDIATE`` left open), that catch-up waited out the busy timeout and the whole search was
refused ``store_busy`` — "another reviewer's write held the store …; nothing was written" —
for a read; the app showed it as "Cannot do that". Now the search goes on without the
catch-up and finds what the indexes do not reach by its text (as on a read-only store): the
same hits as once the store is free. And the app's indexing after its first paint, which said
"Cannot do that (store_busy) … nothing was written" 10 s after opening beside such a write to a
reviewer who had done nothing, leaves the events for the next search.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.services.search import index_new_events, search
from inspector.store.connection import open_store


def _found(result: object) -> list[tuple[str, str]]:
    return [(hit.ref, hit.matched) for hit in result.hits]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("session", "query"), [("s-export", "P95"), ("s-weather", "降雨")])
async def test_a_search_goes_on_when_another_write_holds_the_store(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, session: str, query: str) -> None:
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 200)
    hog = sqlite3.connect(sample_store, isolation_level=None)
    hog.execute("BEGIN IMMEDIATE")  # the sample store was imported, never searched: nothing indexed yet
    try:
        async with await open_store(sample_store) as store:
            held = await search(store, session, query)
    finally:
        hog.execute("ROLLBACK")
        hog.close()
    async with await open_store(sample_store) as store:
        free = await search(store, session, query)
    assert _found(free), "the query should find something"
    assert _found(held) == _found(free)


async def test_the_apps_indexing_after_its_first_paint_leaves_a_held_store_for_later(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 200)
    hog = sqlite3.connect(sample_store, isolation_level=None)
    hog.execute("BEGIN IMMEDIATE")
    try:
        async with await open_store(sample_store) as store:
            assert await index_new_events(store) == 0  # nothing indexed, nothing said
    finally:
        hog.execute("ROLLBACK")
        hog.close()
    async with await open_store(sample_store) as store:
        assert await index_new_events(store) > 0  # the store free: the events are indexed
