"""Overlapping work in the app: reads, a snapshot (verify) and writes at once, repeatedly.

With one shared connection these failed with "cannot start a transaction within a
transaction"; now reads run on reader connections and writes queue on the writer. Every
error a worker raises goes to the one error dialog, so counting error dialogs counts
failures, and the store must still verify afterwards.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.errors import InspectorError
from inspector.services import candidates, corrections
from inspector.services.expanding import expand
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.ui import dialogs
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from tests.test_app import settle

ROUNDS = 6


async def test_overlapping_loads_verify_and_writes_never_fail(sample_store: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    errors: list[BaseException] = []
    original = dialogs.error_dialog

    def recording(error: BaseException) -> dialogs.MessageDialog:
        errors.append(error)
        return original(error)

    monkeypatch.setattr(dialogs, "error_dialog", recording)
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        store = screen.store
        stub = (await store.db.execute_fetchall("SELECT id FROM stubs WHERE session = 's-export' LIMIT 1"))[0][0]
        pending = [r[0] for r in await store.db.execute_fetchall(
            "SELECT id FROM candidates WHERE session = 's-export' AND status = 'pending' ORDER BY id")]

        async def write(round_: int) -> None:
            await expand(store, stub, actor="t", byte_range=(0, 64))
            await candidates.reject(store, pending[round_ % len(pending)], actor="lin", reason=f"round {round_}",
                                    session="s-export")
            await corrections.correct(store, "s-export", "progress.concurrency", f"round {round_}",
                                      actor="lin", reason="overlap test", kind="progress")

        for round_ in range(ROUNDS):
            screen.action_reload()  # channels, timeline, then candidates, drift, handoffs, budget, badges
            screen.load_sessions()
            await app.push_screen(ReviewDialog(store, "s-export", pending[0], "lin"))  # its own load worker
            app.run_worker(write(round_), group=f"write-{round_}", exit_on_error=False)
            app.run_worker(verify_store(store), group=f"verify-{round_}", exit_on_error=False)
            screen.action_verify()
            # every worker done (an exclusive load replaced by a newer one is waited for again, a
            # failed one still fails the test): under load a reload's worker can be replaced mid-wait
            await settle(app, pilot)
            while not isinstance(app.screen, MainScreen):
                app.pop_screen()
                await pilot.pause()
            await settle(app, pilot)
        await settle(app, pilot)
        assert app.is_running
    assert errors == [], [f"{type(e).__name__}: {e}" for e in errors]
    async with await open_store(sample_store) as store:
        assert (await verify_store(store)).ok
        rows = await store.db.execute_fetchall("SELECT COUNT(*) FROM state_records WHERE key = 'progress.concurrency'")
        assert rows[0][0] == ROUNDS


async def test_a_failed_timeline_page_reaches_the_error_dialog_and_the_app_stays(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.services import timeline
    from inspector.ui.widgets.timeline_view import TimelineView

    shown: list[BaseException] = []
    original = dialogs.error_dialog
    monkeypatch.setattr(dialogs, "error_dialog", lambda e: (shown.append(e), original(e))[1])
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)

        async def broken(*_args: object, **_kwargs: object) -> list[object]:
            raise InspectorError("the page could not be read", code="test_failure")

        monkeypatch.setattr(timeline, "page", broken)
        view = app.screen.query_one(TimelineView)
        view.at_end = False
        view.cursor = len(view.rows) - 1
        view._maybe_prefetch()
        await settle(app, pilot)
        assert app.is_running and [getattr(e, "code", None) for e in shown] == ["test_failure"]


async def test_any_budget_failure_reaches_the_error_dialog(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.widgets import budget_view

    shown: list[BaseException] = []
    original = dialogs.error_dialog
    monkeypatch.setattr(dialogs, "error_dialog", lambda e: (shown.append(e), original(e))[1])
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)

        async def broken(*_args: object, **_kwargs: object) -> None:
            raise RuntimeError("the tokenizer fell over")

        monkeypatch.setattr(budget_view, "budget", broken)
        app.screen.query_one(budget_view.BudgetView).recompute()
        await settle(app, pilot)
        assert app.is_running and [str(e) for e in shown] == ["the tokenizer fell over"]
