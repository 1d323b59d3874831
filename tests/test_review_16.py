"""Fresh-eyes review of session 16's merges (docs/reviews/review-16.md): each test failed on the
code before its fix."""

from __future__ import annotations

import asyncio
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.services.search_all import AcrossSessions
from tests.conftest import event_record, session_record, write_sif
from tests.test_new_user_16 import gathered, team_store  # noqa: F401  (the fixtures)
from tests.test_open_file_unread_said import _transcript


def test_one_session_holding_the_text_is_said_in_the_singular(tmp_path: Path) -> None:
    """`search --all-sessions` and the palette's dialog said "1 of 1 session hold 'x'"."""
    records = [session_record("a-1", title="first"), session_record("b-2", title="second"),
               event_record(1, "a-1", content="the ZEBRA word"), event_record(1, "b-2", content="nothing here")]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="alice"))
    result = CliRunner().invoke(cli, ["search", str(store), "zebra", "--all-sessions"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1 of 2 sessions holds 'zebra' (at most 3 hits listed each")
    assert AcrossSessions("x", searched=1).said() == "0 of 1 session hold 'x'"


def test_the_report_header_says_unread_lines_once_as_the_app_does(tmp_path: Path) -> None:
    """The report's header read "lines_unread 2 … ⚠ 1 lines_unread": the protocol badge (code,
    then the lines) and check's warning count (one warning naming both lines) side by side."""
    source = _transcript(tmp_path / "cut.jsonl")
    source.write_text(source.read_text() + "also not json\n")
    store = tmp_path / "s.db"
    asyncio.run(import_file(source, store, actor="alice"))
    page = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", str(store), "--session", "s-cut", "-o", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text()
    assert '<span class="badge error">⚠ 2 transcript lines not read</span>' in html  # words, not the code (flow-nine)
    assert html.count("not read</span>") == 1


async def test_the_start_screen_keeps_the_cursor_on_screen_past_rows_of_copies(gathered: Path) -> None:  # noqa: F811
    """A row naming its copies draws 3 to 6 lines; the list scrolled as if each drew 2, so at 80×24
    the cursor went below the list's end on the next rows (the other files, the demo)."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    app = InspectorApp(sources=[gathered])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        listing = app.screen.query_one(TranscriptList)
        for _ in range(len(listing.selectable)):
            drawn = str(listing.render())
            assert "▶" in drawn, (listing.highlighted, drawn)
            await pilot.press("down")
            await pilot.pause()


def test_verify_says_the_long_events_it_compared_by_size_in_words(tmp_path: Path) -> None:
    """verify's not-checked line said "1 event(s) are longer than the 1000000 characters"."""
    records = [session_record("s-1", title="long"), event_record(1, "s-1", content="x" * 1_000_001)]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="alice"))
    assert CliRunner().invoke(cli, ["search", str(store), "--session", "s-1", "xx"]).exit_code == 0  # indexed
    result = CliRunner().invoke(cli, ["verify", str(store)])
    assert result.exit_code == 0, result.output
    assert "events_fts text: 1 event is longer than the 1,000,000 characters the index holds" in result.output


def test_facts_right_after_an_import_proposes_what_the_import_stored(tmp_path: Path) -> None:
    """The import reads a long message's first 48,000 and last 16,000 characters; ``facts`` read
    every event's first 4,000 and last 600, so its goal came out under another key ("[not
    stored]") and ``facts --write`` added it a second time. It now also says which event it read
    only in part, as the import did."""
    import json

    base = {"sessionId": "s-long", "cwd": "/w", "version": "2.1.14"}
    def said(uuid: str, text: str) -> str:
        return json.dumps({**base, "type": "user", "uuid": uuid, "timestamp": "2025-05-01T00:00:00Z",
                           "message": {"role": "user", "content": text}})
    middle = "Here is the log:\n" + "a line of the build output\n" * 300 + "end of log\nNever push to main."
    log = "log line filler 0123456789 abcdefghij\n" * 4000  # cut mid-line twice: no paragraph break in it
    huge = ("Here is the build log:\n" + log[:100_000] + "ZEBRA marker\n" + log[:30_000]
            + "\nPlease never push to main. Fix the flaky test by Friday.")
    source = tmp_path / "long.jsonl"
    source.write_text("\n".join([said("u1", "fix the export"), said("u2", middle), said("u3", huge)]) + "\n")
    store = tmp_path / "s.db"
    asyncio.run(import_file(source, store, actor="alice"))
    listed = CliRunner().invoke(cli, ["facts", str(store), "--session", "s-long"])
    assert listed.exit_code == 0, listed.output
    assert "[not stored]" not in listed.output, listed.output  # was: goal.later_request.here-is-the-build-log…
    assert f"note: evt:3 holds {len(huge):,} characters: its facts were proposed from its first 48,000" in listed.output
    written = CliRunner().invoke(cli, ["facts", str(store), "--session", "s-long", "--write", "--reviewer", "bob"])
    assert written.output.startswith("0 pending records added"), written.output


async def test_a_session_opened_from_search_every_session_shows_its_hits_at_80_columns(team_store: Path) -> None:  # noqa: F811
    """Under 100 columns one panel shows at a time: the session chosen in "Search every session…"
    opened on Protected state, its search's hits in a panel not on screen."""
    from textual.widgets import Input

    from inspector.ui.app import InspectorApp
    from inspector.ui.main_screen import MainScreen
    from inspector.ui.search_sessions_dialog import SearchSessionsDialog
    from inspector.ui.widgets.channel import ChannelPane
    from tests.test_app import settle

    app = InspectorApp(team_store, session="eval-3")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.action_search_sessions()
        await settle(app, pilot)
        assert isinstance(app.screen, SearchSessionsDialog)
        app.screen.query_one("#search-all-input", Input).value = "git status"
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is main and main.session == "claude-1"
        evidence = main.query_one("#evidence", ChannelPane)
        assert app.focused is evidence.records and evidence.display


async def test_a_store_moved_away_under_the_open_app_is_not_said_deleted(tmp_path: Path) -> None:
    """``mv s.db elsewhere.db`` under the open app: it said "was deleted", under the title "Store
    file replaced", and "reopen the store" (at a path where there is none)."""
    import os

    from inspector.services.sessions import ChangeWatch
    from inspector.store.connection import open_store

    store_path = tmp_path / "s.db"
    records = [session_record("s-1", title="one"), event_record(1, "s-1", content="hello")]
    await import_file(write_sif(tmp_path / "s.jsonl", records), store_path, actor="alice")
    async with await open_store(store_path) as store:
        watch = ChangeWatch(store)
        assert watch.file_said() is None
        os.replace(store_path, tmp_path / "elsewhere.db")
        said = watch.file_said()
        assert said is not None and said.code == "store_file_gone"
        assert "was deleted or moved away while it was open" in said.message
        assert said.message.endswith("open the store again where it is now")


def test_sessions_says_one_event_in_the_singular(tmp_path: Path) -> None:
    """`sessions STORE` listed a session of one event as "1 events"."""
    records = [session_record("s-1", title="one"), event_record(1, "s-1", content="hello"),
               session_record("s-2", title="two"), event_record(1, "s-2", content="a"), event_record(2, "s-2", content="b")]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="alice"))
    listed = CliRunner().invoke(cli, ["sessions", str(store)]).output
    assert "      1 event   one" in listed and "      2 events  two" in listed, listed


