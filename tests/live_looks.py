"""Looks of the main screen's change watch, run and waited for instead of slept through.

The screen looks for acts committed elsewhere every half second (``LIVE_POLL_S``). A test that
checks something is said *once*, not at each look, used to sleep 1.2 s for "two looks more";
on a loaded machine the timer may have fired fewer times than that, and on an idle one the
sleep was most of the test's wall time. Here the test runs the very look the timer runs
(``check_for_changes``) as many times as it wants, and waits for each to finish.
"""

from __future__ import annotations

from textual.pilot import Pilot

from inspector.ui.app import InspectorApp
from inspector.ui.live_changes import WatchesChanges


async def looks(app: InspectorApp, pilot: Pilot, count: int = 2) -> None:
    """Run ``count`` looks of the change watch, one after the other, each waited for to its end
    and the messages it posted (notices, reloads) handled."""
    screen = app.screen
    assert isinstance(screen, WatchesChanges), screen
    for _ in range(count):
        await screen.check_for_changes().wait()
        await pilot.pause()
