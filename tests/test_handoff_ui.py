"""Pilot test: review a refused handoff, then accept a good one and land in the new session."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.handoff_dialog import HandoffDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.handoffs_list import HandoffsList
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import choose, settle, text_of


async def _open(app: InspectorApp, pilot, handoff: str) -> HandoffDialog:  # type: ignore[no-untyped-def]
    await pilot.press("o")
    choose(app.screen.query_one(HandoffsList), handoff)
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, HandoffDialog)
    return app.screen


async def test_refused_then_accepted_handoff(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "maria")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        dialog = await _open(app, pilot, "h-writeoff")
        text = str(dialog.query_one("#handoff-text", Static).render())
        assert "✗ unknown outcomes carried" in text and "a7" in text
        await pilot.press("a")  # disabled: nothing is accepted, and a dialog says why
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.error
        assert app.screen.dialog_title == "Cannot accept h-writeoff (unknown_written_off)"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, HandoffDialog)
        await pilot.press("escape")
        await settle(app, pilot)
        await _open(app, pilot, "h-good")
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        header = text_of(app.screen.query_one(HeaderBar))
        assert "s-orders-2" in header and "continued from s-orders" in header
        sessions = app.screen.query_one("#sessions")
        assert "s-orders-2" in [sessions.get_option_at_index(i).id for i in range(sessions.option_count)]


async def test_accept_is_greyed_for_a_reviewer_who_may_not_accept(sample_store: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`a Accept handoff` was offered to a reviewer who is not the owner; pressing it then said
    "lin is not the session's owner; only maria may accept its handoff." The dialog says so first."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.handoff_dialog import HandoffDialog
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("o", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, HandoffDialog) and dialog.result is not None and dialog.result.acceptable
        enabled = {b.action: on for _n, b, on, _t in dialog.active_bindings.values()}
        assert enabled.get("accept") is False  # shown greyed
        status = str(dialog.query_one("#handoff-status").render())
        assert "accept is disabled" in status and "only maria may accept" in status
        await pilot.press("a")  # greyed, and pressed it says why instead of nothing
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.error
        assert app.screen.dialog_title == "Cannot accept h-good (not_owner)"
        assert "only maria may accept" in str(app.screen.body)
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is dialog and dialog.result.acceptable  # nothing was accepted


async def test_handoff_checks_continue_under_their_text_at_80_columns(sample_store: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A check's sentence wrapped to the dialog's edge, under the ✓ of the next check."""
    from tests.test_layout_fits import widget_lines

    monkeypatch.setenv("INSPECTOR_REVIEWER", "maria")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("o", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, HandoffDialog)
        lines = [line.rstrip() for line in widget_lines(app.screen.query_one("#handoff-text"))]
        checks = lines[1:next(i for i, line in enumerate(lines) if line.startswith("HANDED OVER"))]
        assert any(line.startswith("  ") for line in checks), checks  # some check needed a second line
        for line in checks:
            assert line.startswith(("✓", "✗", "  ")), checks
