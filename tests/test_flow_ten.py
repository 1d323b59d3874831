"""What a reviewer reads must add up (flow-ten).

"gen 1 keeps 3 of 6 facts" with the other three ``unknown`` read as three lost: the survival
count says kept, lost (missing or contradicted) and not judged apart, in the header, the
Survival tab, the report and the ``survival`` command.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import TabbedContent

from inspector.cli.main import cli
from inspector.domain.survival import Fact, survival
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle


def test_a_count_with_unknown_facts_does_not_read_as_facts_lost() -> None:
    facts = [Fact("g1", "goal", "ship the export fix", "active", ("evt:1",), "user"),
             Fact("c1", "constraint", "never touch the production database", "active", ("evt:2",), "user")]
    out = survival(1, "We ship the export fix.", [], (1, 4), facts)
    t = out.tally()
    assert sum(t) == 2 and t.kept == 1 and not t.not_restated and not t.pending_lost
    assert out.headline() == f"gen 1: 1 of 2 facts kept, {t.lost} lost, {t.not_judged} not judged"
    assert out.short_headline().startswith("gen 1 1/2 kept, ")


def test_the_survival_command_and_header_say_kept_lost_and_not_judged(sample_store: Path) -> None:
    plain = CliRunner().invoke(cli, ["survival", str(sample_store), "--session", "s-export"])
    assert plain.output.startswith("s-export gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged"), plain.output


def test_the_reports_check_section_says_which_warnings_the_headers_question_mark_counts(
        sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = CliRunner().invoke(cli, ["report", str(sample_store), "--session", "s-export", "-o", str(out)])
    assert done.exit_code == 0, done.output
    page = out.read_text(encoding="utf-8")
    assert "? 3 warnings: not judged in full" in page  # the header's "?": the warnings that make it "?"
    # the Check section counts every warning (4): it says how many of them are the header's three (survival's
    # two, and the rule no call can show: action_rule_not_read)
    assert ("with 4 warnings: 3 leave it not judged in full (the header&#x27;s &quot;?&quot;), 1 does not"
            in page), page[page.index('id="check"'):][:600]
    assert "gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged" in page


async def _click_badge(app: InspectorApp, pilot: Pilot, words: str) -> None:
    """Click the middle of the header's badge that says ``words`` (as a user's mouse would)."""
    header = app.screen.query_one(HeaderBar)
    lines = [strip.text for strip in header.render_lines(header.region.reset_offset)]
    row = next(i for i, line in enumerate(lines) if words in line)
    column = lines[row].index(words) + len(words) // 2
    await pilot.click(HeaderBar, offset=(header.styles.padding.left + column, header.styles.padding.top + row))
    await settle(app, pilot)


@pytest.mark.parametrize("size", [(120, 35), (80, 24)])
async def test_a_click_on_a_header_badge_opens_what_it_counts(sample_store: Path, size: tuple[int, int]) -> None:
    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        tabs = app.screen.query_one("#tabs", TabbedContent)
        assert tabs.active == "tab-timeline"
        # "? 3 warnings": survival's two first (facts_not_restated, facts_unknown): the Survival tab lists them
        for words, pane in (("drift 4", "tab-drift"), ("kept, 2 lost", "tab-survival"), ("8 pending cand", "tab-candidates"),
                            ("3 warnings", "tab-survival"), ("✗ 2", "tab-survival"), ("orphan result", "tab-timeline")):
            await _click_badge(app, pilot, words)
            assert tabs.active == pane, words
        await _click_badge(app, pilot, "1 pending rec")  # protected state: the channel, not a tab
        assert app.focused is not None and app.focused.parent is not None
        assert any(node.id == "state" for node in app.focused.ancestors_with_self), app.focused


def test_a_deletion_with_names_and_ledger_entries_kept_gives_one_instruction(tmp_path: Path) -> None:
    from tests.conftest import write_sif
    sid, at, mail = "s-kept", "2025-05-01T00:00:00Z", "zq.hidden.person@example.org"
    records = [{"type": "session", "id": sid, "title": "t", "owner": "o", "created_at": at},
               {"type": "event", "session": sid, "seq": 1, "kind": "user_message", "trust": "user", "at": at,
                "content": f"mail {mail}"},
               {"type": "event", "session": sid, "seq": 2, "kind": "tool_call", "trust": "model", "at": at,
                "call_id": "c9", "tool": "send_zq.hidden.person@example.org", "args": {}},
               {"type": "ledger", "session": sid, "kind": "harness.note", "actor": "bot", "at": at,
                "payload": {"note": "zq.hidden.person=40example.org"}},
               {"type": "deletion_request", "session": sid, "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "mine"}]
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                               str(store)]).exit_code == 0
    text = runner.invoke(cli, ["deletion", str(store), "del-1"]).stdout
    block = text[text.index("✕"):]
    assert "tool name" in block and "ledger entry" in block, block  # both kinds kept
    # one instruction for both (it was two "to remove it:" lines, "rename it" and "remove the value")
    assert block.count("to remove") == 1, block
    assert ("rename each name that holds it everywhere in FILE and remove the value from the ledger entries "
            "in FILE") in block, block
    refused = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r"])
    assert refused.exit_code == 1 and "Or, for the ledger entries" not in refused.output, refused.output


@pytest.mark.parametrize("args", [["deletion", "{store}", "{id}"], ["accept", "{store}", "{id}", "--reviewer", "r"],
                                  ["correct", "{store}", "--session", "s-export", "--key", "{id}", "--value", "v",
                                   "--reason", "r", "--reviewer", "r"],
                                  ["drift", "{store}", "--session", "{id}"]])
def test_a_hostile_id_in_an_error_is_shown_one_inert_way(sample_store: Path, args: list[str]) -> None:
    hostile = "zz\x1b]52;c;AAAA\x07x\u202e"
    done = CliRunner().invoke(cli, [a.format(store=sample_store, id=hostile) for a in args])
    said = done.output
    assert done.exit_code == 3 and "'zz␛]52;c;AAAA␇x⟨U+202E⟩'" in said, said
    assert "\\x1b" not in said and "\\u202e" not in said and "\x1b" not in said, said  # not Python's repr beside it


@pytest.mark.parametrize("args", [
    ["correct", "{store}", "--session", "s-export", "--key", "goal.main", "--value", "v", "--reason", "{why}"],
    ["reject", "{store}", "cand-goal", "--reason", "{why}"],
    ["reconcile", "{store}", "a12", "--status", "failed", "--evidence", "evt:3", "--reason", "{why}"],
    ["request-deletion", "{store}", "--session", "s-privacy", "evt:1", "--reason", "{why}"],
    ["confirm", "{store}", "--session", "s-export", "--all-pending", "--reject", "--reason", "{why}"]])
def test_a_reason_with_escape_or_bidi_characters_is_refused_as_a_name_is(sample_store: Path, args: list[str]) -> None:
    """A reason is kept in the ledger for good, as a reviewer's name: one holding an escape or a
    bidi override is refused (reason_invalid, exit 3), nothing written — it was stored."""
    before = {p.name: p.read_bytes() for p in sample_store.parent.glob(sample_store.name + "*")}
    for why in ("ok\x1b]0;PWNED\x07", "fine\u202eenif", "zero\u200bwidth"):
        done = CliRunner().invoke(cli, [*(a.format(store=sample_store, why=why) for a in args), "--reviewer", "lin",
                                        "--json"])
        assert done.exit_code == 3, done.output
        assert '"reason_invalid"' in done.output and "nothing was written" in done.output, done.output
    assert {p.name: p.read_bytes() for p in sample_store.parent.glob(sample_store.name + "*")} == before


def test_a_reason_of_several_lines_or_with_a_joiner_is_still_taken(sample_store: Path) -> None:
    done = CliRunner().invoke(cli, ["correct", str(sample_store), "--session", "s-export", "--key", "goal.main",
                                    "--value", "v", "--reason", "first line\nsecond: می\u200cخواهم", "--reviewer", "lin"])
    assert done.exit_code == 0, done.output


async def test_the_apps_correction_dialog_refuses_a_reason_with_a_bidi_override(sample_store: Path) -> None:
    from textual.widgets import Input

    from inspector.ui.dialogs import MessageDialog

    app = InspectorApp(sample_store, session="s-export", reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "c")
        await settle(app, pilot)
        app.screen.query_one("#correct-reason", Input).value = "ok\u202eko"  # pasted
        app.screen.query_one("#correct-value", Input).value = "new value"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog), app.screen
        assert "reason_invalid" in app.screen.dialog_title
    assert CliRunner().invoke(cli, ["history", str(sample_store), "--session", "s-export", "--key",
                                    "goal.main"]).output.count("correction") == 0
