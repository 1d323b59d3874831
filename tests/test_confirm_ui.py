"""Pilot tests: confirming and rejecting pending records from the Protected state channel."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from inspector.services.channels import state_records
from inspector.services.verifying import verify_store
from inspector.store import ledger
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.decision_dialog import DecisionDialog
from inspector.ui.dialogs import MessageDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.state_channel import StateChannel
from tests.pending_fixture import OWNER, S, pending_store
from tests.test_app import choose, settle, text_of

SIZE = (170, 45)


@pytest.fixture
async def store(tmp_path: Path) -> Path:
    return await pending_store(tmp_path)


async def decisions(path: Path) -> list[tuple[str, str, int | None, str]]:
    """(key, decision, batch, actor) of every confirmation entry, and the store verifies."""
    async with await open_store(path) as opened:
        assert (await verify_store(opened)).ok
        return [(e.payload["key"], e.payload["decision"], e.payload.get("batch"), e.actor)
                async for e in ledger.iter_entries(opened.db, session=S) if e.kind == "confirmation"]


async def status_of(path: Path, key: str, version: int = 1) -> str:
    async with await open_store(path) as opened:
        return next(r.status for r in await state_records(opened, S) if (r.key, r.version) == (key, version))


def state_of(app: InspectorApp) -> StateChannel:
    return app.screen.query_one(StateChannel)


def prompt(state: StateChannel, option_id: str) -> str:
    return str(state.records.get_option_at_index(state.rows[option_id]).prompt)


async def test_y_confirms_the_highlighted_record_and_moves_to_the_next_pending(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        choose(state.records, "decision.db@1")
        await pilot.press("y")
        await settle(app, pilot)
        assert await decisions(store) == [("decision.db", "confirmed", None, "rev")]
        assert await status_of(store, "decision.db") == "active"
        state = state_of(app)
        assert state.items["decision.db@1"].status == "active" and "● use streaming" in prompt(state, "decision.db@1")
        assert state.highlighted_id() == "open_issue.p95@1"  # the next pending record, the one below
        assert app.screen.focused is state.records


async def test_n_rejects_and_a_decided_record_cannot_be_decided_again(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        choose(state_of(app).records, "failure.tests@1")  # the last pending record: the cursor stays on it
        await pilot.press("n")
        await settle(app, pilot)
        assert await status_of(store, "failure.tests") == "superseded"
        assert state_of(app).highlighted_id() == "failure.tests@1"
        await pilot.press("y")  # no longer pending: a warning, nothing written
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert await decisions(store) == [("failure.tests", "rejected", None, "rev")]


async def test_a_non_owner_is_refused_in_a_dialog_and_nothing_is_written(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        choose(state_of(app).records, "constraint.no_prod@1")
        await pilot.press("y")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog) and dialog.error
        assert "not_owner" in dialog.dialog_title and f"only the session's owner ({OWNER})" in str(dialog.body)
        await pilot.press("escape")
        assert await decisions(store) == []
        assert await status_of(store, "constraint.no_prod") == "pending"


async def test_mark_three_and_confirm_them_together(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        for option_id in ("open_issue.p95@1", "open_issue.retry@1", "evidence_ref.b@1"):
            choose(state.records, option_id)
            await pilot.press("space")
        choose(state.records, "goal.main@1")
        await pilot.press("space")  # active: not markable
        assert state.marked == {"open_issue.p95@1", "open_issue.retry@1", "evidence_ref.b@1"}
        assert str(state.border_title) == "Protected state · 3 marked"
        assert "✔ P95 untested" in prompt(state, "open_issue.p95@1")
        choose(state.records, "evidence_ref.a@1")  # the cursor is on an unmarked row while deciding
        await pilot.press("y")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        shown = str(dialog.query_one("#decide-plan").query_one("Static").render())
        assert all(k in shown for k in ("open_issue.p95", "open_issue.retry", "evidence_ref.b"))
        assert "evidence_ref.a" not in shown and "Left pending" not in shown
        dialog.query_one("#decide-reason", Input).value = "checked against the log"
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        assert await decisions(store) == [(k, "confirmed", 3, "rev")
                                          for k in ("open_issue.p95", "open_issue.retry", "evidence_ref.b")]  # list order
        state = state_of(app)
        assert state.marked == frozenset() and str(state.border_title) == "Protected state"
        assert state.highlighted_id() == "evidence_ref.a@1"  # it stayed where it was
        assert await status_of(store, "evidence_ref.a") == "pending"


async def test_mark_all_then_a_non_owner_confirms_what_it_may(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+a")
        state = state_of(app)
        assert len(state.marked) == 10 and "10 marked" in str(state.border_title)
        await pilot.press("y")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        assert "Confirm 8 of 10" in text_of(dialog.query_one("#decide-title"))
        shown = str(dialog.query_one("#decide-plan").query_one("Static").render())
        assert "Left pending (2)" in shown and "goal.restated" in shown and "not_owner" in shown
        await pilot.press("escape")  # cancel: nothing written, marks kept
        await settle(app, pilot)
        assert await decisions(store) == [] and len(state_of(app).marked) == 10
        await pilot.press("ctrl+a")  # all were marked: clears them
        assert state_of(app).marked == frozenset()


async def test_only_owner_kinds_marked_by_a_non_owner_is_refused_outright(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        for option_id in ("goal.restated@1", "constraint.no_prod@1"):
            choose(state.records, option_id)
            await pilot.press("space")
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and "Cannot reject any of the 2" in app.screen.dialog_title
        assert f"only the session's owner ({OWNER}) may reject a goal" in str(app.screen.body)
        assert await decisions(store) == []


async def test_the_owner_bulk_rejects_and_confirms_with_the_palette(store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", OWNER)
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        choose(state.records, "goal.restated@1")
        await pilot.press("space")
        choose(state.records, "constraint.no_prod@1")
        await pilot.press("space")
        await pilot.press("ctrl+p")
        await pilot.press(*"Reject pending")
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, DecisionDialog) and "Reject 2 of 2" in text_of(app.screen.query_one("#decide-title"))
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert await decisions(store) == [("goal.restated", "rejected", 2, OWNER),
                                          ("constraint.no_prod", "rejected", 2, OWNER)]
        assert state_of(app).highlighted_id() == "constraint.no_prod@1"


async def test_the_demo_pending_constraint_by_its_owner(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")  # owner of s-export
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        choose(state.records, "constraint.skip_checks@1")
        await pilot.press("n")
        await settle(app, pilot)
        assert state_of(app).items["constraint.skip_checks@1"].status == "superseded"
        assert state_of(app).highlighted_id() == "constraint.skip_checks@1"
        async with await open_store(sample_store) as opened:
            assert (await verify_store(opened)).ok


async def test_marks_and_cursor_reset_when_another_session_opens(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        state = state_of(app)
        choose(state.records, "constraint.skip_checks@1")
        await pilot.press("space")
        assert state.marked == {"constraint.skip_checks@1"}
        await pilot.press("ctrl+r")  # the same session read again: mark and cursor kept
        await settle(app, pilot)
        assert state.marked == {"constraint.skip_checks@1"} and state.highlighted_id() == "constraint.skip_checks@1"
        app.screen.open_session("s-injected")  # another session: nothing of s-export is marked there
        await settle(app, pilot)
        assert state.marked == frozenset() and str(state.border_title) == "Protected state"
        assert state.highlighted_id() == "goal.main@1"
