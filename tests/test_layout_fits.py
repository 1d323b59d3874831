"""What a reviewer reads at 100 and 80 columns is laid out for the width, not broken by it.

- The Raw evidence list at 100 columns once broke a stub's line in the middle of its id, so
  the id, its range and its scope sat on separate lines ("↳" alone, then the id).
- The Budget tab at 80 columns wrapped a long item back to column 0, where its continuation
  read as the next item.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.content import Content

from inspector.ui.app import InspectorApp
from inspector.ui.hanging import HangingLines, fit_row
from inspector.ui.widgets.budget_view import BudgetView
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.test_app import settle

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
MICRO = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"


def screen_lines(app: InspectorApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def widget_lines(widget: object) -> list[str]:
    region = widget.region  # type: ignore[attr-defined]
    return [strip.text for strip in widget.render_lines(region.reset_offset)]  # type: ignore[attr-defined]


@pytest.mark.skipif(not MICRO.exists(), reason="needs the shared real transcripts (../shared/real_sessions)")
async def test_evidence_stub_lines_stay_whole_at_100_columns(imported_copy: Callable[..., Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(imported_copy(MICRO, actor="rev"))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        records = app.screen.query_one(EvidenceChannel).records
        lines = [line.rstrip() for line in widget_lines(records)]
        stub_lines = [line for line in lines if "↳" in line]
        assert stub_lines, lines
        for line in stub_lines:  # the arrow, the (short) id, the range and the scope on one line
            assert "stub:…" in line and "[0, " in line, lines
        assert not any(line.strip() == "↳" for line in lines)
        assert any(line.startswith("res:…") and "KB" in line for line in lines)  # id and size together
        assert all(len(line) <= records.region.width for line in lines)
        cut = [line for line in lines if line.endswith("…")]
        assert cut  # what does not fit says it was cut


async def test_budget_items_continue_under_their_text_at_80_columns(sample_store: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        budget = app.screen.query_one(BudgetView)
        text = budget.query_one("#budget-text")
        width = text.content_region.width
        lines = [line.rstrip() for line in widget_lines(text)]
        assert any("not loaded" in line for line in lines)
        items = [i for i, line in enumerate(lines) if line.startswith("  ") and ":" in line.split()[0]]
        assert items
        for line in lines:
            assert len(line) <= width
        # every line after "not loaded" is a heading, an item ("  ref …") or a continuation indented further
        start = next(i for i, line in enumerate(lines) if line.startswith("not loaded"))
        for line in lines[start + 1:]:
            if line and not line.startswith("tokens:") and not line.startswith("character"):
                assert line.startswith("  "), lines[start:]


def test_a_row_that_does_not_fit_continues_under_its_text() -> None:
    head, body = Content("  state:goal.main@v1 "), Content("pending: not authoritative until confirmed (62 tokens)")
    lines = [line.plain for line in fit_row(head, body, 50)]
    assert lines[0].startswith("  state:goal.main@v1 pending:")
    assert all(line.startswith(" " * len(head.plain)) for line in lines[1:]) and len(lines) > 1
    assert " ".join(" ".join(line.split()) for line in lines) == " ".join((head + body).plain.split())
    long_head = Content("  state:reference.users-soph-work-entire-test-gemi.5bfa90@v1 ")
    lines = [line.plain for line in fit_row(long_head, body, 50)]
    assert all(len(line) <= 50 for line in lines)
    assert all(line.startswith("      ") for line in lines[1:])  # under the head's text, 4 in
    assert HangingLines([(head, body)]).get_height({}, 200) == 1  # type: ignore[arg-type]


async def test_every_field_and_button_of_the_expand_dialog_is_inside_it_at_80_columns(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80×24 the "scopes" field was off the dialog's right edge and "Close" was cut after "C";
    the numbers must show whole too (a bordered 9-column field showed "435" for 43565)."""
    from textual.widgets import Button, Input

    from inspector.ui.expand_dialog import ExpandDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("3", "down", "e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExpandDialog)
        box = app.screen.query_one("#expand").content_region
        for widget in [*app.screen.query(Input), *app.screen.query(Button)]:
            region = widget.region
            assert region.width > 0 and box.contains_region(region), (widget.id, region, box)
        for field in app.screen.query(Input):
            if field.id != "expand-scopes":
                assert field.content_region.width >= len(field.value), (field.id, field.value)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, ExpandDialog)


