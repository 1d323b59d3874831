"""A real Claude Code session in the app: compaction in Task summary, large results as stubs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.expand_dialog import ExpandDialog
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.summary_channel import SummaryChannel
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle

FILE = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl")


@pytest.mark.skipif(not FILE.exists(), reason="the real transcripts are not beside the project")
async def test_real_session_shows_compaction_and_stubs(imported_copy: Callable[..., Path]) -> None:
    store = imported_copy(FILE, actor="t")
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        summary = app.screen.query_one(SummaryChannel)
        (gen,) = summary.items.values()
        assert gen.text.startswith("This session is being continued") and gen.covers == [1, 68]
        evidence = app.screen.query_one(EvidenceChannel)
        assert any(s.startswith("stub:toolu_") for s in evidence.stubs)
        timeline = app.screen.query_one(TimelineView)
        assert [r.seq for r in timeline.rows[:4] if r.source == "event"] == [1, 2, 3, 4]  # file order kept
        await pilot.press("3", "down")
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExpandDialog)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.result is not None and app.screen.result.ok and app.screen.result.text.startswith("diff --git")


@pytest.mark.skipif(not FILE.exists(), reason="the real transcripts are not beside the project")
async def test_an_event_shows_its_original_line(tmp_path: Path) -> None:
    from inspector.services.channels import event_detail, original_text
    from inspector.store.connection import open_store

    store = tmp_path / "real.db"
    report = await import_file(FILE, store, actor="t")
    async with await open_store(store) as opened:
        detail = await event_detail(opened, report.sessions[0], 4)
        text = await original_text(opened, report.sessions[0], detail["origin"])
    line = FILE.read_bytes().split(b"\n")[detail["origin"]["line"] - 1].decode("utf-8")
    assert text == line and '"commit this"' in text
