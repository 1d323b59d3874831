"""The header's "N sessions · s lists them" is on screen at 80 and 120 columns (review-14).

It was added at the end of the badges' line, after the reviewer's name: on the real compaction
transcript (its survival, pending and drift badges) and on the sample store it was past the
line's end, cut with "…" — a reviewer at 80 or 120 columns saw no sign of the other sessions,
which is what it was added for. It is now on the first line, before the session's title.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_the_session_count_is_on_screen(sample_store: Path, size: tuple[int, int]) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        count = len(app.screen.session_ids)
        assert count > 1
        header = app.screen.query_one(HeaderBar)
        shown = " ".join(strip.text for strip in header.render_lines(header.region.reset_offset))
        assert f"· {count} sessions · " in shown and " s " in shown, shown
        assert "(s)" not in shown, "the key said as a key, not as a bracketed plural (flow-nine)"
        assert "(s-export)" in shown, "the session's id still fits"


async def test_the_key_hint_says_what_s_does_now(sample_store: Path) -> None:
    """From 140 columns the list is on screen: "s lists them" there was the wrong way round (flow-nine)."""
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(HeaderBar)

        def shown() -> str:
            return " ".join(strip.text for strip in header.render_lines(header.region.reset_offset))

        assert "sessions · s hides them" in shown(), shown()
        await pilot.press("s")
        await settle(app, pilot)
        assert "sessions · s lists them" in shown(), shown()
        await pilot.press("s")
        await settle(app, pilot)
        assert "sessions · s hides them" in shown(), shown()
