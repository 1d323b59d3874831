"""Pilot test: open a candidate, see its differences, accept one, reject another with a reason."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from inspector.services.sessions import session_ledger
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReasonDialog, ReviewDialog
from inspector.ui.widgets.candidates_list import CandidatesList
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import choose, settle, text_of


async def _review(app: InspectorApp, pilot, candidate: str) -> ReviewDialog:  # type: ignore[no-untyped-def]
    await pilot.press("k")
    choose(app.screen.query_one(CandidatesList), candidate)
    await pilot.press("enter")
    await settle(app, pilot)
    assert isinstance(app.screen, ReviewDialog)
    return app.screen


async def test_review_accept_and_reject(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        dialog = await _review(app, pilot, "cand-space")
        body = str(dialog.query_one("#review-text", Static).render())
        assert "不得修改␠生产库" in body and "white space" in body and "exact_fields_changed" in body
        assert "accept is disabled" in str(dialog.query_one("#review-status", Static).render())
        await pilot.press("a")  # refused: a dialog says why, nothing is decided
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title == (
            "Cannot accept cand-space (exact_fields_changed)")
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is dialog
        assert dialog.view is not None and dialog.view.validation.status == "pending"
        await pilot.press("escape")
        await settle(app, pilot)

        dialog = await _review(app, pilot, "cand-good")
        assert "structure verified" in str(dialog.query_one("#review-text", Static).render())
        await pilot.press("a")
        await settle(app, pilot)
        assert dialog.view.validation.status == "accepted"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert "ctx v5" in text_of(app.screen.query_one(HeaderBar))  # refreshed everywhere after the commit

        dialog = await _review(app, pilot, "cand-warn")  # now stale: still rejectable
        await pilot.press("r")
        await settle(app, pilot)
        assert isinstance(app.screen, ReasonDialog)
        app.screen.query_one(Input).value = "built on an old base"
        await pilot.press("enter")
        await settle(app, pilot)
        assert dialog.view.validation.status == "rejected"
        await pilot.press("escape")
        await settle(app, pilot)
    async with await open_store(sample_store) as store:
        entries = await session_ledger(store, "s-export")
    assert [(e["kind"], e["actor"]) for e in entries[-2:]] == [("candidate.accept", "lin"), ("candidate.reject", "lin")]
    assert entries[-1]["payload"]["reason"] == "built on an old base"
