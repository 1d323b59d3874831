"""The Drift tab's field timeline built row by row: the same content as cell by cell, in linear time.

A 1,000-generation store took ~2 minutes to open its Drift tab: each row was grown a cell at a
time (``row += markup(…)``), and every addition copied the row so far — 84 keys × 1,000 cells,
quadratic per row."""

from __future__ import annotations

import time

from textual.content import Content

from inspector.domain.drift import FieldTimeline
from inspector.ui.safe import markup, plain
from inspector.ui.widgets.drift_view import CELL, timeline_content


def _per_cell(t: FieldTimeline) -> Content:
    """The rows as they were built before, one cell at a time (the reference for the text and spans):
    the marks first, then the key (newuser-18: a long key pushed the marks out of the pane)."""
    cell = max((len(f"g{g}") for g in t.generations), default=2) + 1
    head = Content("".join(f"g{g}".ljust(cell) for g in t.generations).rstrip())
    rows = [markup("[b]field timeline[/b]"), markup("✓ kept ≠ rewritten ∅ missing"), head]
    for key in t.keys:
        row = Content("")
        for g in t.generations:
            glyph, colour = CELL[t.cells[key][g]]
            row += markup(f"[{colour}]$g[/]", g=glyph)
            row += Content(" " * (cell - 1))
        rows.append(row + plain(key))
    return Content("\n").join(rows)


def _timeline(keys: list[str], generations: int) -> FieldTimeline:
    states = ("kept", "rewritten", "missing")
    return FieldTimeline(keys, list(range(1, generations + 1)),
                         {k: {g: states[(i + g) % 3] if (i + g) % 7 else "missing" for g in range(1, generations + 1)}
                          for i, k in enumerate(keys)})


def test_rows_hold_the_same_text_and_colours_as_cell_by_cell() -> None:
    # a key with a control character is shown escaped: the cells' offsets follow the escaped label
    for t in (_timeline(["goal.main", "k\x1b[31m", "约束.生产"], 12), _timeline(["k1"], 1), _timeline(["k1", "k2"], 0)):
        got, want = timeline_content(t), _per_cell(t)
        assert got.plain == want.plain
        assert list(got.spans) == list(want.spans)


def test_a_thousand_generations_build_in_linear_time() -> None:
    t = _timeline([f"constraint.k{k}" for k in range(84)], 1000)
    cpu = time.process_time()
    content = timeline_content(t)
    spent = time.process_time() - cpu
    assert len(content.spans) >= 84 * 1000
    assert spent < 5.0, f"{spent:.1f} s CPU for 84 × 1,000 cells (cell by cell took ~120 s)"


def test_a_finding_is_fitted_once_per_width_when_the_list_lays_out_at_two(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The findings list lays its options out with and without its scroll bar in turn (77 and 75
    columns at 160×45): keeping one width re-fitted all 1,300 findings of a 1,000-generation
    Drift tab at each switch."""
    import inspector.ui.hanging as hanging

    fits: list[int] = []
    real = hanging.fit_row

    def counting(head, body, width):  # type: ignore[no-untyped-def]
        fits.append(width)
        return real(head, body, width)

    monkeypatch.setattr(hanging, "fit_row", counting)
    lines = hanging.HangingLines([(Content("  "), Content("protected_missing k1")),
                                  (Content("    "), Content("the constraint is not in generation 3's text " * 3))])
    heights = [lines.get_height({}, w) for w in (77, 75, 77, 75, 77)]  # type: ignore[arg-type]
    assert heights[0] == heights[2] == heights[4]
    assert sorted(set(fits)) == [75, 77] and len(fits) == 4  # two rows, each fitted once per width
