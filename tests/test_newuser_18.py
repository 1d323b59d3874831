"""What a new reviewer met on transcripts nobody had seen (docs/reviews/newuser-18.md).

The Drift tab's field timeline showed key names and no marks: an imported rule's key is a slug of
its words with a hash (50 characters), and the marks came after it, past the pane's edge. The
drift rebuild said an edited file's path was in no event of the range: it read only events' text.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle

LONG_KEY = "constraint.never-push-to-main-open-a-pr-aga.e31fdb"  # as the importer names a real rule


async def _store_with_a_long_key(tmp_path: Path) -> Path:
    rule = "Never push to main; open a PR against release/2.3 instead"
    records = [session_record(owner="t"), event_record(1, content=rule),
               {"type": "state", "session": "s1", "key": LONG_KEY, "kind": "constraint", "value": rule,
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": "migrate billing",
                "sources": ["evt:1"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Pushed the fix to main.", "covers": [1, 1], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    return store


async def test_the_field_timeline_shows_each_keys_mark_inside_the_pane(tmp_path: Path) -> None:
    """At 80×24 (pane about 28 wide) and 120×35 (about 45), a 50-character key put its ∅ past the
    pane's edge: the reviewer saw "goal.main / constraint.never-push-to-main…" and no verdict."""
    store = await _store_with_a_long_key(tmp_path)
    for size in ((80, 24), (120, 35)):
        app = InspectorApp(store, reviewer="t")
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await settle(app, pilot)
            lines = str(app.screen.query_one("#drift-timeline-text").render()).split("\n")
            width = app.screen.query_one("#drift-timeline").content_region.width
            rows = {key: next(line for line in lines if key[:20] in line) for key in (LONG_KEY, "goal.main")}
            for key, row in rows.items():
                seen = row[:width]
                assert "∅" in seen, (size, width, key, lines)


def test_the_rebuild_finds_an_edited_path_in_the_call_that_edited_it(tmp_path: Path) -> None:
    """``drift`` said an artifact's path was "in no event of the generation's range word for word
    (the record cites evt:2)" of the Edit call inside that range: the rebuild read events' text,
    and an edited file's path is only in the call's input."""
    path = "/home/u/proj/services/billing/migrate.py"
    records = [session_record(owner="t"), event_record(1, content="fix the time zones"),
               event_record(2, kind="tool_call", content=None, trust="model", call_id="c1", tool="Edit",
                            args={"file_path": path, "old_string": "utc=False", "new_string": "utc=True"}),
               event_record(3, kind="tool_result", content="The file has been updated.", trust="tool", call_id="c1"),
               {"type": "state", "session": "s1", "key": "artifact.migrate-py", "kind": "artifact", "value": path,
                "sources": ["evt:2"], "writer": "user", "version": 1, "status": "active"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Fixed the time zones.", "covers": [1, 3], "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1", "--json"]).output
    [rebuilt] = [r for r in json.loads(said)["rebuild"] if r["key"] == "artifact.migrate-py"]
    assert rebuilt["verbatim_in"] == ["evt:2"], rebuilt
    text = CliRunner().invoke(cli, ["drift", str(store), "--session", "s1"]).output
    assert f"artifact.migrate-py: “{path}” verbatim in evt:2" in text, text


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


def test_a_session_searched_in_part_is_never_said_not_to_hold_the_query(tmp_path: Path) -> None:
    """A 5 MB tool result with the word in its last line: ``search --all-sessions`` said "0 of 1
    session hold 'ZQXNEEDLE'" (the index reads a material's first 4 MiB), and one session's
    ``--json`` said ``"not_searched": {}``, which the README defines as "it looked everywhere"."""
    from inspector.store.schema import MATERIAL_INDEX_CAP

    big = "line of log text\n" * (MATERIAL_INDEX_CAP // 17 + 1000) + "ZQXNEEDLE at the end\n"
    src = write_sif(tmp_path / "a.jsonl", [
        session_record("s1", title="the long log"),
        event_record(1, content="find the needle"),
        {"type": "material", "session": "s1", "id": "res:big", "source_event": 1, "content": big}])
    store = tmp_path / "s.db"
    asyncio.run(import_file(src, store, actor="t"))
    one = json.loads(CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "ZQXNEEDLE", "--json"]).output)
    assert one["hits"] == [] and one["not_searched"] == {"materials_in_part": 1}, one
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


async def test_the_filed_notice_names_the_keys_that_carry_the_request_out(tmp_path: Path, monkeypatch: Any) -> None:
    """After filing, the notice said "x on it in Deletions": x is the key that opens that tab (open
    already), so pressing it did nothing; enter opens the request, and x there carries it out."""
    from textual.widgets import Input

    from inspector.ui.deletion_dialog import ConfirmDeletion, DeletionDialog
    from inspector.ui.request_deletion_dialog import RequestDeletionDialog
    from inspector.ui.widgets.notice_line import NoticeLine
    from inspector.ui.widgets.timeline_view import TimelineView

    store = await _store_with_a_long_key(tmp_path)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "t")
    app = InspectorApp(store, session="s1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        assert app.screen.query_one(TimelineView).current is not None
        await pilot.press("D")
        await settle(app, pilot)
        assert isinstance(app.screen, RequestDeletionDialog)
        app.screen.query_one(Input).value = "the user asked"
        app.screen.query_one(Input).focus()
        await pilot.press("enter")
        await settle(app, pilot)
        notice = " ".join(str(app.screen.query_one(NoticeLine).render()).split())  # at 80×24: the notice line
        assert "Filed deletion request del-1" in notice, notice
        assert "nothing is deleted until it is carried out: enter on it in Deletions, then x." in notice, notice
        await pilot.press("enter")  # as the notice says
        await settle(app, pilot)
        assert isinstance(app.screen, DeletionDialog)
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDeletion)
