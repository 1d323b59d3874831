"""Pilot tests for the reviewer's traps of issue 15: each item, so that it cannot come back."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import Input, Label, Static

from inspector.services import reviewer_name
from inspector.ui.app import InspectorApp
from inspector.ui.correction_dialog import CorrectionDialog
from inspector.ui.dialogs import MessageDialog
from inspector.ui.expand_dialog import ExpandDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.reviewer_dialog import ReviewerDialog
from inspector.ui.widgets.candidates_list import CandidatesList
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.progress_line import ProgressLine
from inspector.ui.widgets.sessions_list import SessionsList
from inspector.ui.widgets.state_channel import StateChannel
from tests.pending_fixture import pending_store
from tests.test_app import choose, settle, text_of
from tests.test_confirm_ui import decisions
from tests.test_expand_dialog import _open_on_stub

SIZE = (170, 45)


async def test_10_the_first_write_asks_who_is_reviewing_and_remembers_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = await pending_store(tmp_path)
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    (reviewer_name.config_dir() / "reviewer").unlink()  # nobody named yet
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "as ?" in text_of(app.screen.query_one(HeaderBar))
        choose(app.screen.query_one(StateChannel).records, "decision.db@1")
        await pilot.press("y")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewerDialog)
        assert await decisions(store) == []  # nothing written before the name is given
        await pilot.press(*"alice", "enter")
        await settle(app, pilot)
        assert await decisions(store) == [("decision.db", "confirmed", None, "alice")]
        assert "as alice" in text_of(app.screen.query_one(HeaderBar))
    assert reviewer_name.remembered() == "alice"
    again = InspectorApp(store)
    assert again.reviewer == "alice"  # asked once
    assert InspectorApp(store, reviewer="bob").reviewer == "bob"  # --reviewer overrides
    monkeypatch.setenv("INSPECTOR_REVIEWER", "carol")
    assert InspectorApp(store).reviewer == "carol"


async def test_10_cancelling_the_name_writes_nothing(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    store = await pending_store(tmp_path)
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    (reviewer_name.config_dir() / "reviewer").unlink()  # nobody named yet
    app = InspectorApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        choose(app.screen.query_one(StateChannel).records, "decision.db@1")
        await pilot.press("y")
        await settle(app, pilot)
        await pilot.press("enter")  # an empty name is refused in the dialog
        assert isinstance(app.screen, ReviewerDialog)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReviewerDialog)
    assert await decisions(store) == [] and reviewer_name.remembered() is None


@pytest.mark.parametrize("name", ["", "   ", "a\x1bb", "x" * 65])
def test_10_a_name_must_name_someone(name: str) -> None:
    assert reviewer_name.name_problem(name) is not None


def main_of(app: InspectorApp) -> MainScreen:
    return next(s for s in app.screen_stack if isinstance(s, MainScreen))


async def test_1_after_a_rejection_the_cursor_is_on_the_next_candidate_and_up_never_wraps(
        sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("k")
        listing = app.screen.query_one(CandidatesList)
        first, second = (listing.get_option_at_index(i).id for i in (0, 1))
        await pilot.press("up")  # at the top: stays (it wrapped to the last row)
        assert listing.highlighted == 0
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewDialog) and app.screen.candidate == first
        await pilot.press("r")
        await settle(app, pilot)
        await pilot.press(*"dup", "enter")
        await settle(app, pilot)
        await pilot.press("escape")
        await settle(app, pilot)
        assert listing.highlighted_id() == second  # the list re-sorted; the cursor followed the next one
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen.candidate == second
        await pilot.press("escape")
        await settle(app, pilot)
        await pilot.press("end", "down")
        assert listing.highlighted == listing.option_count - 1  # at the bottom: stays


async def test_2_the_stub_detail_shows_its_byte_range(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        stub = next(i for i in range(evidence.records.option_count)
                    if (evidence.records.get_option_at_index(i).id or "").startswith("stub:"))
        await pilot.press("3")
        evidence.records.highlighted = stub
        await pilot.pause()
        detail = text_of(evidence.query_one("#evidence-detail", Static))
        assert "$a" not in detail and "$n" not in detail
        assert re.search(r"read_slice \[[\d,]+, [\d,]+\) · [\d,]+ bytes", detail), detail


async def test_3_c_in_the_task_summary_corrects_the_summary(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "c")
        await settle(app, pilot)
        assert isinstance(app.screen, CorrectionDialog)
        assert app.screen.generation is not None and app.screen.record is None


async def test_9_review_status_and_counts_follow_each_decision(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("k")
        choose(app.screen.query_one(CandidatesList), "cand-space")
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("a")  # refused: says why instead of nothing, in a dialog with the code
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title.startswith("Cannot accept cand-space (")
        await pilot.press("escape", "escape")
        await settle(app, pilot)
        choose(app.screen.query_one(CandidatesList), "cand-good")
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ReviewDialog)
        behind = main_of(app)
        assert "ctx v5" in text_of(behind.query_one(HeaderBar))  # before the dialog closes
        assert "7 pending cand" in text_of(behind.query_one(HeaderBar))  # short form when the line is full
        sessions_list = behind.query_one(SessionsList)
        line = str(sessions_list.get_option_at_index(sessions_list.highlighted or 0).prompt)
        assert "v5" in line
        body = text_of(dialog.query_one("#review-text", Static))
        assert "(accepted)" in body and "refused" not in body.split("\n")[0]
        assert dialog.check_action("accept", ()) is False  # no a Accept in the footer once decided


def on_screen(app: InspectorApp) -> bool:
    """The focused widget is displayed and inside the terminal (not below the fold)."""
    widget = app.screen.focused
    if widget is None or not all(a.display for a in widget.ancestors_with_self if hasattr(a, "display")):
        return False
    region = widget.region
    return region.height > 0 and region.width > 0 and region.bottom <= app.size.height - 1


async def test_5_every_key_focuses_something_visible_at_80x24(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:  # one app, every key in turn (the search box last)
        await settle(app, pilot)
        for key in ["1", "2", "3", "t", "k", "d", "u", "o", "a", "x", "b", "slash"]:
            await pilot.press("k" if key != "k" else "1")  # start from the other zone
            await pilot.press(key)
            await settle(app, pilot)
            assert on_screen(app), f"{key} focused {app.screen.focused!r} at {app.screen.focused.region}"


async def test_5_the_sessions_list_toggles_at_any_width(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        sessions_list = app.screen.query_one(SessionsList)
        assert not sessions_list.display
        await pilot.press("s")
        await pilot.pause()
        assert sessions_list.display
        await pilot.resize_terminal(200, 50)
        await pilot.press("s")
        await pilot.pause()
        assert not sessions_list.display


async def test_6_escape_leaves_the_search_box_and_keys_are_keys_again(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"超时", "escape")
        await settle(app, pilot)
        box = app.screen.query_one("#evidence-search", Input)
        assert box.value == "" and not box.has_focus
        await pilot.press("k", "1")
        assert box.value == "" and app.screen.focused is app.screen.query_one("#state-records")
        await pilot.press("slash", "down")  # ↓ from the box reaches the results
        assert app.screen.focused is app.screen.query_one("#evidence-records")


async def test_6_the_budget_tab_does_not_swallow_keys(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        keys = {b.binding.key for b in app.screen.active_bindings.values() if b.binding.show}
        assert {"1", "2", "t", "k"} <= keys  # the footer keeps its keys
        await pilot.press("2")
        assert app.screen.query_one("#budget-window", Input).value == "128000"
        assert app.screen.focused is app.screen.query_one("#summary-records")
        await pilot.press("b", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
        assert app.screen.focused is app.screen.query_one("#budget-window", Input)
        await pilot.press("escape", "1")
        assert app.screen.focused is app.screen.query_one("#state-records")


async def test_10_f6_widens_and_over_limit_names_the_apps_limit_box(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=(160, 45)) as pilot:
        await _open_on_stub(app, pilot, "stub-mid")
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        start = int(dialog.query_one("#expand-start", Input).value)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("f6")  # passes through tmux, unlike alt+w
        await settle(app, pilot)
        assert int(dialog.query_one("#expand-start", Input).value) == start - 2
        dialog.query_one("#expand-limit", Input).value = "10"
        dialog.run_expand()
        await settle(app, pilot)
        shown = str(dialog.query_one("#expand-text", Static).render())
        assert "over_budget" in shown and "--max-bytes on the command line" in shown and "limit box" in shown


async def test_10_verify_shows_progress_while_it_runs(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from inspector.services import verifying

    real = verifying.verify_store
    reported, release = asyncio.Event(), asyncio.Event()

    async def held(store, progress=None):  # type: ignore[no-untyped-def]
        """A verify that reports progress, then waits until the test has looked at the screen."""
        for done in range(1, 3):
            if progress:
                progress(done, 4)
        reported.set()
        await release.wait()
        return await real(store, progress=progress)

    monkeypatch.setattr(verifying, "verify_store", held)
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        line = app.screen.query_one(ProgressLine)
        await pilot.press("v")
        await reported.wait()
        async with asyncio.timeout(30):  # shown once the work has run for SHOW_AFTER_S, while it still runs
            while not line.has_class("-running"):
                await pilot.pause()
        assert line.display and not release.is_set()
        assert "Verifying" in str(line.query_one(Label).render())
        release.set()
        await settle(app, pilot)
        assert not line.has_class("-running") and isinstance(app.screen, MessageDialog)


async def test_survival_reports_progress_per_generation(sample_store: Path) -> None:
    from inspector.services.survival import survival_all
    from inspector.store.connection import open_store

    steps: list[tuple[int, int]] = []
    async with await open_store(sample_store) as store:
        reports = await survival_all(store, "s-export", progress=lambda d, t: steps.append((d, t)))
    assert steps and steps[-1] == (len(reports), len(reports))


async def test_8_search_counts_occurrences_gives_offsets_and_steps_through_them(sample_store: Path) -> None:
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"row")
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        head = str(evidence.records.get_option_at_index(0).prompt)
        assert "1,400 occurrences in 1 item" in head  # not "1 hit"
        await pilot.press("down")  # from the box to the results
        assert app.screen.focused is evidence.records
        detail = evidence.query_one("#evidence-detail", Static)
        first = text_of(detail)
        assert "match 1 of 1,400 at character" in first
        assert "] next · [ previous" in first and "[/]" not in first  # the keys, not broken markup
        await pilot.press("right_square_bracket")
        second = text_of(detail)
        assert "match 2 of 1,400" in second
        offsets = [int(re.search(r"at character ([\d,]+)", t).group(1).replace(",", "")) for t in (first, second)]
        assert offsets[1] > offsets[0]
        # each match shows the text around it, not the first match's snippet again
        assert first.splitlines()[-1] != second.splitlines()[-1]
        await pilot.press("left_square_bracket")
        assert "match 1 of 1,400" in text_of(detail)


async def test_7_a_handoff_shows_what_it_hands_over_and_the_new_session_keeps_it(sample_store: Path,
                                                                                  monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from inspector.services.channels import event_detail, state_records
    from inspector.services.verifying import verify_store
    from inspector.store.connection import open_store
    from inspector.ui.handoff_dialog import HandoffDialog
    from inspector.ui.widgets.handoffs_list import HandoffsList

    monkeypatch.setenv("INSPECTOR_REVIEWER", "maria")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("o")
        choose(app.screen.query_one(HandoffsList), "h-good")
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, HandoffDialog)
        text = text_of(app.screen.query_one("#handoff-text", Static))
        assert "HANDED OVER" in text and "• Use CREATE INDEX CONCURRENTLY" in text
        assert "• Was orders_created_idx created before the connection dropped?" in text
        assert "Records the new session keeps" in text
        await pilot.press("a")
        await settle(app, pilot)
    async with await open_store(sample_store) as store:
        first = await event_detail(store, "s-orders-2", 1)
        assert '\\"' not in first["content"] and "\\\\n" not in first["content"]
        assert "\nDecisions:\n- Use CREATE INDEX CONCURRENTLY" in first["content"]
        old = {r.kind for r in await state_records(store, "s-orders") if r.status == "active"}
        new = {r.kind for r in await state_records(store, "s-orders-2") if r.status == "active"}
        assert "open_issue" in old and {"open_issue", "decision"} & old <= new
        assert (await verify_store(store)).ok


async def test_from_open_to_a_decided_candidate_in_at_most_five_keystrokes(sample_store: Path,
                                                                           monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from inspector.services.candidates import list_candidates
    from inspector.store.connection import open_store

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    keys = ["k", "enter", "a"]  # focus the candidates, review the first (pending first), accept it
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot)
    assert len(keys) <= 5
    async with await open_store(sample_store) as store:
        statuses = {c["id"]: c["status"] for c, _ in await list_candidates(store, "s-export")}
    assert statuses["cand-good"] == "accepted"
