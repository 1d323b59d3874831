"""The progress line is shown only while its work runs, however late its 0.5 s "show" is handled."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from inspector.ui.app import InspectorApp
from inspector.ui.widgets import progress_line
from inspector.ui.widgets.progress_line import ProgressLine
from tests.test_app import settle


class LineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ProgressLine()


async def test_a_late_show_after_the_task_ended_leaves_the_line_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual queues a timer's callback on the widget when the timer fires; on a loaded machine the
    line's queue is behind, the task ends first, and the queued show used to leave "… 100%" on
    screen for good. Here the line's queue is held until the task has ended."""
    monkeypatch.setattr(progress_line, "SHOW_AFTER_S", 0.01)
    app = LineApp()
    async with app.run_test() as pilot:
        line = app.query_one(ProgressLine)
        behind = asyncio.Event()
        line.call_later(behind.wait)  # the line's queue is busy, as on a loaded machine
        with line.task("Working") as step:
            await asyncio.sleep(0.1)  # the timer fires; its show waits in the line's queue
            step(1, 1)
            assert line.has_class("-running")  # slow work is shown while it runs
        behind.set()
        await pilot.pause()
        assert not line.has_class("-running")


async def test_the_line_stays_while_an_overlapping_task_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Verify may run while the tabs' survival does: the one that ends first does not hide the other."""
    monkeypatch.setattr(progress_line, "SHOW_AFTER_S", 0.01)
    app = LineApp()
    async with app.run_test() as pilot:
        line = app.query_one(ProgressLine)
        with line.task("Verifying"):
            await pilot.pause(0.05)
            assert line.has_class("-running")
            with line.task("Survival"):
                pass
            await pilot.pause()
            assert line.has_class("-running")  # the first task still runs
        await pilot.pause()
        assert not line.has_class("-running")


async def test_the_shown_line_takes_no_row_from_the_screen(sample_store: Path) -> None:
    """Shown over the keys footer: a row taken and given back shortened the channels while slow work
    ran, their lists scrolled to keep the cursor in sight and stayed so (a snapshot that depended on
    the machine's speed: test_main_screen[size1] under load)."""
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        line = app.screen.query_one(ProgressLine)
        before = {w.id: w.region for w in app.screen.query("#channels, #tabs, KeysFooter")}
        line.add_class("-running")
        await pilot.pause()
        assert line.region.height == 1 and line.region.bottom == 30  # the last row: the footer's
        assert {w.id: w.region for w in app.screen.query("#channels, #tabs, KeysFooter")} == before
