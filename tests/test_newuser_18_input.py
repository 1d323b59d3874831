"""What a new reviewer met on transcripts nobody had seen, outside the Drift tab (docs/reviews/newuser-18.md).

A pasted terminal link proposed its escape bytes as the URL; a session whose 5 MB result held the
word past the index's 4 MiB was said not to hold it; "indexing 1 events"; a folder given as a store
said no way on; a reversed range was "outside" the material; the expand dialog refused the range it
opened on; a planned action was "already planned"; an empty message list was "cannot tell what it
is", and with --from it made a store.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle
from tests.test_newuser_18 import _store_with_a_long_key


def test_a_pasted_terminal_link_proposes_the_url_without_its_escape_bytes(tmp_path: Path) -> None:
    """An OSC 8 link in the user's words ("\\x1b]8;;URL\\x1b\\\\text\\x1b]8;;\\x1b\\\\") proposed the reference
    "URL␛\\the": the terminal's escape bytes and the link text's first word, as the URL to confirm."""
    link = "\x1b]8;;https://ci.example/build/42\x1b\\the red build\x1b]8;;\x1b\\"
    records = [session_record(owner="t"), event_record(1, content=f"Fix {link} before Friday."),
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Fixing https://ci.example/build/42 (the red build).", "covers": [1, 1], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    facts = json.loads(CliRunner().invoke(cli, ["facts", str(store), "--session", "s1", "--json"]).output)
    assert [f["value"] for f in facts if f["kind"] == "reference"] == ["https://ci.example/build/42"], facts


def _needle_past_the_index(tmp_path: Path) -> Path:
    """A 5 MB tool result with a word in its last line: the index reads a material's first 4 MiB."""
    from inspector.store.schema import MATERIAL_INDEX_CAP

    big = "line of log text\n" * (MATERIAL_INDEX_CAP // 17 + 1000) + "ZQXNEEDLE at the end\n"
    src = write_sif(tmp_path / "a.jsonl", [
        session_record("s1", title="the long log"),
        event_record(1, content="find the needle"),
        {"type": "material", "session": "s1", "id": "res:big", "source_event": 1, "content": big}])
    store = tmp_path / "s.db"
    asyncio.run(import_file(src, store, actor="t"))
    return store


def test_a_session_searched_in_part_is_never_said_not_to_hold_the_query(tmp_path: Path) -> None:
    """``search --all-sessions`` said "0 of 1 session hold 'ZQXNEEDLE'" of a session whose 5 MB
    result holds it past the index's 4 MiB, and one session's ``--json`` said ``"not_searched": {}``,
    which the README defines as "it looked everywhere"."""
    store = _needle_past_the_index(tmp_path)
    one = json.loads(CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "ZQXNEEDLE", "--json"]).output)
    assert one["hits"] == [] and one["not_searched"] == {"materials_in_part": 1}, one
    assert one["note"] == "1 material is indexed only in its first 4 MiB (res:big)", one  # which one: it named none
    every = CliRunner().invoke(cli, ["search", str(store), "ZQXNEEDLE", "--all-sessions", "--json"])
    answer = json.loads(every.output)
    assert answer["sessions_matched"] == 0
    assert [s["session"] for s in answer["searched_in_part"]] == ["s1"], answer
    said = CliRunner().invoke(cli, ["search", str(store), "ZQXNEEDLE", "--all-sessions"]).output
    assert "0 of 1 session hold 'ZQXNEEDLE'; 1 of them was searched in part" in said, said
    assert "may hold it: s1" in said, said


async def test_indexing_one_event_says_one_event(tmp_path: Path) -> None:
    """stderr said "indexing 1 events for search…" before the hits of a store with one new event;
    the app's search box said it so too."""
    from inspector.cli.search_command import IndexingNote
    from inspector.ui.widgets.evidence_channel import EvidenceChannel

    assert IndexingNote().line(0, 1) == "indexing 1 event for search…"
    assert IndexingNote().line(0, 2500) == "indexing 2,500 events for search…"
    store = await _store_with_a_long_key(tmp_path)
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        channel = app.screen.query_one(EvidenceChannel)
        channel.show_indexing("push", 0, 1)
        await pilot.pause()
        said = str(channel.records.get_option_at_index(0).prompt)
    assert said.startswith("indexing 1 event for search…"), said


def test_a_folder_of_transcripts_given_to_open_says_how_to_list_them(tmp_path: Path) -> None:
    """``inspector ~/transcripts`` (a new reviewer's first guess) said only "is a folder, not a store
    file": the way to see what is in it (``--source``) was in the README alone. Nothing is made there."""
    folder = tmp_path / "my transcripts"
    folder.mkdir()
    (folder / "run.jsonl").write_text('{"type": "user"}\n', encoding="utf-8")
    before = sorted(p.name for p in folder.iterdir())
    result = CliRunner().invoke(cli, [str(folder)])
    assert result.exit_code == 3
    said = " ".join(result.output.split())
    assert f"is a folder, not a store file; the transcripts in it: `inspector --source '{folder}'`" in said, said
    assert f"`inspector sessions --discover --source '{folder}'`" in said, said
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_reversed_range_is_said_reversed_not_outside(tmp_path: Path) -> None:
    """``expand --range 5:2`` said "range [5, 2) is outside the material's 117,070 bytes"."""
    src = write_sif(tmp_path / "a.jsonl", [
        session_record("s1"), event_record(1, content="see the log"),
        {"type": "material", "session": "s1", "id": "res:log", "source_event": 1, "content": "x" * 100},
        {"type": "stub", "session": "s1", "id": "stub:log", "material": "res:log", "byte_range": [0, 100]}])
    store = tmp_path / "s.db"
    asyncio.run(import_file(src, store, actor="t"))
    result = CliRunner().invoke(cli, ["expand", str(store), "stub:log", "--range", "5:2", "--json", "--reviewer", "t"])
    assert result.exit_code == 1
    [refusal] = json.loads(result.stdout)["refusals"]
    assert refusal["code"] == "out_of_bounds"
    assert refusal["message"].startswith("range [5, 2) ends before it starts: give the start first (2:5?)"), refusal


