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


async def test_typing_a_range_in_the_expand_dialog_goes_into_its_boxes(sample_store: Path) -> None:
    """The dialog opened with the Expand button focused: digits typed for the range went nowhere,
    `tab` went to Close (the snap buttons are disabled) and `enter` then closed the dialog
    without expanding anything. Now the start box has the focus, its text selected."""
    from textual.widgets import Input, Static

    from inspector.ui.expand_dialog import ExpandDialog
    from tests.test_app import choose

    app = InspectorApp(sample_store, session="s-bigfold", reviewer="lin")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        choose(app.screen.query_one("#evidence-records"), "stub:stub-mid")
        await pilot.press("e")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        await pilot.press("1", "0", "0", "tab", "6", "0", "1", "enter")
        await settle(app, pilot)
        assert app.screen is dialog, "enter closed the dialog"
        assert dialog.query_one("#expand-start", Input).value == "100"
        assert dialog.query_one("#expand-end", Input).value == "601"
        shown = str(dialog.query_one("#expand-text", Static).render())
        assert "[100, 601)" in shown and "✓ verified" in shown


async def test_carrying_out_a_deletion_says_the_count_the_dialog_said(sample_store: Path) -> None:
    """The confirmation said "This removes 6 cop(ies)", the notice after it "Deleted 4 cop(ies)"
    (rows removed and material bytes, leaving out the search entry and the reason it also
    removed): a reviewer reads that two copies stayed."""
    from textual.widgets import Input

    from inspector.ui.deletion_dialog import ConfirmDeletion, DeletionDialog

    app = InspectorApp(sample_store, session="s-privacy", reviewer="lin")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DeletionDialog) and dialog.coverage is not None
        listed = len(dialog.coverage.copies)
        said: list[str] = []
        dialog.notify = lambda message, **_: said.append(str(message))  # type: ignore[method-assign]
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDeletion)
        app.screen.query_one(Input).value = "del-1"
        await pilot.press("enter")
        await settle(app, pilot)
        assert dialog.coverage.status == "done"
        assert len(said) == 1 and f"{listed} copies" in said[0] and "removed" in said[0], said


@pytest.mark.skipif(not FILE.exists(), reason=f"{FILE} is missing (../shared not beside the project)")
async def test_the_budget_does_not_call_source_code_that_says_failed_a_failed_result(
        imported_copy: Callable[..., Path]) -> None:
    """On a real transcript the Budget tab put ten "failed result (“failed”)" first: Read results of
    Go files whose code holds the word ("… failed to …"), none of them an error. A failure is what
    facts and drift call one (domain/failures.py): flagged, a non-zero exit, a shell's failed tests."""
    from inspector.services.budget import budget
    from inspector.store.connection import open_store
    from tests.test_real_transcript_flow import SESSION

    store_path = imported_copy(FILE)
    async with await open_store(store_path) as store:
        result = await budget(store, SESSION, window=128_000, fixed=8_000, reserve=4_000)
        items = [i for b in result.blocks for i in b.items]
        assert items, "nothing picked at all"
        failed = [(i.ref, i.reason) for i in items if "failed result" in (i.reason or "")]
        assert failed == [], failed


@pytest.mark.skipif(not FILE.exists(), reason=f"{FILE} is missing (../shared not beside the project)")
async def test_the_timeline_fills_its_height_after_the_terminal_grows_taller(
        imported_copy: Callable[..., Path]) -> None:
    """At the end of the timeline, going from 100×30 to 80×24 (where the tabs take the whole
    height) left the last few rows at the top and a dozen blank lines under them, as if the
    session ended there: the rows above the window's old top stayed out of sight."""
    from inspector.ui.widgets.timeline_view import TimelineView

    store = imported_copy(FILE)
    app = InspectorApp(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "end")
        await settle(app, pilot)
        view = app.screen.query_one(TimelineView)
        small = view.body_height
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert view.body_height > small
        lines = str(view.render()).split("\n")[:view.body_height]
        assert all(line.strip() for line in lines), lines
        assert view.current is not None and view.cursor == len(view.rows) - 1
