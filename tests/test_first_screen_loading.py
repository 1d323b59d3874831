"""Something on screen at once (flow-seven, item 3): at load 11 the first frame of a real transcript
came 7.5 s after the command and the terminal stayed empty until then. Now the command writes
"Context Inspector: opening s.db…" before its modules load, and the app's first screen is a note
saying what it opens and what it does now, while the store opens and the session is read.
Checked with a store whose opening is held, not with sleeps."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.command_names import NAMES
from inspector.cli.opening_line import opens_app
from inspector.store import connection
from inspector.store.connection import Store
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle

ROOT = Path(__file__).resolve().parents[1]
SAFETY_S = 60.0  # releases a held open on code that never shows the note, so the test fails, not hangs


async def test_the_first_screen_says_what_it_opens_while_the_store_is_held(sample_store: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    held = asyncio.Event()
    safety = asyncio.get_running_loop().call_later(SAFETY_S, held.set)
    real_open = connection.open_store

    async def slow(*args: Any, **kwargs: Any) -> Store:
        await held.wait()  # a store on a slow disk, or a machine at load 11
        return await real_open(*args, **kwargs)

    monkeypatch.setattr(connection, "open_store", slow)
    app = InspectorApp(sample_store)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            note = ""
            for _ in range(2000):  # turns of the app's loop, not time: the worker reaches its held open
                notes = app.screen.query("#loading")
                note = str(notes.first().render()) if notes else ""
                if "opening the store" in note or held.is_set():
                    break
                await pilot.pause()
            assert not held.is_set(), "the app's first screen waited for the store (before: on_mount held it)"
            assert not isinstance(app.screen, MainScreen)
            assert "Opening samples.db" in note and "opening the store" in note, note
            await pilot.press("t")  # typed while it loads: kept, and it reaches the main screen once it is up
            held.set()
            await settle(app, pilot)
            assert isinstance(app.screen, MainScreen)
            assert app.screen.focused is app.screen.query_one(TimelineView)
            assert str(app.screen_stack[0].query_one("#loading").render()) == ""  # nothing stale beneath
    finally:
        safety.cancel()


@pytest.mark.parametrize(("args", "said"), [
    (["my.db"], "Context Inspector: opening my.db…"),
    (["open", "/x/run.jsonl"], "Context Inspector: opening run.jsonl…"),
    (["my.db", "--session", "s1"], "Context Inspector: opening my.db…"),
    (["sessions", "my.db"], None), (["--help"], None), (["my.db", "--help"], None), (["--version"], None),
    (["request-deletion", "my.db"], None), (["postgresql://me@db/x"], "Context Inspector: opening the PostgreSQL store…"),
])
def test_the_early_line_is_said_only_for_what_opens_the_app(args: list[str], said: str | None) -> None:
    assert opens_app(args, NAMES) == said


def test_the_command_says_what_it_opens_before_the_app_draws_and_erases_it(sample_store: Path) -> None:
    parent, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "INSPECTOR_REVIEWER": "lin", "COLUMNS": "100", "LINES": "30"}
    proc = subprocess.Popen([sys.executable, "-m", "inspector", str(sample_store)], stdin=child, stdout=child,
                            stderr=child, env=env, cwd=ROOT)
    os.close(child)
    out, quit_sent = b"", False
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and proc.poll() is None:
            ready, _, _ = select.select([parent], [], [], 0.1)
            if not ready:
                continue
            try:
                chunk = os.read(parent, 65536)
            except OSError:
                break
            out += chunk
            if not quit_sent and b"Protected state" in out:
                os.write(parent, b"\x11")  # ctrl+q once the main screen is drawn
                quit_sent = True
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(parent)
    first = out.index(b"Context Inspector: opening samples.db")
    assert first < out.index(b"\x1b[?1049h")  # before Textual takes the screen
    assert out.rstrip(b"\r\n").endswith(b"\r\x1b[2K")  # erased when the app ends: the terminal as it was
