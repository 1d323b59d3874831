"""Every dialog at 80×24: its buttons, fields and status line inside it and on screen, and
``escape`` back to the main screen.

Found going through the reviewer's job at 80×24 (issue 15's re-check): the summary correction's
12-line text pushed "File correction (ctrl+s)" below the dialog's edge, so only the key line said how
to file it; the deletion confirmation split the id to type from "Type".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.containers import ScrollableContainer
from textual.widget import Widget
from textual.widgets import Button, Input, Static, TextArea

from inspector.ui.app import InspectorApp
from inspector.ui.dialog_base import Dialog
from inspector.ui.main_screen import MainScreen
from tests.test_app import settle

SIZE = (80, 24)

# name: (session, keys that open it, escapes back to the main screen)
OPEN = {
    "history": (None, ("1", "h"), 1),
    "event": (None, ("t", "enter"), 1),
    "review": (None, ("k", "enter"), 1),
    "reason": (None, ("k", "enter", "r"), 2),
    "correct_record": (None, ("1", "c"), 1),
    "correct_summary": (None, ("2", "c"), 1),
    "decide_marked": (None, ("1", "ctrl+a", "y"), 1),
    "filter": (None, ("t", "f"), 1),
    "verify": (None, ("v",), 1),
    "whole_detail": (None, ("1", "i"), 1),
    "handoff": ("s-orders", ("o", "enter"), 1),
    "handoff_refusal": ("s-orders", ("o", "enter", "a"), 2),
    "reconcile": ("s-orders", ("o", "enter", "u"), 2),
    "deletion": ("s-privacy", ("x", "enter"), 1),
    "deletion_confirm": ("s-privacy", ("x", "enter", "x"), 2),
    "expand": ("s-bigfold", ("3", "down", "e"), 1),
}


def _in_a_scroll(widget: Widget, dialog: Widget) -> bool:
    """Inside a scrolling body, a widget may be out of view by design (the body scrolls)."""
    return any(isinstance(a, ScrollableContainer) for a in widget.ancestors if a is not dialog
               and dialog in a.ancestors_with_self)


@pytest.mark.parametrize("name", sorted(OPEN))
async def test_the_dialog_fits_and_escape_closes_it(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                    name: str) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    session, keys, escapes = OPEN[name]
    app = InspectorApp(sample_store, session=session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        for key in keys:
            await pilot.press(key)
            await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, Dialog), f"{name}: {keys} opened {screen!r}"
        box = next(w for w in screen.children if w.id != "dialog-notice" and type(w).__name__ not in (
            "Footer", "KeysFooter", "ToastRack", "NoticeLine", "Tooltip"))
        assert box.region.bottom <= SIZE[1] - 1 and box.region.right <= SIZE[0], (name, box.region)
        for widget in screen.query("Button, Input, TextArea").results():
            if not widget.display or _in_a_scroll(widget, box):
                continue
            assert box.region.contains_region(widget.region), (name, widget, widget.region, box.region)
        for status in screen.query(Static).results():
            if (status.id or "").endswith(("-status", "-result")) and status.display and status.region.height:
                assert box.region.contains_region(status.region), (name, status.id, status.region, box.region)
        for _ in range(escapes):
            await pilot.press("escape")
            await settle(app, pilot)
        assert isinstance(app.screen, MainScreen), f"{name}: {escapes} × escape left {app.screen!r}"


async def test_a_summary_correction_keeps_its_button_in_sight_with_findings(sample_store: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's findings after ctrl+s scroll in their own lines; the way to file stays on screen."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "c")
        await settle(app, pilot)
        screen = app.screen
        screen.query_one(TextArea).text = "目标：修复订单导出超时。约束：谨慎修改生产数据。P95 已通过。"
        screen.query_one("#correct-reason", Input).value = "a drifting text on purpose"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        result = screen.query_one("#correct-result", Static)
        assert "nothing was saved" in str(result.render())
        button = screen.query_one("#correct-go", Button)
        assert screen.query_one("#correct").region.contains_region(button.region)
        assert button.region.bottom <= SIZE[1] - 1
