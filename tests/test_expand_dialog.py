"""Pilot test of the expand dialog: prefilled range, verified bytes, cut characters, refusals."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button, Input, Static

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.expand_dialog import ExpandDialog
from inspector.ui.main_screen import MainScreen
from tests.test_app import choose, settle


async def _open_on_stub(app: InspectorApp, pilot, stub_id: str) -> None:  # type: ignore[no-untyped-def]
    await settle(app, pilot)
    await pilot.press("3")
    choose(app.screen.query_one("#evidence-records"), f"stub:{stub_id}")
    await pilot.press("e")
    await settle(app, pilot)


async def test_expand_a_stub_that_starts_inside_an_emoji(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=(160, 45)) as pilot:
        await _open_on_stub(app, pilot, "stub-mid")
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        start = int(dialog.query_one("#expand-start", Input).value)
        end = int(dialog.query_one("#expand-end", Input).value)
        assert end - start == 4096
        assert "4,096 bytes" in str(dialog.query_one("#expand-count", Static).render())
        await pilot.press("enter")  # the Expand button has focus
        await settle(app, pilot)
        shown = str(dialog.query_one("#expand-text", Static).render())
        assert "✓ verified" in shown and "«9a 80»" in shown  # the emoji's last two bytes, marked, not replaced
        assert not dialog.query_one("#expand-widen", Button).disabled
        await pilot.press("alt+w")
        await settle(app, pilot)
        assert int(dialog.query_one("#expand-start", Input).value) == start - 2
        assert "«9a 80»" not in str(dialog.query_one("#expand-text", Static).render())
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_a_refused_expansion_shows_its_sentence(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=(160, 45)) as pilot:
        await _open_on_stub(app, pilot, "stub-old")
        await pilot.press("enter")
        await settle(app, pilot)
        shown = str(app.screen.query_one("#expand-text", Static).render())
        assert "version_mismatch" in shown and "not what the agent saw" in shown
        assert app.screen.query_one("#expand-widen", Button).disabled


async def test_e_without_a_stub_says_what_to_do(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and not isinstance(app.screen, MessageDialog)
        assert any("Select a stub" in str(n.message) for n in app._notifications)
