"""The header's badges are never cut (flow-seven, item 2).

At 80 columns the demo's badge line was one line cut with "…": the survival count's "· 1
untrusted not counted" pushed "◷ 8 pending candidates" off it; at 120 columns a real
transcript's line lost the reviewer's name ("as flow-se…"). Now the badges take their short
forms and wrap between badges onto a second line rather than being cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.content import Content

from inspector.ui.app import InspectorApp
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.header_bar import HeaderBar, fit_badges
from tests.test_app import settle
from tests.test_snapshots import REAL, real_store  # noqa: F401 - the fixture


def _lines(header: HeaderBar) -> list[Content]:
    return header._content().split("\n")


async def _header(app: InspectorApp, pilot: object) -> HeaderBar:
    await settle(app, pilot)  # type: ignore[arg-type]
    assert isinstance(app.screen, MainScreen)
    return app.screen.query_one(HeaderBar)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 35), (200, 50)])
async def test_every_badge_of_the_demo_session_is_on_screen_whole(sample_store: Path, size: tuple[int, int],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "tester")
    app = InspectorApp(sample_store, session="s-export")
    async with app.run_test(size=size) as pilot:
        header = await _header(app, pilot)
        width = header.content_size.width
        badges = _lines(header)[1:]
        assert all(line.cell_length <= width for line in badges), [line.plain for line in badges]
        said = " ".join(line.plain for line in badges)
        assert "⚠ 1 result with no call" in said or "⚠ 1 orphan result" in said, said  # words, not the code
        for seen in ("⚠ drift", "∴ gen 3", "◷ 8 pending cand", "◌ 1 pending rec", "ctx v",
                     "as tester"):
            assert seen in said, said
        assert header.size.height == 1 + len(badges)  # every line shown: none cut off by the height
        drawn = [strip.text for strip in header.render_lines(header.region.reset_offset)]
        assert len(drawn) == 1 + len(badges) and not any("…" in line for line in drawn[1:]), drawn
        # survival's longer count ("2 lost, 1 not restated") laid out last: 120 columns keep two badge
        # lines, 200 one (in the middle it flipped 120 to three lines of full forms) — survival-words
        assert "2 lost, 1 not restated" in said, said
        assert len(badges) <= {80: 3, 100: 3, 120: 2, 200: 1}[size[0]], [line.plain for line in badges]


async def test_a_real_transcript_keeps_the_reviewers_name_at_120_columns(
        real_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    monkeypatch.setenv("INSPECTOR_REVIEWER", "flow-seven")
    app = InspectorApp(real_store)
    async with app.run_test(size=(120, 35)) as pilot:
        header = await _header(app, pilot)
        badges = _lines(header)[1:]
        assert len(badges) == 1 and badges[0].cell_length <= header.content_size.width
        # the survival count comes last (survival-words: the longest badge, a line of its own when it must be)
        assert "as flow-seven  ∴ gen 1 " in badges[0].plain and " pending rec" in badges[0].plain
        assert badges[0].plain.endswith("3 not judged · 1 not counted"), badges[0].plain


def test_full_forms_are_kept_when_they_fit_and_a_badge_is_never_split() -> None:
    badges = [(Content("◷ 8 pending candidates"), Content("◷ 8 pending cand.")),
              (Content("◌ 1 pending record"), Content("◌ 1 pending rec.")),
              (Content("as lin"), Content("as lin"))]
    assert [c.plain for c in fit_badges(badges, 200)] == ["◷ 8 pending candidates   ◌ 1 pending record   as lin"]
    narrow = [c.plain for c in fit_badges(badges, 30)]
    assert narrow == ["◷ 8 pending candidates", "◌ 1 pending record   as lin"]
    assert all(len(line) <= 30 for line in narrow)
