"""A reviewer on a team of several agents finds and follows sessions across many transcripts
(docs/reviews/new-user-16.md): each test failed on the code before its fix."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from tests.conftest import event_record, session_record, write_sif


@pytest.fixture
def team_store(tmp_path: Path) -> Path:
    """Three sessions: two ran `git status`, one did not."""
    records = [session_record("claude-1", title="commit this"), session_record("gemini-2", title="make a colour file"),
               session_record("eval-3", title="popularity · sample 1"),
               event_record(1, "claude-1", content="ran git status before the commit"),
               event_record(1, "gemini-2", content="Command: git status\nOutput: clean"),
               event_record(2, "gemini-2", content="then git status again"),
               event_record(1, "eval-3", content="which is more popular?")]
    store = tmp_path / "team.db"
    asyncio.run(import_file(write_sif(tmp_path / "team.jsonl", records), store, actor="alice"))
    return store


def test_search_across_every_session_names_the_sessions_that_hold_the_text(team_store: Path) -> None:
    """`search STORE QUERY` needed --session: a reviewer looking for the session that ran a command
    had to try each of the store's sessions in turn."""
    result = CliRunner().invoke(cli, ["search", str(team_store), "git status", "--all-sessions"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("2 of 3 sessions hold 'git status'")
    assert "claude-1  commit this  — 1 hit (1 event, 0 materials)" in result.output
    assert "gemini-2  make a colour file  — 2 hits (2 events, 0 materials)" in result.output
    assert "eval-3" not in result.output
    doc = json.loads(CliRunner().invoke(cli, ["search", str(team_store), "GIT STATUS", "--all-sessions", "--limit", "1",
                                              "--json"]).stdout)
    assert (doc["sessions_searched"], doc["sessions_matched"], doc["limit_per_session"]) == (3, 2, 1)
    assert [(s["session"], s["title"], [h["ref"] for h in s["hits"]], s["more"]) for s in doc["sessions"]] == [
        ("claude-1", "commit this", ["evt:1"], False), ("gemini-2", "make a colour file", ["evt:1"], True)]


def test_search_without_a_session_says_all_sessions_is_the_other_way(team_store: Path) -> None:
    result = CliRunner().invoke(cli, ["search", str(team_store), "git"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "Missing option '--session'. team.db holds 3 sessions: pass one with --session" in said
    assert "or --all-sessions to search every session" in said
    both = CliRunner().invoke(cli, ["search", str(team_store), "git", "--session", "eval-3", "--all-sessions"])
    assert both.exit_code == 2 and "give one" in both.output


def test_a_title_given_as_session_names_the_sessions_so_titled(team_store: Path) -> None:
    """`--session "commit this"` (the title `sessions` and the app show) said only "no session"."""
    result = CliRunner().invoke(cli, ["drift", str(team_store), "--session", "Commit This"])
    assert result.exit_code == 3
    said = " ".join(result.output.split())
    assert "no session 'Commit This'" in said
    assert "--session takes a session's id, not its title: did you mean claude-1 ('commit this')?" in said
    nothing = CliRunner().invoke(cli, ["drift", str(team_store), "--session", "zz"])
    assert "not its title" not in nothing.output  # a word no title holds is said as before


async def test_the_app_opened_on_a_title_names_the_session_and_lists_them_all(team_store: Path) -> None:
    """`inspector team.db --session 'commit this'` said "no session 'commit this' in team.db" over an
    empty screen whose sessions list was empty too."""
    from textual.worker import WorkerFailed

    from inspector.ui.app import InspectorApp
    from inspector.ui.dialogs import MessageDialog
    from inspector.ui.widgets.sessions_list import SessionsList
    from tests.test_app import settle

    app = InspectorApp(team_store, session="commit this")
    async with app.run_test(size=(120, 35)) as pilot:
        with contextlib.suppress(WorkerFailed):  # the refusal is the loading worker's: its dialog shows it
            await settle(app, pilot)
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog)
        assert "did you mean claude-1 ('commit this')?" in str(dialog.body)
        await pilot.press("enter")
        await settle(app, pilot)
        listed = app.screen.query_one(SessionsList)
        assert [listed.get_option_at_index(i).id for i in range(listed.option_count)] == ["claude-1", "gemini-2", "eval-3"]


def _claude_lines(session: str, count: int) -> bytes:
    lines = [{"type": "user", "sessionId": session, "uuid": f"u{i}", "parentUuid": f"u{i - 1}" if i else None,
              "timestamp": f"2026-01-0{1 + i % 9}T10:00:00.000Z", "cwd": "/work/team",
              "message": {"role": "user", "content": f"step {i}: check the build"}} for i in range(count)]
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


@pytest.fixture
def gathered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of transcripts from several people: a renamed duplicate, a copy cut mid-line, one alone."""
    folder = tmp_path / "gathered"
    folder.mkdir()
    whole = _claude_lines("aaaa-1111", 6)
    (folder / "aaaa-1111.jsonl").write_bytes(whole)
    (folder / "from-lin.jsonl").write_bytes(whole)
    (folder / "taken-early.jsonl").write_bytes(whole[: len(whole) - 40])  # the last line cut
    (folder / "bbbb-2222.jsonl").write_bytes(_claude_lines("bbbb-2222", 3))
    monkeypatch.setenv("INSPECTOR_SOURCES", str(folder))
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(tmp_path / "data"))
    return folder


def test_the_listing_says_which_files_are_the_same_session_and_which_are_cut(gathered: Path) -> None:
    """Duplicates of a session were listed as identical rows, and a copy cut mid-line as any other."""
    doc = json.loads(CliRunner().invoke(cli, ["sessions", "--discover", "--json"]).stdout)
    rows = {Path(s["path"]).name: s for p in doc["projects"] for s in p["sessions"]}
    def copies(name: str) -> list[tuple[str, str]]:
        return sorted((Path(c["path"]).name, c["relation"]) for c in rows[name]["copies"])
    assert copies("aaaa-1111.jsonl") == [("from-lin.jsonl", "identical"), ("taken-early.jsonl", "shorter")]
    assert copies("taken-early.jsonl") == [("aaaa-1111.jsonl", "longer"), ("from-lin.jsonl", "longer")]
    assert copies("bbbb-2222.jsonl") == []
    assert [n for n, s in rows.items() if s["cut_short"]] == ["taken-early.jsonl"]
    text = CliRunner().invoke(cli, ["sessions", "--discover"]).output
    assert "⚠ same session as from-lin.jsonl, identical bytes" in text
    assert "⚠ same session as aaaa-1111.jsonl, which holds all of this one and more" in text
    assert text.count("⚠ its last line is cut short") == 1


async def test_the_start_screen_tells_copies_of_a_session_apart(gathered: Path) -> None:
    from inspector.ui.app import InspectorApp
    from inspector.ui.browser_screen import BrowserScreen
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    app = InspectorApp(sources=[gathered])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, BrowserScreen)
        rows = {key: str(row.prompt()) for row in app.screen.query_one(TranscriptList).rows if (key := row.key)}
        early = rows[f"t:{gathered / 'taken-early.jsonl'}"]
        assert "taken-early.jsonl" in early and "⚠ its last line is cut short" in early
        assert "⚠ same session as from-lin.jsonl, identical bytes" in rows[f"t:{gathered / 'aaaa-1111.jsonl'}"]
        assert "⚠" not in rows[f"t:{gathered / 'bbbb-2222.jsonl'}"]


async def test_the_start_screen_lists_the_other_files_of_a_named_folder_and_opens_one(gathered: Path) -> None:
    """With transcripts found, the app listed those alone: the inspect-ai logs and message lists in the
    same named folder were not named anywhere on screen (the CLI's listing named them)."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.browser_screen import BrowserScreen
    from inspector.ui.main_screen import MainScreen
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    chat = gathered / "run-7.conversation.json"
    chat.write_text(json.dumps([{"role": "user", "content": "roll the die"},
                                {"role": "assistant", "content": "I rolled a 4."}]), encoding="utf-8")
    app = InspectorApp(sources=[gathered], reviewer="alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, BrowserScreen)
        listing = screen.query_one(TranscriptList)
        headings = [str(r.prompt()) for r in listing.rows if r.key is None]
        assert any(h.startswith(f"Other files (1 file): ⏎ imports one (its format detected) and opens it — in "
                                f"{gathered}, not named as") for h in headings)
        key = f"t:{chat}"
        assert "run-7.conversation.json" in str(next(r for r in listing.rows if r.key == key).prompt())
        listing.cursor = [listing.rows[i].key for i in listing.selectable].index(key)
        await pilot.press("enter")
        await settle(app, pilot)
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session == "run-7"


async def test_rows_of_one_title_show_their_file_names(gathered: Path) -> None:
    """Two sessions both started with "commit this": two rows alike but for their size."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    (gathered / "cccc-3333.jsonl").write_bytes(_claude_lines("cccc-3333", 3))  # titled as bbbb-2222 is
    app = InspectorApp(sources=[gathered])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        rows = {key: str(row.prompt()) for row in app.screen.query_one(TranscriptList).rows if (key := row.key)}
        assert "cccc-3333.jsonl" in rows[f"t:{gathered / 'cccc-3333.jsonl'}"]
        assert "bbbb-2222.jsonl" in rows[f"t:{gathered / 'bbbb-2222.jsonl'}"]


REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"


def test_follow_says_when_a_compaction_arrives(tmp_path: Path) -> None:
    """`follow` printed the compaction's events and nothing else: a script's reader was not told that a
    summary generation (what drift and survival judge) had arrived."""
    import subprocess
    import sys
    import time

    real = REAL / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not real.is_file():
        pytest.skip(f"the real transcripts are not beside the project ({REAL})")
    lines = real.read_bytes().splitlines(keepends=True)
    boundary = next(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    src, db = tmp_path / "live.jsonl", tmp_path / "live.db"
    src.write_bytes(b"".join(lines[:boundary]))
    out = tmp_path / "events.jsonl"
    with out.open("w") as events:  # a file, not a pipe: the events fill a pipe nobody reads, and follow blocks
        proc = subprocess.Popen([sys.executable, "-m", "inspector", "follow", str(src), "--into", str(db),
                                 "--interval", "0.1", "--timeout", "30", "--reviewer", "t"],
                                stdout=events, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        started = time.monotonic()
        while not out.read_text() and time.monotonic() - started < 25:  # the first look is done
            time.sleep(0.1)
        assert json.loads(out.read_text().splitlines()[0])["seq"] == 1
        with src.open("ab") as fh:
            fh.write(b"".join(lines[boundary:]) + (b"" if lines[-1].endswith(b"\n") else b"\n"))
        said = ""
        while "⚑" not in said and (line := proc.stderr.readline()):
            said += line
        assert "⚑ a compaction arrived: summary generation 1 of 198393f2-22db-477b-ac77-1825bea883ae" in said
        assert f"`inspector drift {db} --session 198393f2-22db-477b-ac77-1825bea883ae`" in said
    finally:
        proc.kill()
        proc.wait()


def test_a_cassette_names_the_message_list_made_from_it_or_says_there_is_none(tmp_path: Path) -> None:
    """Every cassette was told to import "the saved message list (*.conversation.json) made from it",
    though most have none; the one that has one was not named."""
    recordings = tmp_path / "anthropic" / "recordings"
    recordings.mkdir(parents=True)
    cassette = "interactions:\n- request:\n    body: '{}'\n"
    (recordings / "test_tools.yaml").write_text(cassette, encoding="utf-8")
    (recordings / "test_chain.yaml").write_text(cassette, encoding="utf-8")
    made = tmp_path / "anthropic" / "test_chain.conversation.json"
    made.write_text(json.dumps([{"role": "user", "content": "hi"}]), encoding="utf-8")
    store = tmp_path / "s.db"
    found = CliRunner().invoke(cli, ["import", str(recordings / "test_chain.yaml"), "--into", str(store)])
    assert found.exit_code == 3 and not store.exists()
    said = " ".join(found.stderr.split())
    assert f"the message list made from it is {made}: `inspector import {made} --into STORE` imports it" in said
    none = CliRunner().invoke(cli, ["import", str(recordings / "test_tools.yaml"), "--into", str(store), "--json"])
    assert none.exit_code == 3 and not store.exists()
    error = json.loads(none.stdout)["error"]
    assert error["code"] == "not_a_transcript"
    assert "no message list made from it (test_tools.conversation.json) is beside it or in the folder above" in error["message"]


def test_a_copy_cut_mid_line_of_a_session_already_imported_is_not_called_rewritten(tmp_path: Path) -> None:
    whole = _claude_lines("aaaa-1111", 6)
    (tmp_path / "a.jsonl").write_bytes(whole)
    (tmp_path / "taken-early.jsonl").write_bytes(whole[: len(whole) - 40])
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "a.jsonl"), "--into", str(store)]).exit_code == 0
    cut = CliRunner().invoke(cli, ["import", str(tmp_path / "taken-early.jsonl"), "--into", str(store)])
    assert cut.exit_code == 3
    said = " ".join(cut.stderr.split())
    assert "its last line is cut short: a copy taken while the agent was still writing" in said
    assert "rewritten" not in said


async def test_the_palettes_open_session_commands_carry_the_titles(team_store: Path) -> None:
    """The palette offered "Open session: ID" only: typing a title's words found nothing."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.commands import screen_commands
    from tests.test_app import settle

    app = InspectorApp(team_store, session="eval-3")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        names = [name for name, _help, _run in screen_commands(app.screen) if name.startswith("Open session")]
        assert names == ["Open session: claude-1 — commit this", "Open session: gemini-2 — make a colour file",
                         "Open session: eval-3 — popularity · sample 1"]


async def test_the_follow_bar_says_a_truncated_file_and_the_way_on_first(tmp_path: Path) -> None:
    """"✗ stopped following live.jsonl: live.jsonl is now 3,453 bytes, shorter than the 134,274 bytes
    already imported: it wa…" — at 120 columns the bar was cut before what happened and the way on."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.dialogs import MessageDialog
    from inspector.ui.widgets.follow_bar import FollowBar
    from tests.test_browser_ui import _until

    src, store = tmp_path / "live.jsonl", tmp_path / "live.db"
    src.write_bytes(_claude_lines("aaaa-1111", 6))
    await import_file(src, store, actor="alice")
    app = InspectorApp(store, session="aaaa-1111", follow=src, reviewer="alice")
    async with app.run_test(size=(120, 35)) as pilot:
        await _until(pilot, lambda: bool(app.screen.query(FollowBar))
                     and "following" in str(app.screen.query_one(FollowBar).render()), "the follow bar")
        src.write_bytes(src.read_bytes()[:100])
        await _until(pilot, lambda: isinstance(app.screen, MessageDialog), "the truncation was not said")
        bar = str(app.screen_stack[-2].query_one(FollowBar).render())
        assert bar.startswith("✗ stopped following live.jsonl: truncated or replaced: import it into a new store "
                              "to see it as it is · live.jsonl is now 100 bytes")


def test_check_names_each_session_by_its_title_too(team_store: Path) -> None:
    """`check` over a team's store said "✓ claude-1", "✓ gemini-2": ids alone, no title to know them by."""
    plain = CliRunner().invoke(cli, ["check", str(team_store)])
    assert plain.exit_code == 0, plain.output
    lines = plain.output.splitlines()
    assert "✓ claude-1  commit this" in lines and "✓ gemini-2  make a colour file" in lines
    doc = json.loads(CliRunner().invoke(cli, ["check", str(team_store), "--json"]).stdout)
    assert [(s["session"], s["title"]) for s in doc["sessions"]] == [
        ("claude-1", "commit this"), ("gemini-2", "make a colour file"), ("eval-3", "popularity · sample 1")]


async def test_the_app_searches_every_session_and_opens_the_one_chosen(team_store: Path) -> None:
    """The app's search box looked in the open session only: a text another session held was not found."""
    from textual.widgets import Input, OptionList

    from inspector.ui.app import InspectorApp
    from inspector.ui.main_screen import MainScreen
    from inspector.ui.search_sessions_dialog import SearchSessionsDialog
    from tests.test_app import settle

    app = InspectorApp(team_store, session="eval-3")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.action_search_sessions()
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, SearchSessionsDialog)
        dialog.query_one("#search-all-input", Input).value = "git status"
        await pilot.press("enter")
        await settle(app, pilot)
        said = str(dialog.query_one("#search-all-said").render())
        assert said == "2 of 3 sessions hold 'git status': enter opens one"
        results = dialog.query_one("#search-all-results", OptionList)
        shown = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert shown[0].startswith("commit this\n  claude-1 · 1 hit · evt:1 in event text:")
        assert shown[1].startswith("make a colour file\n  gemini-2 · 2 hits · evt:1 in event text:")
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert app.screen is main and main.session == "gemini-2"
        assert main.query_one("#evidence-search", Input).value == "git status"


def test_a_transcript_opened_as_a_file_is_listed_as_imported_into_that_store(gathered: Path) -> None:
    """`inspector FILE` keeps its store beside the file; the list called the transcript not imported, and
    opening it from the start screen made a second store of the session, without the acts done in the first."""
    src = gathered / "bbbb-2222.jsonl"
    beside = gathered / "bbbb-2222.jsonl.inspector.db"
    asyncio.run(import_file(src, beside, actor="alice"))
    doc = json.loads(CliRunner().invoke(cli, ["sessions", "--discover", "--json"]).stdout)
    row = next(s for p in doc["projects"] for s in p["sessions"] if s["path"] == str(src))
    assert (row["store"], row["imported"], row["changed_since_import"]) == (str(beside), True, False)
    other = next(s for p in doc["projects"] for s in p["sessions"] if s["path"] == str(gathered / "aaaa-1111.jsonl"))
    assert other["imported"] is False and Path(other["store"]).parent.name == "stores"


def test_inspector_file_opens_the_store_the_start_screen_made(gathered: Path) -> None:
    """The other way round: opened from the start screen first, then as `inspector FILE`, the session got
    a second store beside the file."""
    from inspector.cli.open_command import resolve_target
    from inspector.services import discovery

    src = gathered / "bbbb-2222.jsonl"
    listed = discovery.store_for(src, discovery.data_dir() / "stores")
    listed.parent.mkdir(parents=True)
    asyncio.run(import_file(src, listed, actor="alice"))
    assert asyncio.run(resolve_target(src, reviewer="alice")) == listed
    assert not (gathered / "bbbb-2222.jsonl.inspector.db").exists()


def test_a_search_of_every_session_that_takes_a_while_says_so(team_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """500 sessions took 6 s under load with nothing on screen."""
    from inspector.cli.search_command import SessionsNote

    monkeypatch.setattr(SessionsNote, "QUIET_FOR", 0.0)
    result = CliRunner().invoke(cli, ["search", str(team_store), "git status", "--all-sessions", "--json"])
    assert result.exit_code == 0
    assert result.stderr == "searching every one of 3 sessions (1 done)…\n"
    assert json.loads(result.stdout)["sessions_matched"] == 2  # stdout stays one JSON document


def test_check_counts_the_lines_of_one_code_past_five(tmp_path: Path) -> None:
    """Eleven tool results without calls (inspect-ai's log_tool_call_error) printed eleven alike lines."""
    records = [session_record("s1")] + [event_record(i, kind="tool_result", call_id=f"bash_{i}", tool="bash",
                                                     trust="tool", content="...") for i in range(1, 12)]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="alice"))
    result = CliRunner().invoke(cli, ["check", str(store)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum(line.startswith("    protocol orphan_result:") for line in lines) == 5
    assert "    … 6 more protocol orphan_result (`--json` lists every one)" in lines
    doc = json.loads(CliRunner().invoke(cli, ["check", str(store), "--json"]).stdout)
    assert len(doc["sessions"][0]["protocol"]) == 11


def test_copies_are_compared_again_only_when_a_file_changed(gathered: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.services import discovery, discovery_copies

    compared: list[str] = []
    real = discovery_copies._compare
    monkeypatch.setattr(discovery_copies, "_compare", lambda a, b: compared.append(a.path) or real(a, b))
    discovery.discover([gathered])
    first = len(compared)
    discovery.discover([gathered])
    assert first == 6 and len(compared) == first  # three files of one session, each against the two others
