"""Issue 15, item 4: a real Claude Code transcript with a compaction and a micro-compaction,
read as a reviewer does. Skips (with the reason) when ../shared is not beside the project."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Static

from inspector.domain.short_ids import short_id
from inspector.services import timeline
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.widgets.summary_channel import SummaryChannel
from inspector.ui.widgets.timeline_view import TimelineView, format_row
from tests.test_app import settle

FILE = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl")
SESSION = "839b35f7-4dbd-4d93-9772-3c272cc87caa"
pytestmark = pytest.mark.skipif(not FILE.exists(), reason=f"{FILE} is missing (../shared not beside the project)")


@pytest.fixture
def real_store(imported_copy: Callable[..., Path]) -> Path:
    return imported_copy(FILE)


async def test_4_rows_keep_file_order_around_the_compaction(real_store: Path) -> None:
    async with await open_store(real_store) as store:
        rows, _ = await timeline.around(store, SESSION, 148, limit=12)
        seqs = [r.seq for r in rows if r.source == "event"]
        assert seqs == sorted(seqs) and {147, 148, 149, 150} <= set(seqs)
        forward = await timeline.page(store, SESSION, None, limit=500)
        events = [r.seq for r in forward if r.source == "event"]
        assert events == list(range(1, 219))


async def test_4_a_call_row_shows_its_short_id_and_result_first(real_store: Path) -> None:
    async with await open_store(real_store) as store:
        rows = await timeline.page(store, SESSION, None, limit=300)
    call = next(r for r in rows if r.kind == "tool_call" and r.pair_seq is not None)
    text = format_row(call).plain
    assert "toolu_" not in text and call.call_id[-6:] in text
    assert text.index(f"→ #{call.pair_seq}") < 50  # visible at 80 columns, before the arguments


async def _open_event(app: InspectorApp, pilot, seq: int) -> str:  # type: ignore[no-untyped-def]
    await app.screen.query_one(TimelineView).jump_to_event(seq)
    await pilot.press("t", "enter")
    await settle(app, pilot)
    assert isinstance(app.screen, MessageDialog)
    body = str(app.screen.query_one("#dialog-body Static", Static).render())
    await pilot.press("escape")
    await settle(app, pilot)
    return body


async def test_4_details_name_results_cleared_calls_and_thinking(real_store: Path) -> None:
    app = InspectorApp(real_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        body = await _open_event(app, pilot, 146)
        assert "→ result #147" in body and "toolu_018C6J9Kc7eq6791e3qvZVLi" in body
        body = await _open_event(app, pilot, 33)
        assert "CLEARED 42 TOOL RESULT(S)" in body
        assert short_id("toolu_01Ccc8vRsWj8nabNky1oKWf1") in body and "not in this log" in body
        body = await _open_event(app, pilot, 205)
        assert "THINKING\nLet me look at that test" in body
        summary = app.screen.query_one(SummaryChannel)
        detail = str(summary.query_one("#summary-detail", Static).render())
        assert "base v?" not in detail and "base not recorded" in detail
