"""The palette names a session by its title, not by its id alone (flow-eight: on a Claude Code
transcript "Open session: 0cf3db51-1c73-43bb-8d05-dc02739514a5" said nothing of which one)."""

from __future__ import annotations

from pathlib import Path

from inspector.ui.app import InspectorApp
from inspector.ui.commands import screen_commands
from inspector.ui.main_screen import MainScreen
from tests.test_app import settle


async def test_the_palette_names_each_session_by_its_title_and_id(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-export", reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        opened = [c[0] for c in screen_commands(screen) if str(c[0]).startswith("Open session:")]
    assert "Open session: s-orders — Orders migration (handoff with an unknown action)" in opened, opened
    assert len(opened) == 6