def test_handoff_help_says_a_refused_handoff_exits_1() -> None:
    """``handoff`` exits 1 on a refused handoff; its help did not say so (``validate``'s does)."""
    said = " ".join(CliRunner().invoke(cli, ["handoff", "--help"]).output.split())
    assert "exit 1 when refused" in said, said


async def test_expanding_a_stub_over_the_limit_as_the_dialog_opened_reads_its_head(tmp_path: Path) -> None:
    """Enter in the expand dialog of a 5 MB tool result was refused over_budget (limit 65,536): the
    dialog opens on the stub's whole slice, a range the reviewer never chose, while ``inspector
    expand`` without --range reads its head and says what it left out. A range typed over the
    limit is still refused."""
    from textual.widgets import Input, Static

    from inspector.ui.expand_dialog import ExpandDialog
    from tests.test_app import choose

    text = "日志 line of the long result\n" * 5000  # 160,000 bytes, three-byte characters among them
    src = write_sif(tmp_path / "a.jsonl", [
        session_record("s1"), event_record(1, content="see the log"),
        {"type": "material", "session": "s1", "id": "res:log", "source_event": 1, "content": text},
        {"type": "stub", "session": "s1", "id": "stub:log", "material": "res:log",
         "read_slice": [0, len(text.encode())]}])
    store = tmp_path / "s.db"
    await import_file(src, store, actor="t")
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        choose(app.screen.query_one("#evidence-records"), "stub:stub:log")  # the row of stub "stub:log"
        await pilot.press("e")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        await pilot.press("enter")
        await settle(app, pilot)
        shown = " ".join(str(dialog.query_one("#expand-text", Static).render()).split())
        assert "✓ verified" in shown and "over_budget" not in shown, shown[:300]
        whole = len(text.encode()[:65536].decode("utf-8", "ignore").encode())  # cut back to a whole character
        assert f"head only: the first {whole:,} of {len(text.encode()):,} bytes of [0, {len(text.encode())})" in shown
        assert dialog.query_one("#expand-end", Input).value == str(whole)
        dialog.query_one("#expand-end", Input).value = "100000"  # typed: over the limit, refused
        await pilot.press("enter")
        await settle(app, pilot)
        assert "over_budget" in str(dialog.query_one("#expand-text", Static).render())


def test_reconciling_a_planned_action_says_it_has_not_started() -> None:
    """``reconcile`` of a planned action said "action a9 is already planned", as of one settled."""
    from inspector.domain.reconcile import reconcile_refusals

    [refusal] = reconcile_refusals("a9", "planned", "failed", None, None)
    assert refusal.code == "action_settled"
    assert refusal.message.startswith("action a9 is planned, not started: it has no outcome to settle"), refusal
    [settled] = reconcile_refusals("a7", "succeeded", "failed", None, None)
    assert settled.message.startswith("action a7 is already succeeded"), settled


async def test_the_search_every_session_dialog_lists_a_session_searched_in_part(tmp_path: Path) -> None:
    """The dialog (S) named such a session in its sentence only: a row to open it, as a hit's session."""
    from textual.widgets import Input, OptionList

    from inspector.ui.main_screen import MainScreen
    from inspector.ui.search_sessions_dialog import SearchSessionsDialog

    store = await asyncio.to_thread(_needle_past_the_index, tmp_path)
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        main = app.screen
        assert isinstance(main, MainScreen)
        main.action_search_sessions()
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, SearchSessionsDialog)
        dialog.query_one("#search-all-input", Input).value = "ZQXNEEDLE"
        await pilot.press("enter")
        await settle(app, pilot)
        said = str(dialog.query_one("#search-all-said").render())
        assert said.startswith("0 of 1 session hold 'ZQXNEEDLE'; 1 of them was searched in part"), said
        assert said.endswith(": enter opens one"), said
        results = dialog.query_one("#search-all-results", OptionList)
        [row] = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert row.startswith("the long log\n  s1 · searched in part, may hold it: 1 material is indexed only"), row
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.screen is main and main.session == "s1"


@pytest.mark.parametrize(("content", "where"), [("[]", "([])"), ('{"messages": []}', "(messages: [])"),
                                                ('{"model": "x", "input": []}', "(input: [])")])
@pytest.mark.parametrize("named", [None, "openai-chat", "anthropic", "openai-responses"])
def test_an_empty_message_list_is_refused_as_empty_input(tmp_path: Path, content: str, where: str,
                                                         named: str | None) -> None:
    """``[]`` said "cannot tell what it is … name its format", and named with ``--from`` it made a
    store of one session with no event: empty input, exit 3 and nothing written, as an empty file."""
    src = tmp_path / "chat.json"
    src.write_text(content, encoding="utf-8")
    store = tmp_path / "s.db"
    result = CliRunner().invoke(cli, ["import", str(src), "--into", str(store), "--json",
                                      *(["--from", named] if named else [])])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "empty_file" and error["message"] == (
        f"chat.json is an empty message list {where}: there is nothing to import"), error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chat.json"]
