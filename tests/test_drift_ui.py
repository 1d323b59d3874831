"""Pilot test: find drift, correct it, see it gone; correct a protected record from the state channel."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, TextArea

from inspector.ui.app import InspectorApp
from inspector.ui.correction_dialog import CorrectionDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.drift_view import DriftView
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.state_channel import StateChannel
from tests.test_app import settle, text_of


async def test_find_drift_correct_it_and_see_it_gone(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        assert "drift 4" in text_of(app.screen.query_one(HeaderBar))
        await pilot.press("d")
        view = app.screen.query_one(DriftView)
        picked = view.selected()
        # the cursor starts on survival's ✗ line above the findings (newuser-18): `c` corrects the same generation
        assert picked is not None and picked[0] == 3 and picked[1] is None
        assert any(f.code == "protected_missing" for k, f in view.findings.items() if k.startswith("3:"))
        await pilot.press("c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        area = dialog.query_one(TextArea)
        assert "不得修改生产库" in area.text  # the missing protected value is offered back
        assert "P95 已通过" not in area.text and "P95 仍待测" in area.text  # every finding fixed, not only the first
        dialog.query_one("#correct-reason", Input).value = "generation 3 dropped the constraint and closed P95"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        header = text_of(app.screen.query_one(HeaderBar))
        assert "drift" not in header and "ctx v5" in header
        picked = app.screen.query_one(DriftView).selected()
        assert picked is None or picked[1] is None  # generation 4 (corrected) has no finding to pick (a survival row may)


async def test_a_correction_that_still_drifts_needs_save_anyway(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("d", "c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        dialog.query_one(TextArea).text = "目标：修复订单导出超时。约束：不得修改生产库。P95 已通过。"
        dialog.query_one("#correct-reason", Input).value = "keep my wording"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert app.screen is dialog  # refused: nothing saved
        assert "open_issue_claimed_done" in text_of(dialog.query_one("#correct-result"))
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert "drift" in text_of(app.screen.query_one(HeaderBar))  # saved anyway, and still shown as drift


async def test_correct_a_record_as_a_non_owner_proposes_it(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "mo")  # s-export is owned by lin
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "down")
        assert app.screen.query_one(StateChannel).selected().key == "constraint.prod"
        await pilot.press("c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        assert dialog.query_one("#correct-value", Input).value == "不得修改生产库"
        dialog.query_one("#correct-value", Input).value = "不得修改生产库和备份"
        dialog.query_one("#correct-reason", Input).value = "backups too"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        state = app.screen.query_one(StateChannel)
        versions = sorted((r.version, r.status) for r in state.items.values() if r.key == "constraint.prod")
        assert versions == [(1, "active"), (2, "pending")]
