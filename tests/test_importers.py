"""Importing the transcripts people have, checked against the real files themselves."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import BadInput
from inspector.services import exporting
from inspector.services.channels import evidence, generations
from inspector.services.expanding import expand
from inspector.services.importing import import_file
from inspector.services.sessions import list_sessions
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
if not REAL.is_dir():
    pytest.skip(f"the real transcripts are not beside the project ({REAL})", allow_module_level=True)
CLAUDE = sorted((REAL / "claude-code").glob("*.jsonl"))
ALL = sorted(p for p in REAL.rglob("*") if p.is_file() and p.suffix != ".md")


def records_of(path: Path) -> list[tuple[int, dict]]:
    """Every JSON record in the file with its line number, read without our importer: a line
    may hold two records back to back (an interrupted write in a real file)."""
    decoder, out = json.JSONDecoder(), []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        pos = 0
        while pos < len(line.rstrip()):
            rec, pos = decoder.raw_decode(line, pos)
            out.append((number, rec))
    return out


def facts_of(path: Path) -> dict[str, object]:
    """What the file itself says, counted without our importer."""
    uses, results, signatures, compactions = set(), [], [], 0
    records = records_of(path)
    lines = [n for n, _ in records]
    for _, rec in records:
        if rec.get("isCompactSummary"):  # old ``summary`` records are titles, not compactions
            compactions += 1
        content = (rec.get("message") or {}).get("content") if isinstance(rec.get("message"), dict) else None
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                uses.add(block["id"])
            elif block.get("type") == "tool_result":
                results.append(block["tool_use_id"])
            elif block.get("type") == "thinking" and "signature" in block:
                signatures.append(block["signature"])
    return {"pairs": sum(1 for r in results if r in uses), "orphans": sum(1 for r in results if r not in uses),
            "unresolved": len(uses - set(results)), "signatures": signatures,
            "generations": compactions,
            "shared_lines": sorted({n for n in lines if lines.count(n) > 1})}


@pytest.mark.parametrize("path", CLAUDE, ids=lambda p: p.name[:24])
async def test_claude_code_counts_match_the_file(tmp_path: Path, path: Path) -> None:
    facts = facts_of(path)
    report = await import_file(path, tmp_path / "s.db", actor="t")
    assert report.format == "claude-code"
    codes = [p.code for p in report.problems]
    assert codes.count("orphan_result") == facts["orphans"]
    assert codes.count("unresolved_call") == facts["unresolved"]
    # A line holding two records is read whole (both records) and shown as a problem on that line.
    assert [p.line for p in report.problems if p.code == "several_records_on_line"] == facts["shared_lines"]
    (session,) = report.sessions
    async with await open_store(tmp_path / "s.db") as store:
        rows = await store.db.execute_fetchall(
            "SELECT COUNT(*) FROM events c WHERE c.session = ? AND c.kind = 'tool_call' AND EXISTS (SELECT 1 FROM events "
            "r WHERE r.session = c.session AND r.call_id = c.call_id AND r.kind = 'tool_result')", (session,))
        assert rows[0][0] == facts["pairs"]
        assert len(await generations(store, session)) == facts["generations"]
        assert (await verify_store(store)).ok


@pytest.mark.parametrize("path", CLAUDE, ids=lambda p: p.name[:24])
async def test_signatures_survive_export_byte_for_byte(tmp_path: Path, path: Path) -> None:
    await import_file(path, tmp_path / "s.db", actor="t")
    out = tmp_path / "out.jsonl"
    async with await open_store(tmp_path / "s.db") as store:
        await exporting.export_sif(store, out)
    exported = [item["data"] for line in out.read_text(encoding="utf-8").splitlines()
                for item in json.loads(line).get("continuation", []) if item["kind"] == "signature"]
    assert exported == facts_of(path)["signatures"]


@pytest.mark.parametrize("path", CLAUDE, ids=lambda p: p.name[:24])
def test_export_original_reproduces_the_file(tmp_path: Path, path: Path) -> None:
    store, out = tmp_path / "s.db", tmp_path / "back.jsonl"
    result = CliRunner().invoke(cli, ["import", str(path), "--into", str(store), "--json"])
    session = json.loads(result.stdout)["sessions"][0]
    result = CliRunner().invoke(cli, ["export", str(store), "--session", session, "--original", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(REAL))[:40])
async def test_every_real_file_imports_or_is_refused_with_a_reason(tmp_path: Path, path: Path) -> None:
    try:
        report = await import_file(path, tmp_path / "s.db", actor="t")
    except BadInput as refused:
        assert refused.code == "not_a_transcript" and "not a transcript" in refused.message
        assert path.suffix == ".yaml"  # recorded HTTP exchanges; everything else imports
        assert not (tmp_path / "s.db").exists()
        return
    assert report.added.get("event", 0) > 0


async def test_large_tool_results_are_stubs_expandable_by_range(tmp_path: Path) -> None:
    path = REAL / "claude-code" / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    report = await import_file(path, tmp_path / "s.db", actor="t")
    async with await open_store(tmp_path / "s.db") as store:
        mats = [m for m in await evidence(store, report.sessions[0]) if m.id.startswith("res:")]
        assert mats and all(m.size > 8 * 1024 and m.stubs for m in mats)
        stub = mats[0].stubs[0]
        result = await expand(store, stub.id, actor="t", byte_range=(100, 4196))
        assert result.ok and len(result.data) == 4096


async def test_deepseek_list_keeps_reasoning_and_flags_nothing_when_present(tmp_path: Path) -> None:
    path = REAL / "deepseek" / "test_deepseek_deferred_capability_with_thinking.conversation.json"
    report = await import_file(path, tmp_path / "s.db", actor="t")
    assert report.format == "deepseek" and report.problems == []
    async with await open_store(tmp_path / "s.db") as store:
        (info,) = await list_sessions(store)
        assert info.adapter == "deepseek-thinking-tools"


CODEX = [
    {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/repo"}},
    {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
     "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix the bug"}]}},
    {"timestamp": "2026-01-01T00:00:02Z", "type": "response_item",
     "payload": {"type": "reasoning", "summary": [], "encrypted_content": "gAAAAB-opaque=="}},
    {"timestamp": "2026-01-01T00:00:03Z", "type": "response_item",
     "payload": {"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": "call_1"}},
    {"timestamp": "2026-01-01T00:00:04Z", "type": "response_item",
     "payload": {"type": "function_call_output", "call_id": "call_1", "output": "a.py"}},
    {"timestamp": "2026-01-01T00:00:05Z", "type": "event_msg", "payload": {"type": "agent_message", "message": "done"}},
    {"timestamp": "2026-01-01T00:00:06Z", "type": "compacted",
     "payload": {"message": "", "replacement_history": [{"type": "message", "role": "user",
                                                         "content": [{"type": "input_text", "text": "fix the bug"}]}]}},
    {"timestamp": "2026-01-01T00:00:07Z", "type": "response_item",
     "payload": {"type": "function_call_output", "call_id": "call_0", "output": "from before the resume"}},
]


async def test_codex_rollout(tmp_path: Path) -> None:
    src = tmp_path / "rollout-2026-01-01-cx-1.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in CODEX) + "\n", encoding="utf-8")
    report = await import_file(src, tmp_path / "s.db", actor="t")
    assert report.format == "codex" and [p.code for p in report.problems] == ["orphan_result"]
    assert report.problems[0].line == 8  # the line in the rollout, not in a converted file
    out = tmp_path / "sif.jsonl"
    async with await open_store(tmp_path / "s.db") as store:
        gens = await generations(store, "cx-1")
        assert len(gens) == 1 and gens[0].covers == [1, 6]  # every event before the compaction line (7)
        await exporting.export_sif(store, out)
        await exporting.export_original(store, "cx-1", tmp_path / "back.jsonl")
    items = [item for line in out.read_text(encoding="utf-8").splitlines()
             for item in json.loads(line).get("continuation", [])]
    assert items == [{"kind": "encrypted_content", "data": "gAAAAB-opaque=="}]
    assert (tmp_path / "back.jsonl").read_bytes() == src.read_bytes()


async def test_inspect_ai_logs_one_session_per_sample(tmp_path: Path) -> None:
    path = REAL / "inspect-ai" / "2025-05-12T20-28-26-04-00_security-guide.json"
    report = await import_file(path, tmp_path / "s.db", actor="t")
    assert report.format == "inspect-ai" and len(report.sessions) == 3
    async with await open_store(tmp_path / "s.db") as store:
        rows = await store.db.execute_fetchall("SELECT content FROM events WHERE content LIKE 'attachment://%'")
        assert rows == []  # attachments were put back
        assert (await verify_store(store)).ok
