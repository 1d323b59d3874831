"""After a correction the cursor is on the version just filed, not on the one it replaced (flow-nine).

In the demo, c on "采用流式导出" (decision.export v1), a new value and ctrl+s: the list showed v2
above v1, but the cursor stayed on v1's id, so the detail under the list read the superseded
value — the reviewer saw the old text right after replacing it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.correction_dialog import CorrectionDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.state_channel import StateChannel
from tests.test_app import choose, settle


async def test_the_cursor_goes_to_the_version_just_filed(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-export")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        state = app.screen.query_one(StateChannel)
        choose(state.records, "decision.export@1")
        await pilot.press("c")
        await settle(app, pilot)
        assert isinstance(app.screen, CorrectionDialog)
        app.screen.query_one("#correct-value").value = "采用流式导出，分页暂不做"  # type: ignore[attr-defined]
        app.screen.query_one("#correct-reason").value = "the user ruled paging out"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        state = app.screen.query_one(StateChannel)
        assert state.highlighted_id() == "decision.export@2", state.highlighted_id()
        assert state.selected() is not None and state.selected().value == "采用流式导出，分页暂不做"  # type: ignore[union-attr]
