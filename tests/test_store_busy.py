"""A write that cannot get the store because another reviewer's write holds it.

Found by attacking team review: on PostgreSQL a reviewer whose client hung mid-transaction
(a stopped process, a laptop lid closed, a network that drops without a reset) held the
store-wide write lock for good — every other reviewer's accept waited forever, with no
sentence; on SQLite the same wait ended after 10 s as ``damaged_store`` ("`inspector verify`
says where it is damaged"), sending the reviewer to look for damage that is not there. Now
the wait is bounded on both and refused ``store_busy`` with nothing written, and a hung
client's transaction on PostgreSQL is ended by the server, so the others can go on.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from inspector.domain.errors import InspectorError
from inspector.services.candidates import accept, reject
from inspector.store.connection import open_store
from inspector.store.schema import APPLICATION_ID


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    return backend_sample_store


async def _status(store_ref: Path | str, candidate: str) -> str:
    async with await open_store(store_ref) as store:
        rows = await store.db.execute_fetchall("SELECT status FROM candidates WHERE id = ?", (candidate,))
    return str(rows[0][0])


async def test_a_write_held_elsewhere_is_refused_store_busy_and_writes_nothing(
        sample_store: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 300)
    monkeypatch.setattr("inspector.store.pg.store.WRITE_LOCK_TIMEOUT_MS", 300)
    if isinstance(sample_store, str):  # another reviewer's transaction holds the store's write lock
        hog = await asyncpg.connect(sample_store)
        await hog.execute("BEGIN")
        await hog.execute(f"SELECT pg_advisory_xact_lock({APPLICATION_ID})")
    else:
        hog = sqlite3.connect(sample_store, isolation_level=None)
        hog.execute("BEGIN IMMEDIATE")
    try:
        async with await open_store(sample_store) as store:
            with pytest.raises(InspectorError) as refused:
                await asyncio.wait_for(accept(store, "cand-good", actor="bob"), 30)
        assert refused.value.code == "store_busy"
        assert "another" in refused.value.message and "nothing was written" in refused.value.message
    finally:
        if isinstance(hog, sqlite3.Connection):
            hog.execute("ROLLBACK")
            hog.close()
        else:
            await hog.close()
    assert await _status(sample_store, "cand-good") == "pending"
    async with await open_store(sample_store) as store:  # and once it is free, the same act goes through
        assert not (await accept(store, "cand-good", actor="bob")).validation.refusals


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
async def test_a_hung_reviewers_transaction_is_ended_by_the_server(
        sample_store: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("inspector.store.pg.store.IDLE_IN_TRANSACTION_TIMEOUT_MS", 500)
    async with await open_store(sample_store) as hung, await open_store(sample_store) as other:
        with pytest.raises(InspectorError) as lost:
            async with hung.transaction():  # the client stops here, holding the write lock
                await asyncio.sleep(2)
        assert lost.value.code == "store_unreachable"
        decided = await asyncio.wait_for(reject(other, "cand-good", actor="carol", reason="no"), 30)
        assert not decided.validation.refusals
    assert await _status(sample_store, "cand-good") == "rejected"
