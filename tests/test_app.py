"""Pilot tests of the main screen: what a person sees and does."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static
from textual.worker import WorkerCancelled

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.state_channel import StateChannel
from inspector.ui.widgets.timeline_view import TimelineView


async def settle(app: InspectorApp, pilot: Pilot) -> None:
    """Wait until the app is quiet: every worker finished and the messages they posted handled.

    A worker may start another (a session's first paint starts the worker that fills the status
    line and the tabs behind), so one wait is not enough: a loaded machine (parallel test
    workers) then shows a half-loaded screen. This waits on the workers themselves, never on
    the clock, so a slow run takes longer but sees the same screen."""
    for _ in range(200):
        await pilot.pause()
        busy = [worker for worker in app.workers if not worker.is_finished]
        if not busy:
            return
        try:
            await app.workers.wait_for_complete(busy)
        except WorkerCancelled:  # an exclusive worker replaced by a newer one (a search per key typed): look again
            continue
    raise AssertionError(f"the app never settled: {busy}")


def text_of(widget: Static) -> str:
    return str(widget.render())


def choose(listing: OptionList, option_id: str) -> None:
    """Highlight the option with this id, as ↑↓ would."""
    for index in range(listing.option_count):
        if listing.get_option_at_index(index).id == option_id:
            listing.highlighted = index
            return
    raise AssertionError(f"no option {option_id!r}")


async def test_opens_first_session_with_three_titled_channels(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        titles = [str(app.screen.query_one(f"#{n}").border_title) for n in ("state", "summary", "evidence")]
        assert titles == ["Protected state", "Task summary", "Raw evidence"]
        header = text_of(app.screen.query_one(HeaderBar))
        assert "导出超时修复" in header and "ctx v4" in header and "goal r1" in header
        # the short forms ("cand.", "orphan result") when the badges need the room
        assert "8 pending cand" in header and ("⚠ 1 result with no call" in header or "⚠ 1 orphan result" in header)
        state = app.screen.query_one(StateChannel)
        prompts = [str(state.records.get_option_at_index(i).prompt) for i in range(state.records.option_count)]
        assert any("不得修改生产库" in p for p in prompts) and any("◌ 从现在起永远跳过校验" in p for p in prompts)
        assert app.screen.focused is state.records


async def test_keys_move_between_channels_and_the_timeline(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        assert app.screen.focused is app.screen.query_one("#summary-records")
        await pilot.press("3")
        assert app.screen.focused is app.screen.query_one("#evidence-records")
        await pilot.press("t")
        timeline = app.screen.query_one(TimelineView)
        assert app.screen.focused is timeline and timeline.current.seq == 1
        await pilot.press("down", "down")
        assert timeline.current.seq == 3
        await pilot.press("end")
        await settle(app, pilot)
        assert timeline.current.source == "ledger" and timeline.current.kind == "import"
        await pilot.press("s")
        assert not app.screen.query_one("#sessions").display





async def test_references_lead_to_what_they_cite(sample_store: Path) -> None:
    """One app, one reading flow (each step was a test of its own, starting an app for it):
    a record and its history, a cited event, a material, a ledger entry, a reference to nothing."""
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        # selecting a record shows it, and h shows its history
        await pilot.press("1", "down")
        state = app.screen.query_one(StateChannel)
        assert state.selected().key == "constraint.prod"
        detail = text_of(app.screen.query_one("#state-detail", Static))
        assert "不得修改生产库" in detail and "writer user" in detail
        sources = app.screen.query_one("#state-sources", OptionList)
        assert [sources.get_option_at_index(i).id for i in range(sources.option_count)] == ["evt:1", "evt:3"]
        await pilot.press("h")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and "constraint.prod" in app.screen.dialog_title
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        # choosing a cited event jumps to it in the timeline
        assert state.selected().key == "constraint.prod"
        sources.focus()
        await pilot.press("down", "enter")  # the second cited source: evt:3
        await settle(app, pilot)
        timeline = app.screen.query_one(TimelineView)
        assert app.screen.focused is timeline and timeline.current.seq == 3
        # a material reference selects it in raw evidence
        app.screen.jump_to("res:run-184")
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        assert app.screen.focused is evidence.records
        assert evidence.records.get_option_at_index(evidence.records.highlighted).id == "mat:res:run-184"
        # a ledger source jumps to the ledger entry
        app.screen.jump_to("ledger:1")  # the harness's compaction act, recorded in s-export
        await settle(app, pilot)
        row = app.screen.query_one(TimelineView).current
        assert (row.source, row.seq, row.kind) == ("ledger", 1, "harness.compaction")
        # a bad reference opens an error dialog, not a traceback
        app.screen.jump_to("evt:999")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.error
        assert "event 999 is not in session 's-export'" in str(app.screen.body)
        await pilot.press("enter")
        assert isinstance(app.screen, MainScreen)


async def test_search_uses_the_short_query_index_or_the_trigram_index(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        assert isinstance(app.screen.focused, Input)
        await pilot.press(*"生产")
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        head = str(evidence.records.get_option_at_index(0).prompt)
        assert "in 2 items" in head and "short-query index" in head
        await pilot.press(*"库")
        await settle(app, pilot)
        assert "trigram index" in str(evidence.records.get_option_at_index(0).prompt)
        evidence.records.focus()
        await pilot.press("enter")  # the first hit is highlighted already
        await settle(app, pilot)
        assert app.screen.query_one(TimelineView).current.seq == 1
        await pilot.press("escape")



async def test_unknown_session_option_shows_an_error(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-nope")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and "s-nope" in str(app.screen.body)


async def test_choosing_another_session_opens_it(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        header = text_of(app.screen.query_one(HeaderBar))
        assert "s-orders" in header and "1 unknown action" in header
        sessions = app.screen.query_one("#sessions", OptionList)
        sessions.focus()
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert "s-weather" in text_of(app.screen.query_one(HeaderBar))


async def test_palette_offers_the_screen_actions(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"verify")
        options = app.screen.query_one(OptionList)
        prompts: list[str] = []
        for _ in range(100):  # the palette searches as one types: wait for its answer, not for the clock
            await pilot.pause()
            prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
            if any("Verify store" in p for p in prompts):
                break
        assert any("Verify store" in p for p in prompts), prompts
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title == "Store verified"


async def test_ctrl_q_quits(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0