def test_a_format_8_store_numbered_7_is_not_left_damaged(tmp_path: Path) -> None:
    """``PRAGMA user_version = 7`` on a format-8 store holding an event past the index: the next
    open ran format 8's step again, taking the long event's entries out with its whole text, and
    verify then said the store could not be read any more (damaged_store, "restore it from a
    copy"). Now the number is set right, as for a store lowered to 6, and the search still finds."""
    import sqlite3

    records = [session_record("s-1", title="long"), event_record(1, "s-1", content="word " * 200_001 + "ZEBRA")]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), store, actor="alice"))
    assert CliRunner().invoke(cli, ["search", str(store), "--session", "s-1", "word"]).exit_code == 0  # indexed
    with sqlite3.connect(store) as con:
        con.execute("PRAGMA user_version = 7")
    con.close()
    upgraded = CliRunner().invoke(cli, ["upgrade", str(store)])  # verify writes nothing: it names this command
    assert upgraded.exit_code == 0, upgraded.output
    verified = CliRunner().invoke(cli, ["verify", str(store)])
    assert verified.exit_code == 0, verified.output
    with sqlite3.connect(store) as con:
        assert con.execute("PRAGMA user_version").fetchone() >= (8,)
    con.close()
    found = CliRunner().invoke(cli, ["search", str(store), "--session", "s-1", "zebra"])
    assert "1 hit" in found.output and "at 1000005" in found.output, found.output


async def test_the_other_files_heading_says_what_enter_does_at_80_columns(gathered: Path) -> None:  # noqa: F811
    """At 80 columns the heading was cut before its "⏎ imports one": the folder's path came first."""
    import json

    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.transcript_list import TranscriptList
    from tests.test_app import settle

    chat = gathered / "run-7.conversation.json"
    chat.write_text(json.dumps([{"role": "user", "content": "roll the die"}]), encoding="utf-8")
    app = InspectorApp(sources=[gathered])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        listing = app.screen.query_one(TranscriptList)
        listing.cursor = [listing.rows[i].key for i in listing.selectable].index(f"t:{chat}")
        listing.action_move(0)
        await pilot.pause()
        drawn = str(listing.render())
        assert "Other files (1 file): ⏎ imports one" in drawn, drawn


def test_a_file_of_no_known_format_is_told_the_command_that_names_one(tmp_path: Path) -> None:
    """The refusal said "name the format with --from": the app's start screen lists such files to
    open with enter, where there is no --from to give."""
    odd = tmp_path / "random.json"
    odd.write_text('{"x": 1}\n')
    result = CliRunner().invoke(cli, ["import", str(odd), "--into", str(tmp_path / "s.db")])
    assert result.exit_code == 3
    assert "`inspector import random.json --from FORMAT --into STORE`" in result.output, result.output


def test_an_unreadable_line_is_said_with_its_number_once(tmp_path: Path) -> None:
    """The import said "⚠ unreadable_line (line 2): line 2: the line is unreadable: …"."""
    result = CliRunner().invoke(cli, ["import", str(_transcript(tmp_path / "cut.jsonl")), "--into",
                                      str(tmp_path / "s.db"), "--reviewer", "bob"])
    assert result.exit_code == 0, result.output
    assert "⚠ unreadable_line (line 2): the line is unreadable: not valid JSON" in result.output, result.output


async def test_opening_a_transcript_says_an_unreadable_line_number_once(tmp_path: Path,
                                                                        monkeypatch: object) -> None:
    from inspector.cli.open_command import resolve_target

    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))  # type: ignore[attr-defined]
    notes: list[str] = []
    await resolve_target(_transcript(tmp_path / "cut.jsonl"), "bob", notes)
    assert any(n.startswith("unreadable_line (line 2): the line is unreadable") for n in notes), notes
