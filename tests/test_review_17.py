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
    assert said["added"]["event"] == 20 and said["added"]["summary"] == 1, said
    assert said["summary_generations"] == [1], said
    text = CliRunner().invoke(cli, ["import", str(grown), "--into", str(plain_copy)])
    assert text.exit_code == 0 and "a compaction arrived: summary generation 1 of " in text.output, text.output
    assert "inspector drift " in text.output


def _long_request_transcript(path: Path, filler_lines: int) -> Path:
    """A Claude Code log: a user message of ``filler_lines`` pasted build-log lines with a rule in
    their middle, then an auto-compaction whose summary says the rule's opposite."""
    sid = "11111111-2222-3333-4444-555555555558"

    def rec(i: int, typ: str, body: Any = None, **extra: Any) -> dict[str, Any]:
        r = {"parentUuid": f"u{i - 1}" if i > 1 else None, "isSidechain": False, "userType": "external", "cwd": "/w",
             "sessionId": sid, "version": "2.0.76", "type": typ, "timestamp": f"2026-01-07T12:{i:02d}:00.000Z",
             "uuid": f"u{i}"}
        if body is not None:
            r["message"] = {"role": typ, "content": body}
        return {**r, **extra}

    filler = "Build log line: compiling module ok.\n" * filler_lines
    pasted = ("Now also speed up the export query.\n\n" + filler
              + "\nNever run migrations against the production database.\n" + filler)
    summary = ("This session is being continued from a previous conversation that ran out of context. The "
               "conversation is summarized below:\nThe user asked to fix the flaky export test in export_test.go. "
               "Now also speed up the export query. We may run migrations against the production database.")
    records = [rec(1, "user", "Fix the flaky export test in export_test.go."),
               rec(2, "assistant", [{"type": "text", "text": "Looking."}]), rec(3, "user", pasted),
               rec(4, "assistant", [{"type": "text", "text": "Noted."}]),
               rec(5, "system", subtype="compact_boundary", content="Conversation compacted", isMeta=False,
                   level="info", compactMetadata={"trigger": "auto", "preTokens": 1000}),
               rec(6, "user", summary, isCompactSummary=True)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("filler_lines", [20, 2000])
def test_a_user_message_the_rules_read_only_in_part_is_never_a_clear(tmp_path: Path, filler_lines: int) -> None:
    """A user pasted 148,000 characters of build log with "Never run migrations against the
    production database." in the middle; the summary says "We may run migrations against the
    production database". Whole (20 lines) check fails it; long (2,000 lines), the rules read its
    first 48,000 and last 16,000 characters only, the rule was never proposed, and check said
    "✓ clear" with no warning — a green over text nobody read. It is "?" now, in check, its
    --json, drift --json and the app's header count."""
    store = tmp_path / "s.db"
    source = _long_request_transcript(tmp_path / "long.jsonl", filler_lines)
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    sid = "11111111-2222-3333-4444-555555555558"
    assert CliRunner().invoke(cli, ["confirm", str(store), "--session", sid, "--all-pending",
                                    "--reviewer", "root"]).exit_code == 0
    checked = CliRunner().invoke(cli, ["check", str(store), "--json"])
    doc = json.loads(checked.stdout)
    if filler_lines == 20:  # read whole: the rule is a fact and the summary contradicts it
        assert doc["verdict"] == "failed"
        return
    assert doc["verdict"] == "unknown" and checked.exit_code == 0, doc
    (warning,) = [w for w in doc["sessions"][0]["warnings"] if w["code"] == "said_in_part"]
    assert "evt:3" in warning["message"] and "48,000" in warning["message"]
    drift = json.loads(CliRunner().invoke(cli, ["drift", str(store), "--session", sid, "--json"]).stdout)
    assert drift["verdict"] == "unknown" and drift["check"]["agrees"] is True
    text = CliRunner().invoke(cli, ["check", str(store)]).output
    assert text.startswith("? ") and "said_in_part" in text, text


async def test_the_header_counts_a_message_read_in_part(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(_long_request_transcript(tmp_path / "long.jsonl", 2000), store, actor="t")
    async with await open_store(store) as opened:
        _, badges = await overview.overview(opened, "11111111-2222-3333-4444-555555555558")
    assert badges.not_judged >= 1


def test_drift_never_says_no_drift_found_over_a_message_read_in_part(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    source = _long_request_transcript(tmp_path / "long.jsonl", 2000)
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "11111111-2222-3333-4444-555555555558"]).output
    first = said.splitlines()[0]
    assert "no drift found" not in first and "1 user message read only in part (said_in_part)" in first, said


def test_drift_says_a_user_message_read_in_part_once(tmp_path: Path) -> None:
    """The said_in_part warning and drift's older "! read in part" note said the same event twice."""
    store = tmp_path / "s.db"
    source = _long_request_transcript(tmp_path / "long.jsonl", 2000)
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    said = CliRunner().invoke(cli, ["drift", str(store), "--session", "11111111-2222-3333-4444-555555555558"]).output
    assert sum("evt:3" in line and "148,092 characters" in line for line in said.splitlines()) == 1, said


def test_a_whole_last_line_continued_is_not_called_unreadable(tmp_path: Path) -> None:
    """A log whose last line is whole JSON with no line end is imported (the record read); the agent
    then writes on that same line. The refusal (source_line_cut) is right, but it said the store
    "keeps that part as an unreadable line" — the store had read it as a record."""
    source = _long_request_transcript(tmp_path / "log.jsonl", 1)
    source.write_bytes(source.read_bytes().rstrip(b"\n"))
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    with source.open("ab") as out:
        out.write(b'{"type": "user"}\n')
    done = CliRunner().invoke(cli, ["import", str(source), "--into", str(store), "--json"])
    error = json.loads(done.stdout)["error"]
    assert done.exit_code == 3 and error["code"] == "source_line_cut", error
    assert "unreadable" not in error["message"] and "read it whole as a record" in error["message"], error["message"]
