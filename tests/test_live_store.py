"""The app follows writes made by other processes (a live store)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services.corrections import correct
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle, text_of


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


async def test_a_commit_elsewhere_is_shown(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await app.screen.check_for_changes().wait()  # first look records the version
        assert "ctx v4" in text_of(app.screen.query_one(HeaderBar))
        async with await open_store(sample_store) as other:  # another connection, as the CLI would be
            await correct(other, "s-export", "open_issue.p95", "P95 untested on staging", reason="r", actor="mo")
        for _ in range(20):  # within 2 s (on PostgreSQL the change notice travels through the server)
            await app.screen.check_for_changes().wait()
            await settle(app, pilot)
            if "ctx v5" in text_of(app.screen.query_one(HeaderBar)):
                break
            await pilot.pause(0.1)
        assert "ctx v5" in text_of(app.screen.query_one(HeaderBar))
        assert any("mo filed a correction of open_issue.p95 (s-export)" in str(n.message)
                   for n in app._notifications)  # says who did what
