"""The expand dialog uses the screen: at 80×24 it showed two lines of the bytes it read.

At 90%×85% of the screen, with a thick frame, margins and three-line buttons, the scrolled
result kept two lines at 80×24. On a short or narrow terminal the dialog now takes the whole
screen and its buttons take one line, so the expanded text has most of the rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Button, Input

from inspector.ui.app import InspectorApp
from inspector.ui.expand_dialog import ExpandDialog
from tests.test_app import settle
from tests.test_expand_dialog import _open_on_stub


@pytest.mark.parametrize(("size", "rows"), [((80, 24), 12), ((120, 35), 16)])
async def test_the_expanded_bytes_get_most_of_the_rows(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                       size: tuple[int, int], rows: int) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-bigfold")
    async with app.run_test(size=size) as pilot:
        await _open_on_stub(app, pilot, "stub-mid")
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        await pilot.press("enter")
        await settle(app, pilot)
        result = dialog.query_one("#expand-result").content_region
        assert result.height >= rows, result
        box = dialog.query_one("#expand").region
        for widget in [*dialog.query(Input), *dialog.query(Button)]:  # every control still inside, whole
            assert widget.region.height >= 1 and box.contains_region(widget.region), (widget.id, widget.region)
