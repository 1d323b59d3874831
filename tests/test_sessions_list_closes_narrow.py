"""Below 140 columns the sessions list closes once a session is chosen (flow-eight).

At 80×24 the list starts hidden and ``s`` shows it; after a choice it stayed open, leaving the
session just opened about 50 columns. At 140 and wider it is part of the layout and stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from tests.test_app import settle


@pytest.mark.parametrize(("size", "stays"), [((80, 24), False), ((120, 35), False), ((200, 50), True)])
async def test_choosing_a_session_closes_the_list_below_140_columns(sample_store: Path, size: tuple[int, int],
                                                                   stays: bool) -> None:
    app = InspectorApp(sample_store, session="s-export", reviewer="t")
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        if not screen.query_one("#sessions").display:
            await pilot.press("s")
        else:
            screen.set_focus(screen.query_one("#sessions"))
        await settle(app, pilot)
        assert screen.query_one("#sessions").display
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert screen.session == "s-orders"
        assert bool(screen.query_one("#sessions").display) is stays
        if not stays:
            assert screen.focused is not None and screen.focused.id != "sessions"
