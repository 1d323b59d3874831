"""An app that has ended keeps no store open, and the hard-exit timer says when it had to fire.

A transcript imported in a thread hands its store to the app when done (``call_from_thread``
→ ``show_store``); when that came after the app's unmount had closed the store it showed, the
new store was kept by an app that would never close it, and its two connection threads held
the interpreter at shutdown (served apps hung in threading._shutdown; ui/served.py's timer
ended them, silently).
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from inspector.store import connection
from inspector.store.connection import Store
from inspector.ui import served
from inspector.ui.app import InspectorApp
from tests.test_app import settle


def _connection_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name and t.is_alive()}


async def _left_since(before: set[threading.Thread]) -> set[threading.Thread]:
    for _ in range(100):
        if not _connection_threads() - before:
            break
        await asyncio.sleep(0.02)
    return _connection_threads() - before


async def test_a_store_that_finishes_opening_after_the_app_ended_is_closed(sample_store: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    exited = asyncio.Event()
    real_open = connection.open_store

    async def late(*args: Any, **kwargs: Any) -> Store:
        await exited.wait()  # the app ends while this store is being opened
        return await real_open(*args, **kwargs)

    before = _connection_threads()
    app = InspectorApp(sample_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)  # the startup worker's own open is done (the loading note's, flow-seven)
        monkeypatch.setattr(connection, "open_store", late)
        # what a transcript's thread runs on the app's loop (call_from_thread), not a worker: not cancelled
        handed = asyncio.ensure_future(app.show_store(sample_store, None, None))
        await pilot.pause()
    exited.set()
    await handed
    assert app.store is None
    assert not await _left_since(before)
    await app.show_store(sample_store, None, None)  # handed over once the app is gone: nothing is opened
    assert app.store is None and not await _left_since(before)


async def test_two_stores_opened_at_once_leave_one_open(sample_store: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two opens in flight (the startup worker and a transcript's thread): the one kept replaces the
    other, which is closed, not left open behind the screen."""
    other = tmp_path / "other.db"
    other.write_bytes(sample_store.read_bytes())
    opened: list[Store] = []
    real_open = connection.open_store

    async def recorded(*args: Any, **kwargs: Any) -> Store:
        opened.append(await real_open(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(connection, "open_store", recorded)
    before = _connection_threads()
    app = InspectorApp(sample_store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)  # the startup worker's open first: three opens in all
        await asyncio.gather(app.show_store(sample_store, None, None), app.show_store(other, None, None))
        await pilot.pause()
        assert len(opened) == 3 and app.store in opened
        assert [s for s in opened if not s._closed] == [app.store]
    assert not await _left_since(before)


def test_the_hard_exit_timer_says_what_held_the_process(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    ended: list[str] = []
    monkeypatch.setattr(served, "_end_process", lambda: ended.append("ended"))
    monkeypatch.setattr(served, "HARD_EXIT_S", 0.01)
    stuck = threading.Event()
    holder = threading.Thread(target=stuck.wait, name="a-connection-left-open")
    holder.start()
    try:
        served.end_process_soon().join(2)
    finally:
        stuck.set()
        holder.join()
    assert ended == ["ended"]
    said = capsys.readouterr().err
    assert "still running" in said and "a-connection-left-open" in said
