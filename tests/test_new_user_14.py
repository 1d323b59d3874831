"""What tripped a new reviewer using Gemini CLI, inspect-ai, OpenAI and the largest Claude Code
transcript (docs/reviews/new-user-14.md).

An id that matched nothing said only "no deletion request 'del-1'"; the app's empty tabs did not
say where a candidate, handoff or deletion request comes from (the CLI does); the start screen's
count stayed stale after ctrl+r; the follow bar's "waiting for appended lines" was cut off behind a
long path; the review dialog's character diff of two summaries was unreadable; and typing in the
correction dialog erased the value being corrected.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.content import Content
from textual.widgets import Input, OptionList

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.browser_screen import BrowserScreen
from inspector.ui.byte_view import word_diff
from inspector.ui.correction_dialog import CorrectionDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.candidates_list import CandidatesList
from inspector.ui.widgets.deletions_list import DeletionsList
from inspector.ui.widgets.follow_bar import FollowBar
from inspector.ui.widgets.handoffs_list import HandoffsList
from inspector.ui.widgets.state_channel import StateChannel
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle
from tests.test_browser_ui import GEMINI_HASH, REAL, _until, home  # noqa: F401 - the fixture: transcripts where the tools put them

NEEDS_REAL = pytest.mark.skipif(not REAL.is_dir(), reason=f"the real transcripts are not beside the project ({REAL})")


def test_an_id_nothing_holds_says_the_store_has_none_and_where_one_comes_from(tmp_path: Path) -> None:
    import asyncio

    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), store, actor="t"))
    for command, noun, record in (["deletion", "deletion request", "deletion_request"],
                                  ["handoff", "handoff", "handoff"], ["validate", "candidate", "candidate"]):
        result = CliRunner().invoke(cli, [command, str(store), "del-1"])
        assert result.exit_code == 3, result.output
        assert f"no {noun} 'del-1'; the store holds no {noun} at all" in result.output
        assert f"a `{record}` record of a sif/1 file: `inspector import FILE --into STORE`" in result.output
    result = CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--session", "s1"])
    assert "no deletion request 'del-1' in session 's1'; it holds no deletion request at all" in result.output


def test_an_id_nothing_holds_names_ids_the_store_has(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(sample_store), "zzzz"])
    assert result.exit_code == 3
    said = result.output.replace("\n", " ")
    assert "no candidate 'zzzz'; the store holds cand-" in said and " more" in said
    assert "did you mean" not in said


def test_an_id_held_in_part_still_says_did_you_mean(sample_store: Path) -> None:
    """Guard: the existing "did you mean" comes first; the list of ids is only for no match at all."""
    result = CliRunner().invoke(cli, ["validate", str(sample_store), "good"])
    assert "did you mean cand-good" in result.output and "the store holds" not in result.output


async def test_empty_tabs_say_where_their_records_come_from(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record(owner="tester"), event_record(1)]), store,
                      actor="tester")
    app = InspectorApp(store)
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        for widget, record in ((CandidatesList, "candidate"), (HandoffsList, "handoff")):
            shown = str(app.screen.query_one(widget).get_option_at_index(0).prompt)
            assert f"a `{record}` record of a sif/1 file: `inspector import FILE --into STORE`" in shown, shown
        shown = str(app.screen.query_one(DeletionsList).get_option_at_index(0).prompt)  # a reviewer files one (flow-seven)
        assert "D on a timeline event or a Raw evidence row files one (or `inspector request-deletion`)" in shown
        for box in ("#drift-findings", "#survival-generations"):
            shown = str(app.screen.query_one(box, OptionList).get_option_at_index(0).prompt)
            assert shown.startswith("no summary generations: R rebuilds one from the raw log"), shown


async def test_the_start_screen_count_follows_a_look_again(home: Path) -> None:  # noqa: F811
    app = InspectorApp()
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        title = app.screen.query_one("#browser-title")
        assert "(7 found in" in str(title.render())
        extra = home / ".claude" / "projects" / "-work-other"
        extra.mkdir()
        shutil.copy(REAL / "claude-code" / "ee8f793bfeb9-0__summary_records.jsonl", extra / "more.jsonl")
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert len(app.screen.by_id) == 8
        assert "(8 found in" in str(title.render())


async def test_the_follow_bar_says_it_waits_before_the_long_path(home: Path) -> None:  # noqa: F811
    app = InspectorApp()
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("down", "enter")  # the Claude Code "commit this" session, followed live
        await _until(pilot, lambda: isinstance(app.screen, MainScreen) and bool(app.screen.query(FollowBar))
                     and "following" in str(app.screen.query_one(FollowBar).render()), "the follow bar")
        text = str(app.screen.query_one(FollowBar).render())
        assert text.startswith("● following · ") and "bytes imported · waiting for appended lines · " in text
        assert text.index("waiting for appended lines") < text.index(str(home))


def _marked(diff: Content) -> str:
    """The diff as text: [-removed-] and {+added+}."""
    out, at = "", 0
    for span in diff.spans:
        out += diff.plain[at:span.start]
        piece = diff.plain[span.start:span.end]
        out += f"[-{piece}-]" if "strike" in str(span.style) else f"{{+{piece}+}}"
        at = span.end
    return out + diff.plain[at:]


def test_a_summary_diff_goes_word_by_word() -> None:
    """The candidate review's summary diff read "The agent creatRed docs/blue.md … Thnen itver pushed"."""
    old = "The agent created docs/blue.md, removed it, appended Red to docs/color.md and staged it. Then it pushed to main."
    new = "Red appended to docs/color.md and staged; never push to main."
    assert _marked(word_diff(old, new)) == ("[-The agent created docs/blue.md, removed it,-]{+Red+} appended [-Red -]to "
                                            "docs/color.md and staged[- it. Then it pushed-]{+; never push+} to main.")
    assert _marked(word_diff("不得修改生产库", "不得修改生产库和备份")) == "不得修改生产库{+和备份+}"  # CJK: by character