async def test_a_long_event_dialog_scrolls_from_the_keyboard_and_ends_above_its_button(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80×24 an event's record ran on under the docked OK button (its lines showed through
    it), only the mouse could scroll it, and the main screen's key line showed through with
    keys that do nothing in the dialog ("⏎ Open row  T Conversation")."""
    from textual.containers import VerticalScroll
    from textual.widgets import Button

    from inspector.ui.dialogs import MessageDialog
    from inspector.ui.widgets.keys_footer import KeysFooter

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog)
        body, ok = dialog.query_one("#dialog-body", VerticalScroll), dialog.query_one("#dialog-ok", Button)
        assert body.region.bottom <= ok.region.y, (body.region, ok.region)
        assert body.max_scroll_y > 0  # longer than the dialog: the test needs a long record
        await pilot.press("pagedown")
        await settle(app, pilot)
        assert body.scroll_y > 0
        keys = dialog.query_one(KeysFooter).render().plain
        assert "Close" in keys and "Open row" not in keys
        for size in [(100, 30), (200, 50)]:
            await pilot.resize_terminal(*size)
            await settle(app, pilot)
            assert body.region.bottom <= ok.region.y, (size, body.region, ok.region)
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, MessageDialog)


async def test_the_reason_field_says_what_it_wants_whole_at_80_columns(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The placeholder was cut mid-sentence ("… recorded in the ledger (enter to")."""
    from textual.widgets import Input

    from inspector.ui.review_dialog import ReasonDialog

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("k", "enter")
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        assert isinstance(app.screen, ReasonDialog)
        field = app.screen.query_one("#reason-input", Input)
        assert len(field.placeholder) <= field.content_region.width
        assert "enter confirms" in " ".join(str(s.render()) for s in app.screen.query("Static"))
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, ReasonDialog)


