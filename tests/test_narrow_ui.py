"""The app at 80 and 100 columns, as a reviewer used it on real transcripts.

- At 80 columns the eight tabs of the lower zone were wider than the strip, which scrolls to the
  active tab: "Budget" (or "Timeline") was off screen and a reviewer could not see it existed.
- While the search box had the focus, the key line said nothing of ``escape``, the way out.
- At 100 columns a channel's detail folded ids and hashes at whatever letter the width ended on.
- At 80×24 a toast covered the lower right of the one zone shown, for five seconds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Tab, Tabs

from inspector.ui.app import InspectorApp
from inspector.ui.tab_labels import TAB_FORMS, fit_labels, strip_width
from inspector.ui.whole_ids import CUT_NOTE, TOKEN, fit_ids
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.keys_footer import KeysFooter
from inspector.ui.widgets.notice_line import NoticeLine
from tests.test_app import settle

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
MICRO = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
SEPARATORS = "/:_-.=,"


def _every_tab_inside(app: InspectorApp) -> list[str]:
    strip = app.screen.query_one(Tabs)
    tabs = list(strip.query(Tab))
    assert len(tabs) == len(TAB_FORMS)
    for tab in tabs:
        assert tab.region.width > 0, str(tab.label)
        assert strip.region.x <= tab.region.x and tab.region.right <= strip.region.right, (str(tab.label), tab.region)
    return [str(tab.label) for tab in tabs]


def test_the_labels_take_the_longest_form_that_fits() -> None:
    counts = {"tab-candidates": "◷8", "tab-drift": "⚠4", "tab-survival": "✗3", "tab-actions": "?12"}
    form, labels = fit_labels(counts, 120)
    assert form == 0 and labels["tab-candidates"] == "Candidates ◷8" and labels["tab-budget"] == "Budget"
    form, labels = fit_labels(counts, 80)
    assert form == 1 and labels["tab-candidates"] == "Cand. ◷8" and strip_width(labels) <= 80
    form, labels = fit_labels(counts, 50)
    assert form == 2 and labels["tab-candidates"] == "k◷8" and labels["tab-timeline"] == "t"
    big = {"tab-candidates": "◷120", "tab-drift": "⚠45", "tab-survival": "✗230", "tab-actions": "?17"}
    assert strip_width(fit_labels(big, 80)[1]) <= 80  # three-digit counts still fit at 80 columns


@pytest.mark.parametrize("key", ["t", "b"])
async def test_every_tab_is_in_sight_at_80_columns(sample_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                   key: str) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press(key)  # the first tab, then the last: the strip does not scroll either away
        await settle(app, pilot)
        labels = _every_tab_inside(app)
        assert "Cand. ◷8" in labels and "Budget" in labels and "Timeline" in labels, labels


async def test_the_labels_follow_resizes_and_the_sessions_list(sample_store: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(app, pilot)
        assert "Candidates ◷8" in _every_tab_inside(app)
        await pilot.resize_terminal(80, 24)  # narrowed while a channel shows (the strip hidden)
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        assert "Cand. ◷8" in _every_tab_inside(app)
        await pilot.resize_terminal(100, 30)
        await settle(app, pilot)
        assert "Candidates ◷8" in _every_tab_inside(app)
        await pilot.press("s")  # the sessions list takes 28 columns beside the strip
        await settle(app, pilot)
        assert "Cand. ◷8" in _every_tab_inside(app)


async def test_the_search_box_key_line_says_how_to_leave(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash")
        await settle(app, pilot)
        line = app.screen.query_one(KeysFooter).render().plain
        assert "esc Leave search" in line and "↓ Results" in line, line
        await pilot.press("e", "x", "escape")
        await settle(app, pilot)
        assert app.screen.focused is app.screen.query_one(EvidenceChannel).records
        await pilot.press("slash", "down")
        await settle(app, pilot)
        assert app.screen.focused is app.screen.query_one(EvidenceChannel).records


def _pieces_allowed(original: str, line: str) -> None:
    """Every id-like word of a drawn line is a whole word of the text, a piece folded after a
    separator, the rest after one, or a digest cut around "…" — never split at a letter."""
    words = set(TOKEN.findall(original))
    for word in re.findall(r"[!-~…]+", line):
        if word in words or "…" in word or word in CUT_NOTE:
            continue
        assert any((word[-1] in SEPARATORS and w.startswith(word)) or w.endswith(word) and
                   w[len(w) - len(word) - 1] in SEPARATORS or (word[-1] in SEPARATORS and word in w)
                   or (word in w and w.find(word) > 0 and w[w.find(word) - 1] in SEPARATORS)
                   for w in words if len(w) > len(word)), (word, line)


def test_a_long_id_folds_after_its_separators_and_a_digest_keeps_both_ends() -> None:
    text = Content("hash sha256:2219f6660b51937bf5bbc571c894726e87c1f4e334b2e18f96d8da115f78b518\n"
                   "res:toolu_01Qs6kw2AocEWY1FYDY5CjCg → evt:12\n"
                   "path /home/user/projects/context-inspector/inspector/ui/whole_ids.py\n"
                   "目标：修复订单导出超时。流式导出已上线，P95 已通过。")
    fitted, cut = fit_ids(text, 30)
    lines = [line.plain for line in fitted.wrap(30)]
    assert cut and fitted.plain.endswith(CUT_NOTE)
    assert "2219f6660b51937…d8da115f78b518" in lines  # start and end of the digest, whole width
    assert "res:toolu_" in lines and "01Qs6kw2AocEWY1FYDY5CjCg →" in lines
    assert all(len(line) <= 30 for line in lines)
    for line in lines:
        _pieces_allowed(text.plain, line)
    assert "目标：修复订单导出超时" in fitted.plain  # prose in other scripts is left to wrap as before
    short, cut = fit_ids(Content("res:run-184 · sha256:ab12"), 30)
    assert not cut and short.plain == "res:run-184 · sha256:ab12"


@pytest.mark.skipif(not MICRO.exists(), reason="needs the shared real transcripts (../shared/real_sessions)")
async def test_evidence_detail_keeps_ids_whole_at_100_columns(imported_copy: Callable[..., Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.dialogs import WholeDetailDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(imported_copy(MICRO, actor="rev"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        detail = evidence.query_one(".detail-text")
        seen_cut = False
        for index in range(min(evidence.records.option_count, 6)):
            evidence.records.highlighted = index
            await settle(app, pilot)
            original = evidence.detail_content.plain
            width = detail.content_region.width
            lines = [strip.text.rstrip() for strip in detail.render_lines(detail.region.reset_offset)]
            for line in lines:
                assert len(line.strip()) <= width
                _pieces_allowed(original, line)
            seen_cut = seen_cut or any(CUT_NOTE[:10] in line for line in lines)
        assert seen_cut  # a material's sha256 does not fit 30 columns: cut, and it says how to see it whole
        await pilot.press("i")
        await settle(app, pilot)
        assert isinstance(app.screen, WholeDetailDialog)
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        digest = next(w for w in TOKEN.findall(app.screen.body.plain) if w.startswith("sha256:"))  # type: ignore[union-attr]
        assert digest in shown  # on one line, whole
        await pilot.press("escape")


async def test_a_notice_at_80_columns_covers_nothing(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(app, pilot)
        app.notify("Timeline: only failed results, with their calls.", severity="warning")
        await settle(app, pilot)
        line = app.screen.query_one(NoticeLine)
        assert line.display and "only failed results" in str(line.render())
        await pilot.pause(0.1)
        assert not app.screen.query("Toast")  # no toast over the zone
        zone = app.screen.query_one("#state")
        assert zone.region.bottom <= line.region.y  # the zone gave up the rows: nothing covered
        line.clear()
        await settle(app, pilot)
        assert not line.display and zone.region.bottom == app.screen.query_one(KeysFooter).region.y


async def test_a_notice_at_200_columns_is_a_toast(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(200, 50), notifications=True) as pilot:
        await settle(app, pilot)
        app.notify("reloaded.")
        await settle(app, pilot)
        assert not app.screen.query_one(NoticeLine).display
        await pilot.pause(0.1)
        assert any("reloaded." in str(toast.render()) for toast in app.screen.query("Toast"))  # a toast, as before


@pytest.mark.parametrize("zone", ["1", "t"])
async def test_the_sessions_list_at_80_columns_keeps_the_zone_beside_it(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       zone: str) -> None:
    """``s`` at 80 columns showed the list and nothing beside it: focus in the list took every
    channel's ``-current`` away, so the 52 columns to its right were blank."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press(zone, "s")
        await settle(app, pilot)
        assert app.screen.focused is app.screen.query_one("#sessions")
        shown = app.screen.query_one("#state" if zone == "1" else "#tabs")
        assert shown.region.width > 40 and shown.region.height > 10, shown.region
        if zone == "t":
            _every_tab_inside(app)  # beside the list the strip has 52 columns


async def test_the_keys_panel_beside_the_tabs_keeps_every_tab_in_sight(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``?`` docks the keys panel at the right: the strip lost 30 columns without a terminal
    resize, and "Timeline  Cand." scrolled off its left end."""
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("o", "question_mark")
        await settle(app, pilot)
        await pilot.pause(0.1)
        assert app.screen.query("HelpPanel")
        labels = _every_tab_inside(app)
        assert labels[0] == "t" and labels[1] == "k◷8", labels  # the keys' form: all eight fit 50 columns
        await pilot.press("question_mark")
        await settle(app, pilot)
        await pilot.pause(0.1)
        assert "Cand. ◷8" in _every_tab_inside(app)
