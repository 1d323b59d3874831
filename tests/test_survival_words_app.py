"""The app's side of survival-words: "? N warnings" opens the tab that lists them, and the Survival
tab's rows fit at 80 columns (lead-16-17 items 1 and 6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static, TabbedContent

from inspector.services.overview import session_badges
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from tests.test_app import settle
from tests.test_flow_ten import _click_badge
from tests.test_snapshots import REAL


async def test_the_question_mark_opens_survival_when_its_warnings_are_survivals(sample_store: Path) -> None:
    """The demo's "? 2 warnings" are survival's (the evidence reference not restated, the decision
    not judged): a click opened Drift, whose findings are drift's."""
    async with await open_store(sample_store) as opened:
        # survival's first, then the rule no call can show (the Actions tab lists it): the first place opens
        assert (await session_badges(opened, "s-export")).not_judged_in == ("survival", "rules")
    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await _click_badge(app, pilot, "3 warnings")
        assert app.screen.query_one("#tabs", TabbedContent).active == "tab-survival"


async def test_the_question_mark_opens_drift_first_when_drift_holds_some(imported_copy: Any) -> None:
    """A real transcript: two warnings are drift's (names it cannot verify; "All integration tests pass"
    with no test run in the range: verdict-real-five), one survival's: the first place that lists them,
    Drift (a guard: main opened Drift for every "?")."""
    if not REAL.exists():
        pytest.skip(f"{REAL} is missing")
    store = imported_copy(REAL)
    async with await open_store(store) as opened:
        (session,) = [r[0] for r in await opened.db.execute_fetchall("SELECT id FROM sessions")]
        assert (await session_badges(opened, session)).not_judged_in == ("drift", "survival")
    app = InspectorApp(store, session=session, reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await _click_badge(app, pilot, "3 warnings")
        assert app.screen.query_one("#tabs", TabbedContent).active == "tab-drift"


async def test_the_survival_tabs_rows_fit_at_80_columns_and_the_detail_says_them_whole(sample_store: Path) -> None:
    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("u")
        await settle(app, pilot)
        rows = app.screen.query_one("#survival-generations", OptionList)
        drawn = [strip.text.rstrip() for strip in rows.render_lines(rows.region.reset_offset)]
        said = [line for line in drawn if line.strip()]
        # three generations, two lines each: a count that wrapped put "not restated, 1 not judged" at the
        # list's left edge, under the glyphs of the next row
        assert [line.split()[:2] for line in said[::2]][:3] == [["gen", "3"], ["gen", "2"], ["gen", "1"]], said
        assert said[1].startswith("   1/5 kept, 2 lost") and said[1].endswith("…"), said
        assert len(said) == 6, said
        detail = str(app.screen.query_one("#survival-text", Static).render())
        assert "gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged" in " ".join(detail.split())


async def test_a_survival_count_wider_than_the_line_takes_its_tightest_form_not_a_cut(sample_store: Path) -> None:
    """Every part at once is wider than 80 columns: cut with "…", "· 14 not counted" read "· 1…".
    The narrowest form keeps kept and lost (check's ✗) and sums the other parts, so it adds up."""
    from dataclasses import replace

    from inspector.domain.survival import Fact, Verdict
    from inspector.domain.survival_report import Survival
    from inspector.ui.widgets.header_bar import HeaderBar

    def v(kind: str, verdict: str, status: str = "active") -> Verdict:
        return Verdict(Fact(f"k{id(kind)}", kind, "x", status, ("evt:1",)), verdict, None, "why")

    counts = [("goal", "kept", "active")] * 10 + [("goal", "missing", "active")] * 10 + [
        ("evidence_ref", "missing", "active")] * 3 + [("goal", "missing", "pending")] * 2 + [("goal", "unknown", "active")] * 6
    many = Survival(12, (1, 90), [v(*c) for c in counts], after=[Fact("late", "goal", "y", "active", ("evt:99",))] * 14)
    assert many.tight_headline() == "gen 12 10/31 kept, 10 lost, 11 other"
    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(HeaderBar)
        assert header.badges is not None and header.session is not None
        header.show(header.session, replace(header.badges, survival=many.headline(), survival_short=many.short_headline(),
                                            survival_tight=many.tight_headline()))
        await pilot.pause()
        drawn = [strip.text.rstrip() for strip in header.render_lines(header.region.reset_offset)]
    assert len("∴ " + many.short_headline()) > 78  # it does not fit: the case itself
    assert not any("…" in line for line in drawn[1:]), drawn
    assert drawn[-1].strip() == "∴ gen 12 10/31 kept, 10 lost, 11 other", drawn
