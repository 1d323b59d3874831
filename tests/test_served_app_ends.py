"""A served app ends once its server is gone, and a terminal app never looks (inspector/ui/served.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.ui import served
from inspector.ui.app import InspectorApp

ENDED: list[str] = []


async def _runs_after_parent_changes(store: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    parent = [4242]
    ENDED.clear()
    monkeypatch.setattr(served.os, "getppid", lambda: parent[0])
    monkeypatch.setattr(served, "LOOK_S", 0.05)
    monkeypatch.setattr(served, "HARD_EXIT_S", 0.05)
    monkeypatch.setattr(served, "_end_process", lambda: ENDED.append("ended"))  # not this test process
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        parent[0] = 1  # the server was killed: the app was handed to init
        for _ in range(40):
            await asyncio.sleep(0.05)
            if not app.is_running:
                break
        return app.is_running


async def test_a_served_app_exits_once_its_server_is_gone(sample_store: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert not await _runs_after_parent_changes(sample_store, monkeypatch)
    # an exit that hangs at shutdown (a store connection left open by a cancelled worker keeps a
    # thread alive) is ended by a timer: seen after test runs, an app with no server for ever
    for _ in range(100):
        if ENDED:
            break
        await asyncio.sleep(0.02)
    assert ENDED == ["ended"]


async def test_a_terminal_app_does_not_watch_its_parent(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert await _runs_after_parent_changes(sample_store, monkeypatch)
    await asyncio.sleep(0.2)
    assert ENDED == []  # a person's terminal app is never ended from under them


class _BrokenPipe:
    """A served app's stderr once its server is gone: every write raises."""

    def write(self, _text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


def test_the_timer_ends_the_process_even_when_stderr_is_a_broken_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen after a CI run: the timer's notice raised on the dead pipe, its thread ended there,
    and the app's process waited in threading._shutdown for ever."""
    ENDED.clear()
    monkeypatch.setattr(served, "_end_process", lambda: ENDED.append("ended"))
    monkeypatch.setattr(served.sys, "stderr", _BrokenPipe())
    served._fire()
    assert ENDED == ["ended"]
