"""The app's search lists what the agent ran: a hit in a tool call's input says so in the hit
list and in its detail (the offset is in that input, not in the event's text)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.test_app import settle

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code" / \
    "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"


async def test_a_hit_in_a_calls_input_says_where_it_matched(sample_store: Path) -> None:
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        await pilot.press("/", *"500")  # run_export(batch=500): the batch size is only in the call's input
        await settle(app, pilot)
        prompts = [str(evidence.records.get_option_at_index(i).prompt)
                   for i in range(evidence.records.option_count)]
        assert any(p.startswith("evt:4 call input of run_export · 1×") for p in prompts), prompts
        assert any("material text · " in p for p in prompts), prompts
        assert "match 1 of 1 at character 0 of the call input of run_export" in evidence.detail_content.plain


def test_the_cli_says_where_each_hit_matched(tmp_path: Path) -> None:
    if not REAL.is_file():
        pytest.skip(f"needs ../shared/real_sessions ({REAL} is missing)")
    path = tmp_path / "s.db"
    shutil.copy(REAL, tmp_path / "t.jsonl")
    assert CliRunner().invoke(cli, ["import", str(tmp_path / "t.jsonl"), "--into", str(path)]).exit_code == 0
    session = json.loads(CliRunner().invoke(cli, ["sessions", str(path), "--json"]).stdout)[0]["id"]
    found = CliRunner().invoke(cli, ["search", str(path), "--session", session, "git log --oneline", "--json"])
    assert found.exit_code == 0, found.output
    hits = json.loads(found.stdout)["hits"]
    assert [(h["ref"], h["matched"]) for h in hits] == [("evt:8", "call input of Bash")]
    plain = CliRunner().invoke(cli, ["search", str(path), "--session", session, "git log --oneline"])
    assert "evt:8" in plain.stdout and "call input of Bash" in plain.stdout
