"""Keys a reviewer types without first moving the focus (fresh-eyes review of the start-up work).

Textual moves the focus after the key that asked for it, so a key typed right behind `t`
(`t T`, `t f`) still reaches the widget that had the focus; the timeline's own keys must
therefore work from anywhere, as the docs' key table and the footer's status line promise.
"""

from __future__ import annotations

from pathlib import Path

from inspector.ui.app import InspectorApp
from inspector.ui.timeline_filter_dialog import TimelineFilterDialog
from inspector.ui.widgets.timeline_area import TimelineArea
from tests.test_app import settle


async def test_T_from_the_protected_state_opens_the_conversation_view(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.screen.focused is not None and app.screen.focused.id == "state-records"
        await pilot.press("T")
        await settle(app, pilot)
        area = app.screen.query_one(TimelineArea)
        assert area.conversation and app.screen.focused is area.turns


async def test_f_from_the_protected_state_opens_the_timeline_filter(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        await settle(app, pilot)
        assert isinstance(app.screen, TimelineFilterDialog)
