"""What the app says while a dialog is open is said inside the dialog, never over it; a greyed
key pressed says why.

Issue 15's re-check at 80×24: a toast over a dialog, moved to the top rows, covered the dialog's
title and was cut after two lines ("Cannot accept cand-orders (unknowns_mismatch): the
candidate's … …"); at 200×50 a toast at the bottom right covered a 90%-high dialog's status line.
``a`` for a reviewer who is not the handoff's owner was greyed and did nothing visible.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog
from inspector.ui.handoff_dialog import HandoffDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.widgets.notice_line import NoticeLine
from tests.test_app import settle

LONG = ("Accepted cand-good: context version is now 5; the header, the candidates tab and the sessions list "
        "follow, and the ledger records it as lin.")


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 50)])
async def test_a_notice_in_a_dialog_is_a_line_of_its_own_that_covers_nothing(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("k", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ReviewDialog)
        app.notify(LONG, title="Done")
        await pilot.pause(0.1)
        assert not list(dialog.query("Toast")), "no toast over the dialog"
        line = dialog.query_one(NoticeLine)
        said = str(line.render())
        assert said.startswith("• Done: Accepted cand-good")
        assert "the ledger records it as lin." in said.replace("\n", " "), "the whole sentence, not cut"
        box = dialog.query_one("#review").region
        assert not line.region.overlaps(box), (line.region, box)
        status = dialog.query_one("#review-status").region
        assert box.contains_region(status) and status.bottom <= size[1] - 1, "the status line stays in sight"


async def test_a_notice_said_just_before_a_dialog_closes_goes_on_to_the_screen_beneath(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The handoff dialog says "Accepted h-good: new session …" and closes: the sentence went with it."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "maria")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("o", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, HandoffDialog)
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        line = app.screen.query_one(NoticeLine)  # at 80×24 the main screen says it in its notice line
        assert "Accepted h-good: new session" in str(line.render())


async def test_a_toast_showing_when_a_dialog_opens_moves_into_its_line(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        app.notify("Changed elsewhere: ana accepted cand-good; reloaded.", timeout=10)
        await pilot.pause(0.1)
        assert list(app.screen.query("Toast")), "a toast on the main screen at 200×50, as before"
        await pilot.press("k", "enter")
        await settle(app, pilot)
        await pilot.pause(0.1)
        dialog = app.screen
        assert isinstance(dialog, ReviewDialog)
        assert not list(dialog.query("Toast"))
        assert "ana accepted cand-good" in str(dialog.query_one(NoticeLine).render())


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
async def test_a_greyed_accept_pressed_by_a_reviewer_who_is_not_the_owner_says_why(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-orders")
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("o", "enter")
        await settle(app, pilot)
        handoff = app.screen
        assert isinstance(handoff, HandoffDialog)
        enabled = {b.action: on for _n, b, on, _t in handoff.active_bindings.values()}
        assert enabled.get("accept") is False, "still greyed in the key line"
        await pilot.press("a")
        await settle(app, pilot)
        refusal = app.screen
        assert isinstance(refusal, MessageDialog) and refusal.error
        assert refusal.dialog_title == "Cannot accept h-good (not_owner)"
        assert "only maria may accept" in str(refusal.body) and "Nothing was changed." in str(refusal.body)
        whole = refusal.query_one("#dialog").region
        assert whole.bottom <= size[1] - 1 and whole.right <= size[0], "the refusal fits the terminal"
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is handoff and handoff.result is not None and handoff.result.acceptable  # not accepted


async def test_a_greyed_carry_out_says_which_copy_stays(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """``x`` on a request that cannot remove every copy was hidden and did nothing."""
    from inspector.ui.deletion_dialog import DeletionDialog
    from tests.test_deletion_names import _import, _state_key
    from tests.test_deletion_variants import SID, _records

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    records, _copies, _ = _records()
    _state_key(records)  # a state key holds the phone number: a copy deletion cannot remove
    app = InspectorApp(await asyncio.to_thread(_import, tmp_path, records), session=SID)  # the CLI's own loop
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        deletion = app.screen
        assert isinstance(deletion, DeletionDialog) and deletion.coverage is not None and deletion.coverage.kept
        assert {b.action: on for _n, b, on, _t in deletion.active_bindings.values()}.get("carry_out") is False
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title.endswith("(copy_kept)")
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is deletion and deletion.coverage.status == "pending"


async def test_writing_keys_greyed_on_a_read_only_store_say_why(sample_store: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``c``, ``y`` and the review's ``a`` were greyed on a read-only store and did nothing when pressed."""
    from inspector.store import connection

    monkeypatch.setattr(connection, "read_only_reason", lambda _path: "a read-only medium")
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for keys in (("1", "c"), ("1", "y")):
            await pilot.press(*keys)
            await settle(app, pilot)
            refusal = app.screen
            assert isinstance(refusal, MessageDialog) and refusal.dialog_title == "Cannot write here (read_only)", keys
            assert "a read-only medium" in str(refusal.body)
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, MainScreen)
        await pilot.press("k", "enter")
        await settle(app, pilot)
        review = app.screen
        assert isinstance(review, ReviewDialog)
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title.endswith("(read_only)")
