"""A summary that names a path, file or code word the session never shows (``invented_identifier``).

Before: "Also edited /repo/export/pager.go and ran `make deploy-prod`" in a summary of a log
that never names either gave no finding. Real Claude Code transcripts often continue an
earlier conversation, so their summaries name files this log never shows (35 of 99
identifiers in the three real compaction summaries): there the rule says it cannot tell
(``identifier_unverified``, a warning), never "invented" and never a silent pass.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from inspector.domain.invented import invented, named_identifiers
from inspector.domain.log_start import claude_code_starts_whole
from inspector.services.drift import drift
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from tests.verdict_attack_cases import FAITHFUL, case, judge

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"


def test_only_what_looks_like_an_identifier_is_read() -> None:
    text = ("Edited /repo/export/stream.go and cmd/entire/cli/hooks.go; see config.yaml. Ran `go test ./...` "
            "and `TestExportBatch`, `deploy-prod`, `WithAgent()`. Read and/or write over TCP/IP on 2025/06/01; "
            "https://example.com/a/b/c.go is a link; e.g. the `main` branch, Node.js and v1.2.")
    names = {n.text for n in named_identifiers(text)}
    assert {"/repo/export/stream.go", "cmd/entire/cli/hooks.go", "config.yaml", "TestExportBatch", "deploy-prod",
            "WithAgent"} <= names
    assert not names & {"and/or", "TCP/IP", "2025/06/01", "main", "e.g", "v1.2"}
    assert not any("example.com" in n for n in names)


def test_a_shortened_or_lengthened_path_counts_as_named() -> None:
    evidence = "the file /users/x/repo/cmd/a.go has been updated. --- fail: testexportbatch"
    assert invented("Edited cmd/a.go and `TestExportBatch`.", evidence) == []
    assert invented("Edited /home/y/work/repo/cmd/a.go.", evidence) == []  # its file name is in the log
    assert [n.text for n in invented("Edited cmd/b.go.", evidence)] == ["cmd/b.go"]


async def test_an_invented_path_and_command_are_a_finding(tmp_path: Path) -> None:
    text = FAITHFUL + " Also edited /repo/export/pager.go and ran `make deploy-prod`."
    got = await judge(tmp_path, case("invented", text), case("faithful", FAITHFUL))
    found = got["invented"]["codes"].get("invented_identifier", [])
    assert found and found[0].severity == "finding"
    assert set(found[0].words) == {"/repo/export/pager.go", "deploy-prod"}
    assert "invented_identifier" not in got["faithful"]["codes"]
    assert "identifier_unverified" not in got["faithful"]["codes"]


def _whole_claude_code_file(path: Path, summary: str) -> Path:
    base = {"isSidechain": False, "userType": "external", "cwd": "/repo", "sessionId": "cc-whole", "version": "2.0.76"}
    recs = [
        {**base, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-01-07T11:00:00Z",
         "message": {"role": "user", "content": "fix the timeout in /repo/export/stream.go"}},
        {**base, "parentUuid": "u1", "type": "assistant", "uuid": "a1", "timestamp": "2026-01-07T11:00:01Z",
         "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {
             "file_path": "/repo/export/stream.go", "old_string": "a", "new_string": "b"}}]}},
        {**base, "parentUuid": "a1", "type": "user", "uuid": "u2", "timestamp": "2026-01-07T11:00:02Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                                  "content": "The file /repo/export/stream.go has been updated."}]}},
        {**base, "parentUuid": None, "logicalParentUuid": "u2", "type": "system", "subtype": "compact_boundary",
         "content": "Conversation compacted", "uuid": "b1", "timestamp": "2026-01-07T11:01:00Z", "level": "info",
         "compactMetadata": {"trigger": "auto", "preTokens": 1000}},
        {**base, "parentUuid": "b1", "type": "user", "uuid": "s1", "timestamp": "2026-01-07T11:01:00Z",
         "isCompactSummary": True, "isVisibleInTranscriptOnly": True,
         "message": {"role": "user", "content": summary}},
    ]
    path.write_text("\n".join(json.dumps(r) for r in recs) + "\n", encoding="utf-8")
    return path


async def test_a_whole_claude_code_log_gets_the_finding_and_its_own_summary_is_not_evidence(tmp_path: Path) -> None:
    summary = ("This session is being continued from a previous conversation. Edited /repo/export/stream.go; "
               "also rewrote /repo/export/pager.go.")
    src = _whole_claude_code_file(tmp_path / "whole.jsonl", summary)
    store = tmp_path / "whole.db"
    await import_file(src, store, actor="t")
    async with await open_store(store) as opened:
        findings = (await drift(opened, "cc-whole")).findings
    found = [f for f in findings if f.code == "invented_identifier"]
    assert found and found[0].words == ("/repo/export/pager.go",)


@pytest.mark.skipif(not REAL.exists(), reason="the real transcripts are not beside the project")
@pytest.mark.parametrize("name", ["a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl",
                                  "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"])
async def test_a_real_log_that_continues_an_earlier_conversation_says_it_cannot_tell(tmp_path: Path,
                                                                                      name: str) -> None:
    src = tmp_path / name
    shutil.copyfile(REAL / name, src)
    assert claude_code_starts_whole(src.read_text(encoding="utf-8")[:65536]) is False
    store = tmp_path / "real.db"
    await import_file(src, store, actor="t")
    async with await open_store(store) as opened:
        sid = (await opened.db.execute_fetchall("SELECT id FROM sessions"))[0][0]
        findings = (await drift(opened, sid)).findings
    codes = {f.code: f for f in findings}
    assert "invented_identifier" not in codes
    assert codes["identifier_unverified"].severity == "warning"
