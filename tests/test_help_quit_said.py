"""Ctrl+C in the app says how to quit in plain words.

review-14: Textual's sentence for Ctrl+C is markup ("Press [b]ctrl+q[/b] to quit the app") and
the app's ``notify`` shows every text as typed, so the notice read "Press [b]ctrl+q[/b] …".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.notice_line import NoticeLine
from tests.test_app import settle


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_ctrl_c_says_how_to_quit_without_markup(sample_store: Path, size: tuple[int, int]) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+c")
        await pilot.pause(0.1)
        said = [f"{n.title}: {n.message}" for n in app._notifications]
        said += [str(line.render()) for line in app.screen.query(NoticeLine)]
        quit_said = [s for s in said if "to quit the app" in s]
        assert quit_said, said
        assert all("[b]" not in s and "[/b]" not in s for s in quit_said), quit_said
        assert any("ctrl+q" in s.lower() for s in quit_said), quit_said
