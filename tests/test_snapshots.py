"""SVG snapshots of the main screen on a sample session at 80×24, 100×30 and 200×50, of every dialog,
and of the conversation view on a real Claude Code transcript with a compaction.

Update after an intended visual change with ``pytest tests/test_snapshots.py -n 0 --snapshot-update``
and look at the report before committing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.notifications import Notification
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.services import reviewer_name
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.actions_list import ActionsList
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle


@pytest.fixture(autouse=True)
def still_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    """What changes with wall time alone stays still, so a loaded machine (or a parallel run)
    takes the same screenshot as a quiet one: a toast leaves after a few seconds (here every
    toast raised before the screenshot is in it) and an input's cursor blinks every 0.5 s
    (here it stays shown, as it is right after a key; a text area's too)."""
    monkeypatch.setattr(Notification, "time_left", property(lambda self: self.timeout + 3600.0))
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    monkeypatch.setattr(TextArea, "_toggle_cursor_blink_visible", lambda self: None)


async def _settled(pilot: Pilot) -> None:
    await settle(pilot.app, pilot)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [(200, 50), (100, 30), (80, 24)])
def test_main_screen(snap_compare: object, sample_store: Path, size: tuple[int, int]) -> None:
    app = InspectorApp(sample_store)
    assert snap_compare(app, terminal_size=size, run_before=_settled)  # type: ignore[operator]


@pytest.mark.parametrize("key", ["t", "slash"])
def test_lower_zone_at_80_columns(snap_compare: object, sample_store: Path, key: str) -> None:
    """Every tab of the lower zone in sight (short names, counts kept) with the active one's list; the
    search box's key line with its way out (escape); the drift notice in the notice line, not a toast."""
    app = InspectorApp(sample_store)
    assert snap_compare(app, terminal_size=(80, 24), run_before=_keys(key))  # type: ignore[operator]


def test_main_screen_deepseek_session(snap_compare: object, sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-weather")
    assert snap_compare(app, terminal_size=(160, 45), run_before=_settled)  # type: ignore[operator]


def _keys(*keys: str, before: Callable[[Pilot], Awaitable[None]] | None = None) -> Callable[[Pilot], Awaitable[None]]:
    """Settle, press ``keys`` (settling after each), settle."""

    async def run(pilot: Pilot) -> None:
        await _settled(pilot)
        if before is not None:
            await before(pilot)
        for key in keys:
            await pilot.press(key)
            await _settled(pilot)

    return run


async def _on_stub(pilot: Pilot) -> None:
    await pilot.press("3")
    records = pilot.app.screen.query_one("#evidence-records")
    records.highlighted = next(i for i in range(records.option_count)
                               if records.get_option_at_index(i).id == "stub:stub-mid")


async def _on_a7(pilot: Pilot) -> None:
    await pilot.press("a")
    listing = pilot.app.screen.query_one(ActionsList)
    listing.highlighted = next(i for i in range(listing.option_count) if listing.get_option_at_index(i).id == "a7")


DIALOGS = {
    "history": (None, _keys("1", "h")),  # a MessageDialog (verify's shows the ledger head, a hash of import times)
    "event_detail": (None, _keys("t", "enter")),
    "review": (None, _keys("k", "enter")),
    "review_refused": (None, _keys("k", "down", "enter")),
    "reason": (None, _keys("k", "enter", "r")),
    "correction": (None, _keys("1", "c")),
    "summary_correction": (None, _keys("2", "c")),
    "decision_refused": (None, _keys("1", "ctrl+a", "y")),  # root may not decide a constraint: the refusal
    "timeline_filter": (None, _keys("t", "f")),
    "handoff": ("s-orders", _keys("o", "enter")),
    "reconcile": ("s-orders", _keys("enter", before=_on_a7)),
    "deletion": ("s-privacy", _keys("x", "enter")),
    "expand": ("s-bigfold", _keys("e", before=_on_stub)),
    # on evt:4 (a phone number): what is looked for, counted never shown; the copies; the reason
    "request_deletion": ("s-privacy", _keys("t", "down", "down", "down", "D")),
}


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_dialog(snap_compare: object, sample_store: Path, name: str) -> None:
    session, run_before = DIALOGS[name]
    app = InspectorApp(sample_store, session=session)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)  # type: ignore[operator]


# At 80×24: the deletion list continuing under each item's text and its confirmation in three
# short lines (the id to type was split from "Type"); a greyed key's refusal (root is not the
# handoff's owner) in its own dialog, whole, over the handoff dialog.
SMALL_DIALOGS = {
    "deletion_confirm": ("s-privacy", _keys("x", "enter", "x")),
    "handoff_not_owner": ("s-orders", _keys("o", "enter", "a")),
    # the expanded bytes fill the screen (two lines of them showed in a 90%×85% frame)
    "expand": ("s-bigfold", _keys("e", "enter", before=_on_stub)),
    "request_deletion": ("s-privacy", _keys("t", "down", "down", "down", "D")),
}


@pytest.mark.parametrize("name", sorted(SMALL_DIALOGS))
def test_dialog_at_80x24(snap_compare: object, sample_store: Path, name: str) -> None:
    session, run_before = SMALL_DIALOGS[name]
    app = InspectorApp(sample_store, session=session)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)  # type: ignore[operator]


def test_decision_dialog(snap_compare: object, sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")  # the session's owner: the marked record may be decided
    app = InspectorApp(sample_store)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_keys("1", "ctrl+a", "y"))  # type: ignore[operator]


def test_reviewer_dialog(snap_compare: object, sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
    (reviewer_name.config_dir() / "reviewer").unlink()
    app = InspectorApp(sample_store)
    assert snap_compare(app, terminal_size=(120, 40), run_before=_keys("1", "ctrl+a", "y"))  # type: ignore[operator]


REAL = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl")


@pytest.fixture
def real_store(imported_copy: Callable[..., Path]) -> Path:
    if not REAL.exists():
        pytest.skip(f"{REAL} is missing (../shared is not beside the project)")
    return imported_copy(REAL)


async def _at_compaction(pilot: Pilot) -> None:
    await pilot.press("t")
    await pilot.app.screen.query_one(TimelineView).jump_to_event(146)


@pytest.mark.parametrize("where", ["start", "compaction"])
def test_conversation_view(snap_compare: object, real_store: Path, where: str) -> None:
    run_before = _keys("t", "T") if where == "start" else _keys("T", before=_at_compaction)
    assert snap_compare(InspectorApp(real_store), terminal_size=(200, 50), run_before=run_before)  # type: ignore[operator]
