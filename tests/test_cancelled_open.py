"""A store opened, read or closed by a task cancelled at any await leaves no connection open.

An app exiting while a worker opened its store (Textual cancels its workers, then asyncio.run
cancels whatever is still running, a second time) left aiosqlite connections open: their
threads kept the interpreter waiting at shutdown for ever (seen: served apps hung in
threading._shutdown). Here every await on a store connection is, in turn, the one a cancel
lands on — once, and again during the cleanup the first cancel started — and afterwards no
aiosqlite thread may be left running.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from inspector.store.connection import Store, open_store


def _live_connection_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()}


class _CancelAt:
    """Cancels the running task at its ``at``-th await on any store connection (and again at
    ``again`` awaits later, when set): counts the awaits of a whole run when ``at`` is None."""

    def __init__(self, at: int | None, again: int | None = None) -> None:
        self.at, self.again, self.count, self.connections = at, again, 0, []  # type: ignore[var-annotated]
        self.task: asyncio.Task[Any] | None = None

    def hit(self) -> None:
        self.count += 1
        if self.task is None or self.at is None:
            return
        if self.count == self.at or (self.again is not None and self.count == self.at + self.again):
            self.task.cancel()


@pytest.fixture
def cancel_at(monkeypatch: pytest.MonkeyPatch) -> Callable[[int | None, int | None], _CancelAt]:
    made: list[_CancelAt] = []
    execute, connect, init = aiosqlite.Connection._execute, aiosqlite.Connection._connect, aiosqlite.Connection.__init__

    async def counted_execute(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        made[-1].hit()
        return await execute(self, fn, *args, **kwargs)

    async def counted_connect(self: aiosqlite.Connection) -> aiosqlite.Connection:
        made[-1].hit()
        return await connect(self)

    def recorded_init(self: aiosqlite.Connection, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made[-1].connections.append(self)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted_execute)
    monkeypatch.setattr(aiosqlite.Connection, "_connect", counted_connect)
    monkeypatch.setattr(aiosqlite.Connection, "__init__", recorded_init)

    def make(at: int | None, again: int | None = None) -> _CancelAt:
        made.append(_CancelAt(at, again))
        return made[-1]

    return make


async def _settled(before: set[threading.Thread]) -> set[threading.Thread]:
    """The connection threads started since ``before`` that are still running after a moment."""
    for _ in range(100):
        left = _live_connection_threads() - before
        if not left:
            return left
        await asyncio.sleep(0.02)
    return _live_connection_threads() - before


async def _run_cancelled(work: Callable[[], Awaitable[Any]], probe: _CancelAt) -> None:
    """Run ``work`` as a task cancelled by ``probe``; close whatever store it still returned."""
    task = asyncio.ensure_future(work())
    probe.task = task
    await asyncio.wait({task}, timeout=10)
    assert task.done(), f"still running 10 s after a cancel at await {probe.at} (again +{probe.again})"
    try:
        result = await task
    except asyncio.CancelledError:
        if not task.cancelled():
            raise
        return
    if isinstance(result, Store):
        await result.close()


def _awaits(probe: _CancelAt) -> int:
    assert probe.count > 3, "the counting patch no longer sees the store's awaits"
    return probe.count


async def _each_cancel(cancel_at: Callable[[int | None, int | None], _CancelAt],
                       work: Callable[[], Awaitable[Any]]) -> None:
    counting = cancel_at(None, None)
    await _run_cancelled(work, counting)
    total = _awaits(counting)
    for again in (None, 1, 2):  # once; and again during the cleanup the first cancel started
        for at in range(1, total + 1):
            before = _live_connection_threads()
            probe = cancel_at(at, again)
            await _run_cancelled(work, probe)
            left = await _settled(before)
            assert not left, f"cancelled at await {at} of {total} (again +{again}): {len(left)} connection(s) left open"
            assert all(c._connection is None for c in probe.connections)


async def test_an_open_cancelled_at_any_await_leaves_no_connection(sample_store: Path, cancel_at: Any) -> None:
    await _each_cancel(cancel_at, lambda: open_store(sample_store))


async def test_a_read_only_open_cancelled_at_any_await_leaves_no_connection(sample_store: Path,
                                                                            cancel_at: Any) -> None:
    await _each_cancel(cancel_at, lambda: open_store(sample_store, read_only=True))


async def test_a_snapshot_and_close_cancelled_at_any_await_leave_no_connection(sample_store: Path,
                                                                               cancel_at: Any) -> None:
    async def read_then_close() -> None:
        store = await open_store(sample_store)
        try:
            async with store.snapshot() as db:  # a reader of its own, lent from the pool
                await db.execute_fetchall("SELECT COUNT(*) FROM events")
            async with store.snapshot() as db:
                await db.execute_fetchall("SELECT COUNT(*) FROM ledger")
        finally:
            await store.close()

    await _each_cancel(cancel_at, read_then_close)


async def test_a_snapshot_begun_after_the_store_closed_keeps_no_reader(sample_store: Path) -> None:
    """A worker still reading when the app closed the store (its exit) got a new reader from the
    closed store's pool maker, and nobody closed it again."""
    before = _live_connection_threads()
    store = await open_store(sample_store)
    await store.close()
    with pytest.raises(Exception):  # noqa: B017, PT011 - whatever it says, it must not keep a reader
        async with store.snapshot() as db:
            await db.execute_fetchall("SELECT 1")
    assert not await _settled(before)