async def test_typing_in_the_correction_value_edits_it_instead_of_erasing_it(sample_store: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "mo")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("1", "down")
        assert app.screen.query_one(StateChannel).selected().key == "constraint.prod"
        await pilot.press("c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        await pilot.press(*"和备份")
        assert dialog.query_one("#correct-value", Input).value == "不得修改生产库和备份"
        await pilot.press("tab", "shift+tab", "x")  # back into the value: still an edit
        assert dialog.query_one("#correct-value", Input).value == "不得修改生产库和备份x"


@NEEDS_REAL
def test_a_named_folder_of_logs_the_list_leaves_out_says_how_to_open_them(tmp_path: Path) -> None:
    """``--source`` at a folder of downloaded logs said "0 transcript(s)" and nothing more."""
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(REAL / "gemini-cli" / "ab2b9748b105-0__session.json", folder / "chat.json")
    shutil.copy(REAL / "inspect-ai" / "log_streaming.eval", folder / "run.eval")
    result = CliRunner().invoke(cli, ["sessions", "--discover", "--source", str(folder)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "0 transcripts" in said
    assert "2 .json/.jsonl/.eval files there are not in the list (chat.json, run.eval)" in said
    assert "`inspector FILE` opens any of them" in said
    doc = json.loads(CliRunner().invoke(cli, ["sessions", "--discover", "--source", str(folder), "--json"]).stdout)
    assert doc["unlisted"] == [str(folder / "chat.json"), str(folder / "run.eval")]


def test_the_tools_own_folders_name_no_side_files(home: Path) -> None:  # noqa: F811
    """Guard: a Gemini ``logs.json`` beside the chats (the tool's own folder, not one a person
    named) is left out without a word, as before."""
    (home / ".gemini" / "tmp" / GEMINI_HASH / "logs.json").write_text("[]", encoding="utf-8")
    doc = json.loads(CliRunner().invoke(cli, ["sessions", "--discover", "--json"]).stdout)
    assert doc["count"] == 7 and doc["unlisted"] == []


@NEEDS_REAL
async def test_the_app_on_a_named_folder_of_logs_says_how_to_open_them(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(REAL / "gemini-cli" / "ab2b9748b105-0__session.json", folder / "chat.json")
    monkeypatch.setenv("INSPECTOR_SOURCES", str(folder))
    app = InspectorApp()
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session == "s-export"  # the demo, as before
        said = [str(n.message) for n in app._notifications]
        assert any("chat.json" in m and "`inspector FILE` opens any of them" in m for m in said), said


def _shell(seq: int, command: str, output: str) -> dict[str, object]:
    """A Gemini CLI shell result as the importer writes it: every one ends with the same lines."""
    return event_record(seq, kind="tool_result", trust="tool", call_id=f"c{seq}", tool="run_shell_command",
                        content=f"Command: {command}\nOutput: {output}\nError: (none)\nBackground PIDs: (none)")


def test_a_copy_found_by_value_says_which_line_of_which_target_it_repeats(tmp_path: Path) -> None:
    """One shell result's deletion listed every other shell result as "repeats a value of the
    targets": they share "Background PIDs: (none)". Now each says the line it repeats (never the
    value) and a warning says how many events go with a shared line."""
    import asyncio

    records = [session_record(), _shell(1, "ls -l docs/blue.md", "-rw-r--r-- 1 peytonmontei staff 309 docs/blue.md"),
               *(_shell(n, f"git status {n}", "clean") for n in range(2, 6)),
               {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"],
                "requested_by": "user", "reason": "a home folder name"}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    doc = json.loads(CliRunner().invoke(cli, ["deletion", str(store), "del-1", "--json"]).stdout)
    why = {c["id"]: c["why"] for c in doc["copies"] if c["where"] == "events"}
    assert why == {"evt:1": "the target event", **{f"evt:{n}": "repeats line 4 of evt:1" for n in range(2, 6)}}
    assert ("4 other events repeat line 4 of evt:1 (evt:2, evt:3, evt:4, evt:5) and go with it: a line this many "
            "events share may be a tool's boilerplate; read it before carrying the request out") in doc["warnings"]
    text = CliRunner().invoke(cli, ["deletion", str(store), "del-1"]).output
    assert "Background PIDs" not in text and "repeats line 4 of evt:1" in text  # a place to look, never the value


async def test_e_on_a_material_with_one_stub_expands_that_stub(sample_store: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`e` on the material row (the row `3` lands on) only said "Select a stub (↳) … first"."""
    from inspector.ui.expand_dialog import ExpandDialog
    from tests.test_app import choose

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-export")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        choose(app.screen.query_one("#evidence-records"), "mat:res:run-184")
        await pilot.press("e")
        await settle(app, pilot)
        assert isinstance(app.screen, ExpandDialog) and app.screen.stub.id == "stub-7"


@pytest.mark.parametrize("command", [["drift"], ["report", "-o", "r.html"], ["search", "x"], ["budget"]])
def test_a_missing_session_names_the_store_s_one_session(tmp_path: Path, command: list[str]) -> None:
    """``inspector drift g.db`` said only "Missing option '--session'" though the store held one session."""
    import asyncio

    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", [session_record("only-one"), event_record(1, "only-one")]),
                            store, actor="t"))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    name, *rest = command
    result = CliRunner().invoke(cli, [name, str(store), *rest])
    assert result.exit_code == 2, result.output
    assert "Missing option '--session'. s.db holds one session: pass --session only-one" in result.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, nothing beside it


def test_a_missing_session_in_a_store_of_several_says_how_to_list_them(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["survival", str(sample_store)])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "samples.db holds" in said and "sessions: pass one with --session (`inspector sessions" in said


def test_a_missing_session_of_no_store_is_said_as_before(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["drift", str(tmp_path / "none.db")])
    assert result.exit_code == 2 and result.output.rstrip().endswith("Error: Missing option '--session'.")
    assert not (tmp_path / "none.db").exists()


def test_an_accepted_candidate_is_not_called_refused(tmp_path: Path) -> None:
    """After accepting cand-1, `candidates` said "cand-1 [accepted]: REFUSED" and the report
    "cand-1 · accepted · refused" (its checks run again on the context it moved): the app's review
    says "decided; …"; now all three do."""
    import asyncio

    records = [session_record(owner="t"), event_record(1),
               {"type": "candidate", "session": "s1", "id": "cand-1", "base_version": 1, "goal_revision": 1,
                "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": "message 1 was said",
                "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    accepted = CliRunner().invoke(cli, ["accept", str(store), "cand-1", "--reviewer", "t"])
    assert accepted.exit_code == 0, accepted.output
    listed = CliRunner().invoke(cli, ["candidates", str(store), "--session", "s1"]).output
    assert "cand-1 [accepted]: decided; checked again against the context as it is now" in listed
    assert "REFUSED" not in listed and "would not pass now (already accepted; nothing to decide):" in listed
    assert CliRunner().invoke(cli, ["report", str(store), "--session", "s1", "-o", str(tmp_path / "r.html")]).exit_code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "accepted · decided; checked again against the context as it is now" in html
    assert "accepted · refused" not in html


async def test_the_header_says_how_many_sessions_the_store_holds(sample_store: Path) -> None:
    """At 80 columns the sessions list starts hidden: a store of several sessions showed one, and no sign of the rest."""
    from inspector.ui.widgets.header_bar import HeaderBar

    app = InspectorApp(sample_store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        count = len(app.screen.session_ids)
        assert count > 1
        assert f"{count} sessions · " in str(app.screen.query_one(HeaderBar).render())


async def test_a_store_of_one_session_says_nothing_of_sessions(tmp_path: Path) -> None:
    """Guard: one session, nothing more to list."""
    from inspector.ui.widgets.header_bar import HeaderBar

    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), store, actor="t")
    app = InspectorApp(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "sessions" not in str(app.screen.query_one(HeaderBar).render())


async def test_a_file_not_followed_says_the_way_on_first(home: Path) -> None:  # noqa: F811
    """At 80 columns the bar was cut before "open it again to import its current state"."""
    app = InspectorApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *"color file", "enter")  # the Gemini CLI chat: rewritten whole, never followed
        await _until(pilot, lambda: isinstance(app.screen, MainScreen) and bool(app.screen.query(FollowBar))
                     and "not followed" in str(app.screen.query_one(FollowBar).render()), "the follow bar")
        bar = app.screen.query_one(FollowBar)
        assert str(bar.render()).startswith("○ not followed live — open it again to import its current state: ")
        shown = bar.render_line(0).text  # the one line on screen, cut with "…"
        assert "open it again to import its current state" in shown


def test_a_field_timeline_of_one_generation_says_generation(tmp_path: Path) -> None:
    """``drift`` printed "field timeline (generations 1):"."""
    import asyncio

    records = [session_record(owner="t"), event_record(1, content="never push to main"),
               {"type": "state", "session": "s1", "key": "constraint.push", "kind": "constraint",
                "value": "never push to main", "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": "Never push to main.",
                "covers": [1, 1], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1"]).output
    assert "field timeline (generation 1):" in said and "generations 1" not in said


@NEEDS_REAL
def test_a_transcript_given_as_source_says_how_to_open_it(tmp_path: Path) -> None:
    """``--source chat.json`` (a file, a new reviewer's guess) said only "is not a folder"."""
    chat = tmp_path / "chat.json"
    shutil.copy(REAL / "gemini-cli" / "ab2b9748b105-0__session.json", chat)
    result = CliRunner().invoke(cli, ["sessions", "--discover", "--source", str(chat)])
    assert result.exit_code == 3
    assert f"--source {chat} is not a folder but a file; to open it: inspector {chat}" in " ".join(result.output.split())
    result = CliRunner().invoke(cli, ["sessions", "--discover", "--source", str(tmp_path / "nope")])
    assert result.exit_code == 3 and "is not a folder: it does not exist" in result.output


def test_expand_given_a_material_says_which_stub_to_expand(sample_store: Path) -> None:
    """``expand STORE res:run-184`` (the material's id, the row the app's `3` lands on) said "no stub"."""
    result = CliRunner().invoke(cli, ["expand", str(sample_store), "res:run-184", "--session", "s-export", "--reviewer", "lin"])
    assert result.exit_code == 3
    said = " ".join(result.output.split())
    assert "no stub 'res:run-184' in session 's-export'; res:run-184 is a material: expand one of its stubs (stub-7)" in said


def test_the_deletion_dialog_puts_its_warnings_before_the_copies() -> None:
    """At 80×24 the warning that five other events go with the target was under every copy and the
    not-checked list: read only by scrolling past what `x` removes."""
    from inspector.domain.deletion import Copy
    from inspector.services.deletions import Coverage
    from inspector.ui.deletion_dialog import coverage_content

    cov = Coverage("del-1", "s1", "pending", copies=[Copy("events", f"evt:{n}", "repeats line 4 of evt:1")
                                                      for n in range(2, 30)], warnings=["5 other events repeat line 4"])
    text = coverage_content(cov).plain
    assert text.index("! 5 other events repeat line 4") < text.index("✕ events evt:2")
