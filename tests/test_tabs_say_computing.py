"""While a worker computes a tab's content the tab says so (flow-eight): the Drift, Survival and
Budget tabs were blank for the seconds a large log takes, which read as "nothing found"."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static

from inspector.services import drift as drift_service
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets import budget_view
from tests.test_app import settle


def _first_option(screen: MainScreen, selector: str) -> str:
    options = screen.query_one(selector, OptionList)
    return str(options.get_option_at_index(0).prompt) if options.option_count else ""


async def test_drift_survival_and_budget_say_computing_while_they_are(sample_store: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    release = asyncio.Event()
    real_overview, real_budget = drift_service.drift_overview, budget_view.budget

    async def slow_overview(*args: Any, **kwargs: Any) -> Any:
        await release.wait()
        return await real_overview(*args, **kwargs)

    async def slow_budget(*args: Any, **kwargs: Any) -> Any:
        await release.wait()
        return await real_budget(*args, **kwargs)

    monkeypatch.setattr(drift_service, "drift_overview", slow_overview)
    monkeypatch.setattr(budget_view, "budget", slow_budget)
    app = InspectorApp(sample_store, session="s-export", reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        for _ in range(100):  # the tabs mounted, the drift read waiting
            await pilot.pause(0.05)
            if app.screen.query("#drift-findings"):
                break
        screen = app.screen
        assert isinstance(screen, MainScreen)
        await pilot.press("b")
        await pilot.pause(0.3)
        assert "computing…" in _first_option(screen, "#drift-findings")
        assert "computing…" in _first_option(screen, "#survival-generations")
        assert "computing…" in str(screen.query_one("#budget-text", Static).render())
        release.set()
        await settle(app, pilot)
        assert "computing…" not in _first_option(screen, "#drift-findings")
        assert "computing…" not in _first_option(screen, "#survival-generations")
        assert "computing…" not in str(screen.query_one("#budget-text", Static).render())
