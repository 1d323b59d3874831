"""The header at 80 columns: what needs attention stays on screen, nothing wraps away."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar, _middle_cut
from tests.test_app import settle


async def test_at_80_columns_the_header_shows_drift_and_loss_first(sample_store: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(HeaderBar)
        lines = [strip.text.strip() for strip in header.render_lines(header.region.reset_offset)]
        # the badges wrap rather than lose one to "…" (flow-seven); check's "✗ 2 facts lost" (check-verdicts)
        # made them three lines at 80 columns; with survival's kept / lost / not restated / not judged
        # (flow-ten, survival-words) the badges take their short forms, each widened back while its line
        # fits, and survival's count, the longest, comes last on a line of its own
        assert len(lines) == 4
        assert "s-export" in lines[0]  # where you are, cut with "…" if it must be
        assert lines[1].startswith("⚠ drift 4  ✗ 2 facts lost")  # the verdicts first: visible at any width
        assert "◷ 8 pending cand" in lines[1] + lines[2] and lines[2].endswith("as lin")  # wrapped whole
        assert lines[3] == "∴ gen 3 1/5 kept, 2 lost, 1 not restated, 1 not judged · 1 not counted"


def test_a_long_store_name_keeps_its_start_and_its_digest() -> None:
    name = "7662d755ef9f-2__compact_and_microcompact_v2.1.14-7fbd15c82dbc.db"
    cut = _middle_cut(name, 32)
    assert len(cut) == 32 and cut.startswith("7662d755ef9f") and cut.endswith("7fbd15c82dbc.db") and "…" in cut
    assert _middle_cut("demo.db", 32) == "demo.db"
