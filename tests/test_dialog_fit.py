"""A message dialog keeps its OK button on screen whatever the length of its body.

With a body taller than the terminal (an event's record at 80x24), the button used to be laid out below the
dialog's bottom edge: the reviewer saw the record and no button — only ``escape`` got out, and nothing said so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import App

from inspector.ui.app import InspectorApp
from inspector.ui.dialogs import MessageDialog

UI = Path(__file__).parent.parent / "inspector" / "ui"


class _OneDialog(App[None]):
    CSS_PATH = [str(UI / name) for name in InspectorApp.CSS_PATH]

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.lines = lines

    def on_mount(self) -> None:
        self.push_screen(MessageDialog("Event #1 · user_message", "\n".join(f"line {i}" for i in range(self.lines))))


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (200, 50)])
@pytest.mark.parametrize("lines", [2, 60])
async def test_ok_button_inside_the_dialog(size: tuple[int, int], lines: int) -> None:
    app = _OneDialog(lines)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        button = app.screen.query_one("#dialog-ok")
        dialog = app.screen.query_one("#dialog")
        assert dialog.content_region.contains_region(button.region), (button.region, dialog.region)
        assert dialog.region.bottom <= size[1]
