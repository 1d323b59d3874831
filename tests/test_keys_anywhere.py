"""Keys a reviewer types without first moving the focus (fresh-eyes review of the start-up work).

Textual moves the focus after the key that asked for it, so a key typed right behind `t`
(`t T`, `t f`) still reaches the widget that had the focus; the timeline's own keys must
therefore work from anywhere, as the docs' key table and the footer's status line promise.
"""

from __future__ import annotations

from pathlib import Path

from textual import events

from inspector.ui.app import InspectorApp
from inspector.ui.timeline_filter_dialog import TimelineFilterDialog
from inspector.ui.widgets.timeline_area import TimelineArea
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle


async def test_T_from_the_protected_state_opens_the_conversation_view(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        assert app.screen.focused is not None and app.screen.focused.id == "state-records"
        await pilot.press("T")
        await settle(app, pilot)
        area = app.screen.query_one(TimelineArea)
        assert area.conversation and app.screen.focused is area.turns


async def test_f_from_the_protected_state_opens_the_timeline_filter(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("f")
        await settle(app, pilot)
        assert isinstance(app.screen, TimelineFilterDialog)


async def test_k_enter_a_typed_at_once_accepts_the_candidate(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The three keys typed at human speed: the `a` reaches the review dialog while it still reads
    the candidate ("loading…"); it is kept and done once the dialog has read it, not dropped."""
    from inspector.services.candidates import list_candidates
    from inspector.store.connection import open_store
    from inspector.ui.review_dialog import ReviewDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("k")
        await settle(app, pilot)
        for key, char in (("enter", None), ("a", "a")):  # as a terminal delivers them: no wait in between
            app.post_message(events.Key(key, char))
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewDialog) and app.screen.decided
    async with await open_store(sample_store) as store:
        statuses = {c["id"]: c["status"] for c, _ in await list_candidates(store, "s-export")}
    assert statuses["cand-good"] == "accepted"


async def test_k_enter_a_typed_before_the_tabs_are_filled_accepts_the_candidate(sample_store: Path,
                                                                               monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The same three keys typed the moment the screen shows, while the tabs behind still mount."""
    from inspector.services.candidates import list_candidates
    from inspector.store.connection import open_store
    from inspector.ui.review_dialog import ReviewDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        while not app.screen.query(TimelineView) or not app.screen.query_one(TimelineView).rows:
            await pilot.pause()  # the first frame: the timeline's first page is on screen
        for key, char in (("k", "k"), ("enter", None), ("a", "a")):
            app.post_message(events.Key(key, char))
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewDialog) and app.screen.decided
    async with await open_store(sample_store) as store:
        statuses = {c["id"]: c["status"] for c, _ in await list_candidates(store, "s-export")}
    assert statuses["cand-good"] == "accepted"


async def test_tab_keys_typed_fast_end_on_the_last_tab_with_its_list_focused(sample_store: Path) -> None:
    """`b o k a d u x` typed the moment the screen shows: each tab's focus notice arrived after the
    focus had moved on and switched the tabs back, ending on Budget with nothing focused."""
    from textual.widgets import TabbedContent

    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.screen.query(TimelineView) or not app.screen.query_one(TimelineView).rows:
            await pilot.pause()
        for key in "bokadux":
            app.post_message(events.Key(key, key))
        await settle(app, pilot)
        assert app.screen.query_one(TabbedContent).active == "tab-deletions"
        assert app.screen.focused is not None and app.screen.focused.id == "deletions"


async def test_text_typed_right_behind_slash_lands_in_the_search_box(sample_store: Path) -> None:
    """`/git` typed at once: the letters reached the list that had the focus before `/` (lost,
    and `t` ran the Timeline key); they belong in the search box."""
    from textual.widgets import Input

    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        for key, char in (("slash", "/"), ("g", "g"), ("i", "i"), ("t", "t")):
            app.post_message(events.Key(key, char))
        await settle(app, pilot)
        box = app.screen.query_one("#evidence-search", Input)
        assert box.value == "git" and app.screen.focused is box
