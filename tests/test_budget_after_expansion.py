"""An expansion made in the app reaches the Budget tab (flow-eight).

The expansion is recorded in the ledger and reserves its bytes in the next request, but the
dialog closed without a word to the screen behind: the Budget tab kept the plan from before
("loaded 27,836" on the real transcript, where ``inspector budget`` said 33,904)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.ui.app import InspectorApp
from inspector.ui.expand_dialog import ExpandDialog
from inspector.ui.main_screen import MainScreen
from tests.test_app import settle
from tests.test_expand_dialog import _open_on_stub


async def test_the_budget_tab_counts_an_expansion_made_in_the_app(sample_store: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        before = str(screen.query_one("#budget-text", Static).render())
        assert "expansion reserved" not in before
        await _open_on_stub(app, pilot, "stub-mid")
        assert isinstance(app.screen, ExpandDialog)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        after = str(screen.query_one("#budget-text", Static).render())
        assert after != before and "expansion" in after, after
