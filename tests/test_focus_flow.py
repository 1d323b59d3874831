"""Where the keys go after a key shows something: into what it showed, and back after."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.sessions_list import SessionsList
from tests.test_app import settle


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_s_focuses_the_sessions_list_and_s_again_gives_the_focus_back(
        sample_store: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """`s` showed the sessions list but left the focus behind it, so `↓ enter` moved and opened
    something else than the session the reviewer was looking at."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("o")
        await settle(app, pilot)
        before = app.focused
        if size[0] >= 140:  # shown from the start at 200 columns: s hides it, s shows it again
            await pilot.press("s")
            await settle(app, pilot)
        await pilot.press("s")
        await settle(app, pilot)
        sessions = app.screen.query_one(SessionsList)
        assert sessions.display and app.focused is sessions
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert app.screen.session == "s-orders"  # type: ignore[attr-defined]
        if size[0] >= 140:  # below 140 columns choosing a session closes the list itself (flow-eight)
            await pilot.press("s")
            await settle(app, pilot)
        assert not sessions.display and app.focused is before
