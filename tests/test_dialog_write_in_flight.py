"""Escape while a dialog's act waits for a store another program holds (store-fault-six).

Before: the review dialog stayed as it was while ``accept`` waited (up to the 10 s busy
timeout) for another process's write lock; escape closed it and cancelled the dialog's
worker, so the accept was silently not made — no refusal, no notice, the candidate still
pending, and the dialog gave no sign of the wait. Now the status line says it is accepting
(waiting for the store), escape leaves the dialog open and says the act is still being written; the act
is made once the store is free, and the dialog closes after that. No clock: the lock is
released by the test after the escape, and the pilot waits on the workers.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.widgets.candidates_list import CandidatesList
from tests.test_app import choose, settle


def _status(store: Path, candidate: str) -> str:
    with sqlite3.connect(store) as db:
        return str(db.execute("SELECT status FROM candidates WHERE id = ?", (candidate,)).fetchone()[0])


async def test_escape_during_an_accept_that_waits_for_the_store_does_not_drop_it(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("k")
        choose(app.screen.query_one(CandidatesList), "cand-good")
        await pilot.press("enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ReviewDialog)
        hog = sqlite3.connect(sample_store, isolation_level=None)  # another program's write, held
        hog.execute("BEGIN IMMEDIATE")
        try:
            await pilot.press("a")  # waits for the lock
            for _ in range(50):  # the worker's first lines run on the next turns of the loop, never a clock
                if "accepting cand-good" in str(dialog.query_one("#review-status", Static).render()):
                    break
                await pilot.pause()
            assert "waiting for the store" in str(dialog.query_one("#review-status", Static).render())
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is dialog, "escape closed the dialog while its accept was waiting for the store"
            assert dialog.writing() is not None
        finally:
            hog.execute("ROLLBACK")
            hog.close()
        await settle(app, pilot)
        assert _status(sample_store, "cand-good") == "accepted"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
