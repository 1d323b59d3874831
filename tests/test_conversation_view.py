"""The conversation view of the timeline (T): turns as Markdown, thinking and tool blocks collapsed,
compactions as dividers, bodies capped, untrusted text inert."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import Button, Collapsible, Markdown, Static

from inspector.services.conversation_window import BODY_CHARS
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.conversation_view import ConversationView, TurnBlock
from inspector.ui.widgets.timeline_area import TimelineArea
from inspector.ui.widgets.timeline_view import TimelineView
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle
from tests.test_real_transcript_flow import FILE


def blocks(app: InspectorApp) -> list[TurnBlock]:
    return list(app.screen.query_one(ConversationView).query(TurnBlock))


@pytest.mark.skipif(not FILE.exists(), reason=f"{FILE} is missing (../shared not beside the project)")
async def test_a_real_transcript_reads_as_a_conversation(imported_copy: Callable[..., Path]) -> None:
    store = imported_copy(FILE)
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "T")
        await settle(app, pilot)
        area = app.screen.query_one(TimelineArea)
        assert area.conversation and app.screen.focused is area.turns
        kinds = [b.turn.kind for b in blocks(app)]
        assert {"user", "thinking", "tool"} <= set(kinds)
        user = next(b for b in blocks(app) if b.turn.kind == "user")
        assert user.query(Markdown)
        tool = next(b for b in blocks(app) if b.turn.kind == "tool")
        title = str(tool.query_one(Collapsible).title)
        assert f"→ #{tool.turn.result_seq}" in title and "toolu_" not in title and "ok" in title
        assert tool.query_one(Collapsible).collapsed
        await pilot.press("T")  # back to the rows, at the first turn shown
        await settle(app, pilot)
        assert not area.conversation and app.screen.focused is area.rows
        await area.rows.jump_to_event(148)
        await pilot.press("T")
        await settle(app, pilot)
        divider = next(b for b in blocks(app) if b.turn.kind == "compaction")
        text = str(divider.query_one(".turn-divider", Static).render())
        assert "summary generation 1 covers evt:1–147" in text
        assert divider.turn.text.startswith("This session is being continued")
        assert len(blocks(app)) <= 80  # a window, not the session


async def test_bodies_are_capped_and_untrusted_text_is_inert(tmp_path: Path) -> None:
    hostile = "[b]not bold[/b] [click](https://evil.example) \x1b]52;c;QUJD\x07 $x"
    records = [session_record(owner="root"),
               event_record(1, content=hostile),
               event_record(2, kind="assistant_message", trust="model", content="# Title\n\n" + "x" * 200_000)]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="root")
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "T")
        await settle(app, pilot)
        user, assistant = blocks(app)
        md = user.query_one(Markdown)
        assert not md._open_links
        assert "\x1b" not in md.source and "␛" in md.source
        assert len(assistant.query_one(Markdown).source) <= BODY_CHARS
        more = assistant.query_one(Button)
        assert "more" in str(more.label)
        cut = str(assistant.query_one(".turn-cut", Static).render())
        assert "196,009 more characters" in cut  # how much is left out
        more.press()
        await settle(app, pilot)
        assert len(assistant.query_one(Markdown).source) > BODY_CHARS


async def test_the_timeline_filters_by_kind_tool_and_failure(tmp_path: Path) -> None:
    from inspector.services import timeline
    from inspector.store.connection import open_store
    from inspector.ui.timeline_filter_dialog import TimelineFilterDialog

    records = [session_record(owner="root"), event_record(1, content="run the tests"),
               event_record(2, kind="tool_call", trust="model", content="", call_id="c1", tool="bash",
                            args={"command": "pytest"}),
               event_record(3, kind="tool_result", trust="tool", content="1 failed", call_id="c1", tool="bash",
                            is_error=True),
               event_record(4, kind="tool_call", trust="model", content="", call_id="c2", tool="read",
                            args={"path": "a.py"}),
               event_record(5, kind="tool_result", trust="tool", content="ok", call_id="c2", tool="read"),
               event_record(6, kind="assistant_message", trust="model", content="fixed")]
    store = tmp_path / "f.db"
    await import_file(write_sif(tmp_path / "f.jsonl", records), store, actor="root")
    async with await open_store(store) as opened:
        async def seqs(**kw: object) -> list[int]:
            rows = await timeline.page(opened, "s1", None, limit=50, filt=timeline.TimelineFilter(**kw))  # type: ignore[arg-type]
            return [r.seq for r in rows if r.source == "event"]

        assert await seqs(failed=True) == [2, 3]
        assert await seqs(tool="read") == [4, 5]
        assert await seqs(kinds=frozenset({"user", "assistant"})) == [1, 6]
        assert [r.source for r in await timeline.page(opened, "s1", None, limit=50,
                                                      filt=timeline.TimelineFilter(kinds=frozenset({"ledger"})))
                ] == ["ledger"]
    app = InspectorApp(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "f")
        await settle(app, pilot)
        assert isinstance(app.screen, TimelineFilterDialog)
        app.screen.query_one("#filter-failed").value = True
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        rows = app.screen.query_one(TimelineView)
        assert [r.seq for r in rows.rows] == [2, 3] and "filter: failed" in rows._status().plain
