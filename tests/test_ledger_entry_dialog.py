"""Opening a ledger row in the timeline shows the whole entry, not the row's one cut line.

The row holds 160 characters ending in "…"; the dialog opened to read the entry used to show exactly that,
so an import's counts, file name and format could not be read anywhere in the app.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.services.sessions import session_ledger
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle


async def test_ledger_row_opens_the_whole_payload(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        view = app.screen.query_one(TimelineView)
        cut = [i for i, r in enumerate(view.rows) if r.source == "ledger" and r.text.endswith("…")]
        assert cut, [r.text for r in view.rows if r.source == "ledger"]
        row = view.rows[cut[0]]
        view.cursor = cut[0]
        view.focus()
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog)
        shown = str(app.screen.query_one("#dialog-body Static", Static).render())
        session = app.screen_stack[-2].session  # type: ignore[attr-defined]
    async with await open_store(sample_store) as store:
        entry = next(e for e in await session_ledger(store, session) if e["seq"] == row.seq)
    for key, value in entry["payload"].items():
        assert json.dumps(key) in shown
        assert json.dumps(value, ensure_ascii=False, indent=2).splitlines()[-1].strip() in shown
    assert "…" not in shown.replace(row.text, "")
