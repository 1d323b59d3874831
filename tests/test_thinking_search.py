"""A word only in thinking text (a Claude Code ``thinking`` block, kept as ``reasoning_content``)
is never a silent "no hits": a search of a session holding thinking text says how many events'
thinking it did not search — in the service, the CLI (plain and ``--json``) and the app."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle

WORD = "pelicanberry"  # only in event 2's thinking


def records() -> list[dict[str, Any]]:
    return [
        session_record("s1", owner="alice"), session_record("s2"),
        event_record(1, content="what should we do about the export?"),
        event_record(2, kind="assistant_message", trust="model", content="I will look at the export.",
                     reasoning_content=f"the {WORD} plan: stream it"),
        event_record(3, kind="assistant_message", trust="model", content="done", reasoning_content="short one"),
        event_record(4, kind="assistant_message", trust="model", content="empty thinking", reasoning_content=""),
        event_record(1, "s2", content=f"no thinking here, {WORD} in the text"),
    ]


async def _store(tmp_path: Path) -> Path:
    path = tmp_path / "t.db"
    await import_file(write_sif(tmp_path / "t.jsonl", records()), path, actor="t")
    return path


async def test_a_search_says_how_many_events_thinking_it_did_not_search(tmp_path: Path) -> None:
    path = await _store(tmp_path)
    async with await open_store(path) as store:
        result = await search(store, "s1", WORD)
        other = await search(store, "s2", WORD)
    assert result.hits == []
    assert result.not_searched == {"thinking_events": 2}  # events 2 and 3; an empty thinking has nothing to search
    assert result.as_dict()["not_searched"] == {"thinking_events": 2}
    assert result.not_searched_sentence() == "thinking text in 2 events was not searched"
    assert [h.ref for h in other.hits] == ["evt:1"]
    assert other.not_searched == {} and other.not_searched_sentence() == ""  # no thinking in s2: nothing to say


def test_the_cli_says_so_plain_and_in_json(tmp_path: Path) -> None:
    path = asyncio.run(_store(tmp_path))
    plain = CliRunner().invoke(cli, ["search", str(path), "--session", "s1", WORD])
    assert plain.exit_code == 0, plain.output
    assert "note: thinking text in 2 events was not searched" in plain.stdout
    found = CliRunner().invoke(cli, ["search", str(path), "--session", "s1", WORD, "--json"])
    assert json.loads(found.stdout)["not_searched"] == {"thinking_events": 2}
    quiet = CliRunner().invoke(cli, ["search", str(path), "--session", "s2", WORD, "--json"])
    assert json.loads(quiet.stdout)["not_searched"] == {}
    assert "not searched" not in CliRunner().invoke(cli, ["search", str(path), "--session", "s2", WORD]).stdout


async def test_the_apps_search_says_so(tmp_path: Path) -> None:
    path = await _store(tmp_path)
    app = InspectorApp(path, reviewer="alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        await pilot.press("/", *WORD)
        await settle(app, pilot)
        prompts = [str(evidence.records.get_option_at_index(i).prompt) for i in range(evidence.records.option_count)]
        assert any("thinking text in 2 events was not searched" in p for p in prompts), prompts
