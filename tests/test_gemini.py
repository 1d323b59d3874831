"""Gemini CLI chat files: detected, imported with thoughts as reasoning and calls paired with
their results, and the original written back byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.formats.detect import detect
from inspector.services import exporting
from inspector.services.channels import event_detail, original_text
from inspector.services.importing import import_file
from inspector.services.timeline import page
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "gemini-cli"

# Written from the public format (chatRecordingService's ConversationRecord): one JSON document,
# pretty-printed as the CLI writes it, with non-ASCII text, two thoughts, a call that succeeded,
# a call that failed, a call still running (no result yet) and a CLI notice.
WRITTEN = {
    "sessionId": "gem-ours-1",
    "projectHash": "0f" * 32,
    "startTime": "2026-02-01T09:00:00.000Z",
    "lastUpdated": "2026-02-01T09:00:09.000Z",
    "messages": [
        {"id": "m1", "timestamp": "2026-02-01T09:00:00.000Z", "type": "user",
         "content": "修复导出超时，不得改生产数据"},
        {"id": "m2", "timestamp": "2026-02-01T09:00:03.000Z", "type": "gemini",
         "content": "I will read the export log first.",
         "thoughts": [{"subject": "Reading the log", "description": "The timeout shows in export.log.",
                       "timestamp": "2026-02-01T09:00:01.000Z"},
                      {"subject": "Plan", "description": "Batch the export, one line per batch.",
                       "timestamp": "2026-02-01T09:00:02.000Z"}],
         "tokens": {"input": 900, "output": 40, "cached": 0, "thoughts": 25, "tool": 0, "total": 965},
         "model": "gemini-2.5-pro",
         "toolCalls": [
             {"id": "read_file-1", "name": "read_file", "args": {"absolute_path": "/srv/export.log"},
              "result": [{"functionResponse": {"id": "read_file-1", "name": "read_file",
                                               "response": {"output": "batch 1 ok\nbatch 2 timeout"}}}],
              "status": "success", "timestamp": "2026-02-01T09:00:04.000Z", "displayName": "ReadFile"},
             {"id": "run_shell_command-2", "name": "run_shell_command", "args": {"command": "psql prod"},
              "result": [{"functionResponse": {"id": "run_shell_command-2", "name": "run_shell_command",
                                               "response": {"error": "permission denied"}}}],
              "status": "error", "timestamp": "2026-02-01T09:00:05.000Z"},
         ]},
        {"id": "m3", "timestamp": "2026-02-01T09:00:06.000Z", "type": "info",
         "content": "Gemini CLI update available!"},
        {"id": "m4", "timestamp": "2026-02-01T09:00:08.000Z", "type": "gemini", "content": "",
         "toolCalls": [{"id": "write_file-3", "name": "write_file", "args": {"file_path": "docs/x.md"},
                        "status": "executing", "timestamp": "2026-02-01T09:00:09.000Z"}]},
    ],
}


def write(path: Path) -> Path:
    path.write_text(json.dumps(WRITTEN, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


async def test_a_written_session_imports_with_thoughts_and_paired_calls(tmp_path: Path) -> None:
    src = write(tmp_path / "session-2026-02-01T09-00-gem.json")
    assert detect(src.read_bytes(), src.name) == "gemini"
    report = await import_file(src, tmp_path / "s.db", actor="t")
    assert report.format == "gemini" and report.sessions == ["gem-ours-1"]
    # the call still executing has no result: shown as unresolved, never invented
    m4_line = src.read_text(encoding="utf-8").splitlines().index('      "id": "m4",')  # the line of its "{"
    assert [(p.code, p.line) for p in report.problems] == [("unresolved_call", m4_line)]
    async with await open_store(tmp_path / "s.db") as store:
        rows = [r for r in await page(store, "gem-ours-1", None, limit=100) if r.source == "event"]
        kinds = [(r.kind, r.call_id) for r in rows]
        assert kinds == [("user_message", None), ("assistant_message", None), ("tool_call", "read_file-1"),
                         ("tool_result", "read_file-1"), ("tool_call", "run_shell_command-2"),
                         ("tool_result", "run_shell_command-2"), ("system_message", None),
                         ("assistant_message", None), ("tool_call", "write_file-3")]
        assert rows[2].pair_seq == rows[3].seq and rows[3].pair_seq == rows[2].seq
        assert "reasoning" in rows[1].marks
        answer = await event_detail(store, "gem-ours-1", rows[1].seq)
        assert answer is not None
        assert answer["reasoning_content"] == ("Reading the log\nThe timeout shows in export.log.\n\n"
                                               "Plan\nBatch the export, one line per batch.")
        result = await event_detail(store, "gem-ours-1", rows[3].seq)
        assert result is not None and result["content"] == "batch 1 ok\nbatch 2 timeout"
        failed = await event_detail(store, "gem-ours-1", rows[5].seq)
        assert failed is not None and failed["content"] == "permission denied" and failed["is_error"] is True
        # the event points at its message in the kept original, read back verified
        first = await event_detail(store, "gem-ours-1", rows[0].seq)
        assert first is not None
        shown = await original_text(store, "gem-ours-1", first["origin"])
        assert shown is not None and json.loads(shown)["content"] == "修复导出超时，不得改生产数据"
        await exporting.export_original(store, "gem-ours-1", tmp_path / "back.json")
        assert (await verify_store(store)).ok
    assert (tmp_path / "back.json").read_bytes() == src.read_bytes()


def test_from_gemini_names_the_format_and_a_broken_file_is_refused(tmp_path: Path) -> None:
    src = write(tmp_path / "chat.json")
    ok = CliRunner().invoke(cli, ["import", str(src), "--into", str(tmp_path / "a.db"), "--from", "gemini", "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["format"] == "gemini"
    broken = tmp_path / "broken.json"
    broken.write_bytes(src.read_bytes()[:-40])
    bad = CliRunner().invoke(cli, ["import", str(broken), "--into", str(tmp_path / "b.db"), "--from", "gemini"])
    assert bad.exit_code == 3 and "Gemini CLI chat file" in bad.stderr
    assert not (tmp_path / "b.db").exists()


@pytest.mark.skipif(not REAL.is_dir(), reason=f"the real Gemini CLI files are not beside the project ({REAL})")
@pytest.mark.parametrize("path", sorted(REAL.glob("*.json")) if REAL.is_dir() else [], ids=lambda p: p.name[:20])
async def test_real_gemini_files(tmp_path: Path, path: Path) -> None:
    doc = json.loads(path.read_bytes())
    calls = [c for m in doc["messages"] for c in m.get("toolCalls") or []]
    thoughts = [m for m in doc["messages"] if m.get("thoughts")]
    report = await import_file(path, tmp_path / "s.db", actor="t")
    assert report.format == "gemini"
    session = doc["sessionId"]
    async with await open_store(tmp_path / "s.db") as store:
        rows = [r for r in await page(store, session, None, limit=1000) if r.source == "event"]
        assert sum(1 for r in rows if r.kind == "tool_call") == len(calls)
        assert sum(1 for r in rows if r.kind == "tool_result" and r.pair_seq is not None) == sum(
            1 for c in calls if c.get("result") is not None)
        assert sum(1 for r in rows if "reasoning" in r.marks) == len(thoughts)
        await exporting.export_original(store, session, tmp_path / "back.json")
        assert (await verify_store(store)).ok
    assert (tmp_path / "back.json").read_bytes() == path.read_bytes()
