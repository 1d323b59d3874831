"""Keys that did something other than what the screen said, found walking the reviewer's flow
on real transcripts at 200×50, 100×30 and 80×24 (flow review, session 8)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.timeline_area import TimelineArea
from tests.test_app import settle
from tests.test_real_transcript_flow import FILE


@pytest.mark.skipif(not FILE.exists(), reason=f"{FILE} is missing (../shared not beside the project)")
async def test_T_on_a_ledger_row_opens_the_conversation_where_the_cursor_is(
        imported_copy: Callable[..., Path]) -> None:
    """`End` lands on the import entry after the last event; `T` opened the conversation at the
    session's first turn (#1) instead of around the rows on screen."""
    store = imported_copy(FILE)
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "end")
        await settle(app, pilot)
        area = app.screen.query_one(TimelineArea)
        assert area.rows.current is not None and area.rows.current.source == "ledger"
        await pilot.press("T")
        await settle(app, pilot)
        assert area.conversation
        events = [r.seq for r in area.rows.rows if r.source == "event"]
        shown = [t.seq for t in area.turns.turns]
        assert shown and events[-1] in shown, (shown[:3], shown[-3:], events[-1])
