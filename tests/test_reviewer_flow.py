"""Pilot tests for the reviewer's traps of issue 15: each item, so that it cannot come back."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import reviewer_name
from inspector.ui.app import InspectorApp
from inspector.ui.reviewer_dialog import ReviewerDialog
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.state_channel import StateChannel
from tests.pending_fixture import pending_store
from tests.test_app import choose, settle, text_of
from tests.test_confirm_ui import decisions

SIZE = (170, 45)


async def test_10_the_first_write_asks_who_is_reviewing_and_remembers_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = await pending_store(tmp_path)
    monkeypatch.delenv("INSPECTOR_REVIEWER")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "as ?" in text_of(app.screen.query_one(HeaderBar))
        choose(app.screen.query_one(StateChannel).records, "decision.db@1")
        await pilot.press("y")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewerDialog)
        assert await decisions(store) == []  # nothing written before the name is given
        await pilot.press(*"alice", "enter")
        await settle(app, pilot)
        assert await decisions(store) == [("decision.db", "confirmed", None, "alice")]
        assert "as alice" in text_of(app.screen.query_one(HeaderBar))
    assert reviewer_name.remembered() == "alice"
    again = InspectorApp(store)
    assert again.reviewer == "alice"  # asked once
    assert InspectorApp(store, reviewer="bob").reviewer == "bob"  # --reviewer overrides
    monkeypatch.setenv("INSPECTOR_REVIEWER", "carol")
    assert InspectorApp(store).reviewer == "carol"


async def test_10_cancelling_the_name_writes_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = await pending_store(tmp_path)
    monkeypatch.delenv("INSPECTOR_REVIEWER")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        choose(app.screen.query_one(StateChannel).records, "decision.db@1")
        await pilot.press("y")
        await settle(app, pilot)
        await pilot.press("enter")  # an empty name is refused in the dialog
        assert isinstance(app.screen, ReviewerDialog)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReviewerDialog)
    assert await decisions(store) == [] and reviewer_name.remembered() is None


@pytest.mark.parametrize("name", ["", "   ", "a\x1bb", "x" * 65])
def test_10_a_name_must_name_someone(name: str) -> None:
    assert reviewer_name.name_problem(name) is not None
