"""Review 17: fresh eyes on the session's merges, as a user of the app, the CLI and the report.

Each test is one thing a person saw disagree between two places that should say the same.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.report.sections import header, three_channels
from inspector.services import overview
from inspector.services.importing import import_file
from inspector.services.report import report_data
from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store
from tests.test_open_file_unread_said import _transcript

REAL_CC = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"


async def test_the_reports_header_says_the_apps_verdict_with_its_count(imported_copy: Any) -> None:
    """A real auto-compaction (Claude Code 2.0.76): the app's header reads "? 2 warnings: not judged
    in full" (a name the log cannot confirm, a pending goal survival cannot judge), check says "?";
    the report's header said no "?" at all, and its generation said "? 1 warning: not judged in
    full" (drift's alone) — the same words as the app's header with another number."""
    source = REAL_CC / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip("the real transcripts (../shared/real_sessions) are not beside the project")
    store = imported_copy(source)
    async with await open_store(store) as opened:
        (info,) = await list_sessions(opened)
        _, badges = await overview.overview(opened, info.id)
        data = await report_data(opened, info.id)
    assert badges.not_judged == 2 and data["check"]["verdict"] == "unknown"
    top = header(data)
    assert "? 2 warnings: not judged in full" in top  # as the app's header says it
    channels = three_channels(data)
    # the generation's own badge counts drift's warnings only, and says so
    assert "? 1 drift warning: not judged in full" in channels
    assert "? 1 warning: not judged in full" not in channels


def test_check_strict_json_says_not_ok_when_it_exits_1(tmp_path: Path) -> None:
    """``check --strict --json`` on a session not judged in full exited 1 and printed "ok": true: a
    gate script reading the document passed what the exit code failed."""
    store = tmp_path / "s.db"
    asyncio.run(import_file(_transcript(tmp_path / "cut.jsonl"), store, actor="t"))  # a line it could not read
    strict = CliRunner().invoke(cli, ["check", str(store), "--strict", "--json"])
    doc = json.loads(strict.stdout)
    assert strict.exit_code == 1 and doc["verdict"] == "unknown"
    assert doc["ok"] is False and doc["strict"] is True
    plain = CliRunner().invoke(cli, ["check", str(store), "--json"])  # without --strict: "?" passes, as before
    assert plain.exit_code == 0 and json.loads(plain.stdout)["ok"] is True


def test_follow_once_says_the_compaction_its_catch_up_imported(tmp_path: Path) -> None:
    """``follow --once --summary`` (a script resuming from cron) imported the lines holding a real
    auto-compaction and ended with "summary_generations": [] — only the polling loop counted
    generations, so a run that caught up in one step never said one arrived."""
    source = REAL_CC / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip("the real transcripts (../shared/real_sessions) are not beside the project")
    lines = source.read_bytes().splitlines(keepends=True)
    grown, store = tmp_path / "grown.jsonl", tmp_path / "f.db"
    grown.write_bytes(b"".join(lines[:20]))  # before the compaction (its boundary is line 31)

    def follow() -> dict[str, Any]:
        done = CliRunner().invoke(cli, ["follow", str(grown), "--into", str(store), "--once", "--summary"])
        assert done.exit_code == 0, done.output
        return json.loads(done.stdout.splitlines()[-1])

    assert follow()["summary_generations"] == []
    with grown.open("ab") as out:
        out.write(b"".join(lines[20:40]))
    second = follow()
    assert second["summary_generations"] == [1] and second["first_seq"] == 20, second
    with grown.open("ab") as out:
        out.write(b"".join(lines[40:50]))
    assert follow()["summary_generations"] == []  # nothing new arrived: said as nothing


def test_import_of_an_appended_transcript_says_the_compaction_it_brought(tmp_path: Path) -> None:
    """``import FILE --into STORE`` again after the agent wrote on: the appended lines held a real
    auto-compaction, and the import said "20 new events" only (--json: added {"event": 20}) — the
    new summary generation drift and survival now judge went unsaid, as a first import says it."""
    source = REAL_CC / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip("the real transcripts (../shared/real_sessions) are not beside the project")
    lines = source.read_bytes().splitlines(keepends=True)
    grown, store = tmp_path / "grown.jsonl", tmp_path / "g.db"
    grown.write_bytes(b"".join(lines[:20]))
    assert CliRunner().invoke(cli, ["import", str(grown), "--into", str(store)]).exit_code == 0
    with grown.open("ab") as out:
        out.write(b"".join(lines[20:45]))
    plain_copy = tmp_path / "g2.db"
    plain_copy.write_bytes(store.read_bytes())
    doc = CliRunner().invoke(cli, ["import", str(grown), "--into", str(store), "--json"])
    assert doc.exit_code == 0, doc.output
    said = json.loads(doc.stdout)
    assert said["added"] == {"event": 20, "summary": 1} and said["summary_generations"] == [1], said
    text = CliRunner().invoke(cli, ["import", str(grown), "--into", str(plain_copy)])
    assert text.exit_code == 0 and "a compaction arrived: summary generation 1 of " in text.output, text.output
    assert "inspector drift " in text.output
