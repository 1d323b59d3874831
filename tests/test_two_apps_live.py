"""Two reviewers, two apps open on one store: each sees the other's accept within 2 s, told who did it.

On PostgreSQL the store is the sample store migrated there (``inspector migrate``); on
SQLite the sample store itself, for comparison. Both apps run in this process under
Pilot; what one commits reaches the other only through the store (its own connections,
the backend's change signal), exactly as between two machines.
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from pathlib import Path

import pytest
from textual.pilot import Pilot

from inspector.services.migrating import migrate
from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle, text_of
from tests.test_review_dialog import _review

WITHIN_S = 2.0


@pytest.fixture
def shared_store(backend_empty_store: Path | str, sample_store: Path) -> Path | str:
    """The sample store itself on SQLite; on PostgreSQL an empty database it is migrated into."""
    return sample_store if isinstance(backend_empty_store, Path) else backend_empty_store


async def _accept(app: InspectorApp, pilot: Pilot, candidate: str) -> float:
    """Accept through the review dialog; the wall-clock time the accept was committed at."""
    dialog = await _review(app, pilot, candidate)
    await pilot.press("a")
    await settle(app, pilot)
    assert dialog.view is not None and dialog.view.validation.status == "accepted"
    assert app.store is not None
    rows = await app.store.db.execute_fetchall("SELECT at FROM ledger WHERE kind = 'candidate.accept' AND "
                                               "actor = ? ORDER BY seq DESC LIMIT 1", (app.reviewer,))
    await pilot.press("escape")
    await settle(app, pilot)
    assert isinstance(app.screen, MainScreen)
    return datetime.fromisoformat(rows[0][0].replace("Z", "+00:00")).timestamp()


async def _seen_at(app: InspectorApp, pilot: Pilot, words: str, header: str | None = None) -> tuple[float, str]:
    """The wall-clock time ``app`` raised a notification with ``words`` (the app's own stamp, not when
    this loop happened to look), and its text; then waits for the reload to reach the header
    ``header``. Watched alongside the other app's accept, so neither waits on the other's screens."""
    deadline = time.time() + 20
    while True:
        told = [n for n in app._notifications if words in str(n.message)]
        if told and (header is None or header in text_of(app.screen.query_one(HeaderBar))):
            return told[0].raised_at, str(told[0].message)
        assert time.time() < deadline, [str(n.message) for n in app._notifications]
        await asyncio.sleep(0.1)


async def test_two_apps_see_each_others_accept_within_two_seconds(shared_store: Path | str, sample_store: Path) -> None:
    if not isinstance(shared_store, Path):
        assert (await migrate(sample_store, shared_store)).ok
    ana = InspectorApp(shared_store, session="s-export", reviewer="ana")
    bo = InspectorApp(shared_store, session="s-export", reviewer="bo")
    async with ana.run_test(size=(180, 50)) as pa, bo.run_test(size=(180, 50)) as pb:
        await settle(ana, pa)
        await settle(bo, pb)
        assert "ctx v4" in text_of(bo.screen.query_one(HeaderBar))
        seen = asyncio.create_task(_seen_at(bo, pb, "ana accepted candidate cand-good (s-export)", header="ctx v5"))
        committed = await _accept(ana, pa, "cand-good")
        at, told = await seen
        assert at - committed < WITHIN_S, at - committed
        assert told == "ana accepted candidate cand-good (s-export); reloaded."

        bo.screen.open_session("s-privacy")
        await settle(bo, pb)
        seen = asyncio.create_task(_seen_at(ana, pa, "bo accepted candidate cand-pii (s-privacy)"))
        committed = await _accept(bo, pb, "cand-pii")
        at, told = await seen
        assert at - committed < WITHIN_S, at - committed
        assert told == "bo accepted candidate cand-pii (s-privacy); reloaded."  # not ana's own accept again
        assert not isinstance(ana.screen, ReviewDialog)