async def test_drift_findings_continue_under_their_sentence_at_80_columns(sample_store: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A finding's sentence wrapped back to column 1, under the codes of the next finding."""
    from textual.widgets import OptionList

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("d")
        await settle(app, pilot)
        findings = app.screen.query_one("#drift-findings", OptionList)
        lines = [line.rstrip() for line in widget_lines(findings)]
        body = [line for line in lines[1:] if line.strip()]
        assert len(body) > 8
        for line in body:  # a code line (2 spaces in) or a sentence line (4 in): nothing at the edge
            assert line.startswith("  "), lines
        assert sum(1 for line in body if line.startswith("    ")) > sum(1 for line in body if not line.startswith("    "))


async def test_survival_facts_continue_under_their_text_and_say_when_cut(sample_store: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns a fact's reason wrapped to the panel's edge ("appears" under the glyphs),
    and a fact's value was cut at 160 characters without saying so."""
    from inspector.ui.widgets.survival_view import _cut

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("u")
        await settle(app, pilot)
        lines = [line.rstrip() for line in widget_lines(app.screen.query_one("#survival-text"))]
        start = next(i for i, line in enumerate(lines) if "contradicted (" in line)
        for line in lines[start:]:
            assert not line or line.startswith(("  ", "✗", "∅", "?", "✓", "·")), lines[start:]
        assert any(line.startswith("      ") and "appears" in line for line in lines), lines
    assert _cut("x" * 200, 160) == "x" * 159 + "…" and _cut("short", 160) == "short"


async def test_candidate_warnings_continue_under_the_candidate_at_80_columns(sample_store: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """cand-warn's second warning code wrapped to column 1, under the glyphs of the list."""
    from inspector.ui.widgets.candidates_list import CandidatesList

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("k")
        await settle(app, pilot)
        lines = [line.rstrip() for line in widget_lines(app.screen.query_one(CandidatesList))]
        rows = [line for line in lines if line.strip()]
        assert any("unsourced_assertion" in line for line in rows)
        for line in rows:
            assert line.lstrip().startswith(("◷", "●", "○")) or line.startswith("   "), rows


async def test_a_long_protected_record_continues_under_its_value(sample_store: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A record's value (a real transcript's goal is a whole prompt) wrapped under its status
    glyph, so the column of ● ◌ ○ a reviewer scans read as text."""
    from inspector.ui.widgets.state_channel import StateChannel

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "down", "down", "space")
        await settle(app, pilot)
        lines = [line.rstrip() for line in widget_lines(app.screen.query_one(StateChannel).records)]
        marked = next(i for i, line in enumerate(lines) if line.startswith("✔"))
        assert lines[marked + 1].startswith("  ") and "marked" in lines[marked + 1], lines
        for line in lines:  # a kind heading, a record (glyph first) or a continuation
            assert not line or line[0] in "●◌○✔ " or line.isupper() or line.replace(" ", "").isupper(), lines


def test_a_timeline_row_without_text_says_so() -> None:
    """An assistant turn of only tool calls (Inspect AI, OpenAI) was a blank row, as if unloaded."""
    from inspector.services.timeline import TimelineRow
    from inspector.ui.widgets.timeline_view import format_row

    row = TimelineRow(("", 0, 2), "event", 2, "", "assistant_message", "")
    assert format_row(row).plain.rstrip().endswith("(no text)")
    thinking = TimelineRow(("", 0, 5), "event", 5, "", "assistant_message", "", marks=("reasoning",))
    assert "(no text)" not in format_row(thinking).plain


async def test_every_tab_label_shows_whole_at_100_columns(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With its counts as words ("Candidates (8 pending) … Survival (3 lost)") the strip cut
    "Budget" to "Budge" at 100 columns; the counts now carry the header's glyphs."""
    from textual.widgets import Tab, Tabs

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await settle(app, pilot)
        strip = app.screen.query_one(Tabs)
        labels = [str(t.label) for t in strip.query(Tab)]
        assert "Candidates ◷8" in labels and "Drift ⚠4" in labels and "Survival ✗2" in labels, labels
        for tab in strip.query(Tab):
            assert tab.region.width > 0 and tab.region.right <= strip.region.right, (str(tab.label), tab.region)


def test_short_refs_keep_what_tells_them_apart() -> None:
    from inspector.domain.short_ids import short_ref

    assert short_ref("res:toolu_01Qs6kw2AocEWY1FYDY5CjCg") == "res:…Y5CjCg"  # an opaque id: its tail
    assert short_ref("stub:toolu_01Qs6kw2AocEWY1FYDY5CjCg") == "stub:…Y5CjCg"
    assert short_ref("res:mig-0042") == "res:mig-0042" and short_ref("stub-7") == "stub-7"  # names: whole
    cut = short_ref("original:9c53780d06b7-0__write_file_shell_thoughts.json")  # a file: start and suffix
    assert cut.startswith("original:9c53780d") and cut.endswith(".json") and "…" in cut


@pytest.mark.skipif(not MICRO.exists(), reason="needs the shared real transcripts (../shared/real_sessions)")
async def test_a_summary_preview_says_it_was_cut(imported_copy: Callable[..., Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """"This session is being continued from a previous conversation that ran " ended there, as
    if that were the whole summary."""
    from inspector.ui.widgets.summary_channel import SummaryChannel

    monkeypatch.setenv("INSPECTOR_REVIEWER", "rev")
    app = InspectorApp(imported_copy(MICRO, actor="rev"))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        records = app.screen.query_one(SummaryChannel).records
        preview = str(records.get_option_at_index(0).prompt).split("\n")[1].strip()
        assert preview.startswith("This session is being continued") and preview.endswith("…")
        assert len(preview) <= 70


async def test_the_zone_chosen_at_a_wide_width_is_the_one_shown_after_narrowing(sample_store: Path) -> None:
    """At wide widths the zone classes change without a restyle (layout.show_zone): narrowing
    the terminal afterwards must still show the zone the focus is in, and only that one."""
    app = InspectorApp(sample_store)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        channels, tabs = screen.query_one("#channels"), screen.query_one("#tabs")
        await pilot.press("t")
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert tabs.display and not channels.display, "t at 160 columns, then 80: the tabs show alone"
        await pilot.resize_terminal(160, 40)
        await settle(app, pilot)
        assert tabs.display and channels.display
        await pilot.press("2")
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        shown = [pane.id for pane in screen.query(".channel") if pane.display]
        assert not tabs.display and channels.display and len(shown) == 1, shown
        assert screen.focused is not None and shown[0] in {a.id for a in screen.focused.ancestors_with_self}
