"""The Drift tab's field timeline at 80 columns: one line per key, never wrapped.

At 80×24 the pane is about 30 columns wide; each cell carried three spaces after it, so with four
generations every row wrapped ("g4" and each last ✓ on a line of their own, at column 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.drift import FieldTimeline
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.drift_view import timeline_content
from tests.test_app import settle


def test_rows_have_no_trailing_padding_and_line_up() -> None:
    t = FieldTimeline(keys=["goal.main", "constraint.prod"], generations=[1, 2, 3, 12],
                      cells={"goal.main": {1: "kept", 2: "kept", 3: "missing", 12: "kept"},
                             "constraint.prod": {1: "kept", 2: "rewritten", 3: "missing", 12: "kept"}})
    lines = timeline_content(t).plain.split("\n")
    assert all(line == line.rstrip() for line in lines)
    head, *rows = lines[2:]
    assert head.split() == ["g1", "g2", "g3", "g12"]
    for row, key in zip(rows, t.keys, strict=True):  # each glyph under its column, then the key
        assert [row[head.index(f"g{g}")] for g in t.generations] == [
            {"kept": "✓", "rewritten": "≠", "missing": "∅"}[t.cells[key][g]] for g in t.generations], lines
        assert row.endswith(f"  {key}"), lines


def test_with_no_confirmed_record_the_pane_says_why_pending_ones_are_not_followed() -> None:
    """An imported transcript's records are all pending: "no keys" beside a column of ◌ records
    read as "nothing to check"; the pane names what it follows and where pending ones go."""
    text = " ".join(timeline_content(FieldTimeline(keys=[], generations=[1], cells={})).plain.split())
    assert "pending records (◌) join once confirmed" in text
    assert "Survival" in text
    assert max(len(line) for line in timeline_content(FieldTimeline(keys=[], generations=[1], cells={})).plain.split("\n")) <= 28


async def test_the_timeline_pane_at_80x24_holds_one_line_per_key(sample_store: Path) -> None:
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        text = app.screen.query_one("#drift-timeline-text")
        lines = str(text.render()).split("\n")
        assert text.size.height == len(lines), (text.size, lines)
        pane = app.screen.query_one("#drift-timeline")
        widest_row = max(len(line) for line in lines[2:])
        assert widest_row <= pane.content_region.width, (widest_row, pane.content_region)


@pytest.mark.parametrize("width", range(40, 50))
def test_a_finding_that_quotes_paths_folds_them_after_their_separators(width: int) -> None:
    """“cmd/…/hooks_test.go”, came out as "…hooks_test" / "." / "go”," and "…testenv.g" / "o”" at 80
    columns: the quotes around a path were not counted as part of it, so a path that just fitted was
    folded again at whatever letter the width ended on."""
    from textual.content import Content

    from inspector.ui.hanging import fit_row

    paths = ["cmd/entire/cli/agent/geminicli/hooks_test.go", "cmd/entire/cli/integration_test/testenv.go"]
    message = "generation 1 names " + ", ".join(f"“{p}”" for p in paths) + " and 11 more the log never shows"
    lines = [line.plain[4:] for line in fit_row(Content("    "), Content(message), width)]
    assert all(len(line.strip()) > 1 for line in lines), lines
    joined = "".join(lines)
    for path in paths:
        assert path in joined, (path, lines)
    for line in lines:  # each piece of a folded path ends at one of its separators (or ends the path)
        last = line.rstrip().split(" ")[-1]
        if any(last.strip("“”,") and last.strip("“”,") in p and not p.endswith(last.strip("“”,")) for p in paths):
            assert last[-1] in "/:_-.=,", (last, lines)
