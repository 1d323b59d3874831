"""Transcript variants as people's files have them in the wild, built from the real ones.

The real transcripts in ``../shared/real_sessions`` are a handful of versions of each tool.
A person's disk holds newer and older ones: content blocks a converter has not met
(``redacted_thinking``, ``image``, ``document``, ``server_tool_use``,
``web_search_tool_result``), tool results as lists of blocks, sub-agent records, several
compactions, record types added release after release, CRLF line ends, a last line cut
off by a session still running, a line of megabytes. Each variant here is a real file
with one such change made the way the tool makes it (the shapes follow FORMATS.md and the
providers' published schemas); nothing is written beside the shared folder — variants go
to ``/tmp/import-recheck/variants`` (or the folder given).

``python -m bench.import_variants [DIR]`` writes them and prints their names;
``bench/import_coverage.py`` imports each and measures what reached the store.
"""

from __future__ import annotations

import base64
import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.shared_dir import real_sessions

ROOT = Path(__file__).resolve().parents[1]
REAL = real_sessions(ROOT)  # beside this checkout, or beside the main one a worktree belongs to
OUT = Path("/tmp/import-recheck/variants")

CC_MANUAL = "claude-code/4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
CC_AUTO = "claude-code/a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
CC_SUMMARY = "claude-code/ee8f793bfeb9-0__summary_records.jsonl"
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(64))).decode("ascii")


def _dumps(rec: Any) -> str:
    return json.dumps(rec, ensure_ascii=False, separators=(",", ":"))


def _jsonl(path: str) -> list[dict[str, Any]]:
    out = []
    for line in (REAL / path).read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def _write_jsonl(records: list[dict[str, Any]], newline: str = "\n") -> bytes:
    return "".join(_dumps(r) + newline for r in records).encode("utf-8")


def _after(records: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool], new: list[dict[str, Any]],
           nth: int = 0) -> list[dict[str, Any]]:
    """``new`` inserted after the ``nth`` record matching ``pred``."""
    seen = 0
    for i, rec in enumerate(records):
        if pred(rec):
            if seen == nth:
                return records[:i + 1] + new + records[i + 1:]
            seen += 1
    return records + new


def _base(rec: dict[str, Any], **more: Any) -> dict[str, Any]:
    keep = {k: rec[k] for k in ("sessionId", "cwd", "version", "gitBranch", "userType", "isSidechain", "timestamp")
            if k in rec}
    return {**keep, **more}


# -- Claude Code ----------------------------------------------------------------------------------------------------

def cc_new_blocks() -> bytes:
    """A newer Claude Code: web search server tools, images and documents, redacted thinking,
    empty thinking text with a signature only (2.1.81+), tool results as block lists."""
    recs = _jsonl(CC_MANUAL)
    first_user = next(r for r in recs if r.get("type") == "user" and isinstance(r["message"]["content"], str))
    asst = next(r for r in recs if r.get("type") == "assistant")
    mid = "msg_variant_websearch_01"
    blocks = [
        {"type": "redacted_thinking", "data": "EqQBCkYIBxgCKkDredactedOpaquePayload=="},
        {"type": "thinking", "thinking": "", "signature": "EpYDCkYIBxgCKkBsignatureOnlyNoText=="},
        {"type": "text", "text": "Let me look up the release notes for Go 1.24 before changing go.mod."},
        {"type": "server_tool_use", "id": "srvtoolu_01WebSearchAbc", "name": "web_search",
         "input": {"query": "Go 1.24 release notes range over func iterators"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01WebSearchAbc", "content": [
            {"type": "web_search_result", "title": "Go 1.24 Release Notes - The Go Programming Language",
             "url": "https://go.dev/doc/go1.24", "encrypted_content": "EqgfCioIARgBIiQ3YTAwMjY1Mi1opaque",
             "page_age": "February 11, 2025"}]},
        {"type": "text", "text": "Go 1.24 adds generic type aliases; the toolchain directive must say go1.24.0.",
         "citations": [{"type": "web_search_result_location", "url": "https://go.dev/doc/go1.24",
                        "title": "Go 1.24 Release Notes", "cited_text": "Go 1.24 now fully supports generic type aliases",
                        "encrypted_index": "Eo8BCioIAhgBIiQyYjQ0opaque"}]},
    ]
    lines = []
    for i, block in enumerate(blocks):
        lines.append(_base(asst, parentUuid=None, type="assistant", uuid=f"aaaa0000-0000-4000-8000-00000000000{i}",
                           requestId="req_variant_websearch", message={
                               "model": asst["message"].get("model"), "id": mid, "type": "message", "role": "assistant",
                               "content": [block], "stop_reason": None, "stop_sequence": None}))
    user_img = _base(first_user, parentUuid=None, type="user", uuid="bbbb0000-0000-4000-8000-000000000001",
                     message={"role": "user", "content": [
                         {"type": "text", "text": "Here is a screenshot of the failing CI page; also read the attached spec."},
                         {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                         {"type": "document", "title": "checkpoint-spec.md", "context": "design notes from the wiki",
                          "source": {"type": "text", "media_type": "text/plain",
                                     "data": "Checkpoints must never reuse an id across sessions. Keep ids 12 hex digits."}},
                         {"type": "document", "title": "report.pdf",
                          "source": {"type": "base64", "media_type": "application/pdf", "data": PNG}},
                     ]})
    call = _base(asst, parentUuid=None, type="assistant", uuid="cccc0000-0000-4000-8000-000000000001",
                 requestId="req_variant_read", message={
                     "model": asst["message"].get("model"), "id": "msg_variant_read_01", "type": "message",
                     "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_variant_read_01",
                                                       "name": "Read", "input": {"file_path": "/repo/docs/ui.png"}}]})
    result = _base(first_user, parentUuid=None, type="user", uuid="cccc0000-0000-4000-8000-000000000002",
                   message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_variant_read_01",
                                                         "content": [
                                                             {"type": "text", "text": "Image read: /repo/docs/ui.png (640x480)"},
                                                             {"type": "image", "source": {"type": "base64",
                                                                                          "media_type": "image/png",
                                                                                          "data": PNG}}]}]},
                   toolUseResult={"type": "image", "file": {"filePath": "/repo/docs/ui.png", "originalSize": 1234}})
    return _write_jsonl(_after(recs, lambda r: r is first_user, [user_img, *lines, call, result]))


def cc_unknown_records() -> bytes:
    """Record types and system subtypes added after the converter was written, each carrying text."""
    recs = _jsonl(CC_MANUAL)
    anchor = next(r for r in recs if r.get("type") == "user")
    new = [
        _base(anchor, type="attachment", uuid="dddd0000-0000-4000-8000-000000000001", parentUuid=None,
              attachment={"type": "new_diagnostics", "content": "cmd/entire/checkpoint.go:41: unused variable 'idReuse'"}),
        _base(anchor, type="system", subtype="api_error", uuid="dddd0000-0000-4000-8000-000000000002", parentUuid=None,
              level="error", content="API Error: 529 Overloaded. Retrying in 8 seconds (attempt 2 of 10)",
              retryInMs=8000, retryAttempt=2),
        _base(anchor, type="system", subtype="informational", uuid="dddd0000-0000-4000-8000-000000000003",
              parentUuid=None, content="Memory updated in CLAUDE.md: always run go vet before committing"),
        {"type": "worktree-state", "sessionId": anchor["sessionId"], "worktreePath": "/repo/.worktrees/fix-reuse",
         "note": "Worktree created for branch fix/checkpoint-id-reuse"},
        {"type": "last-prompt", "sessionId": anchor["sessionId"], "lastPrompt": "commit the checkpoint id fix"},
        {"type": "ai-title", "sessionId": anchor["sessionId"], "aiTitle": "Fix checkpoint id reuse bug"},
        {"type": "agent-name", "sessionId": anchor["sessionId"], "agentName": "go-reviewer"},
        {"type": "permission-mode", "sessionId": anchor["sessionId"], "permissionMode": "acceptEdits"},
    ]
    return _write_jsonl(_after(recs, lambda r: r is anchor, new))


def cc_sidechain_agents() -> bytes:
    """Sub-agents: old ``isSidechain`` lines (agent-*.jsonl written into the main file) and
    2.1.x ``progress`` records with ``agent_progress`` carrying the sub-agent's messages."""
    recs = _jsonl(CC_MANUAL)
    anchor = next(r for r in recs if r.get("type") == "assistant")
    sid = anchor["sessionId"]
    side = [
        _base(anchor, type="user", isSidechain=True, agentId="a3ba710", uuid="eeee0000-0000-4000-8000-000000000001",
              parentUuid=None, message={"role": "user", "content": "Search the repo for every caller of NewCheckpointID "
                                                                      "and report which reuse the session id."}),
        _base(anchor, type="assistant", isSidechain=True, agentId="a3ba710", uuid="eeee0000-0000-4000-8000-000000000002",
              parentUuid=None, requestId="req_side_1", message={
                  "model": "claude-haiku-4-5", "id": "msg_side_01", "type": "message", "role": "assistant",
                  "content": [{"type": "text", "text": "Found 3 callers; only cmd/entire/resume.go reuses the session id."}]}),
    ]
    progress = [
        {"parentUuid": anchor["uuid"], "isSidechain": False, "sessionId": sid, "type": "progress",
         "uuid": "ffff0000-0000-4000-8000-000000000001", "timestamp": anchor["timestamp"],
         "toolUseID": "agent_msg_01", "parentToolUseID": "toolu_task_parent_01",
         "data": {"type": "agent_progress", "agentId": "b7c1e2f", "prompt": "Audit the retry logic in push.go",
                  "message": {"type": "assistant", "timestamp": anchor["timestamp"], "message": {
                      "role": "assistant", "content": [
                          {"type": "text", "text": "The retry loop in push.go never backs off after a 429."},
                          {"type": "tool_use", "id": "toolu_sub_grep_01", "name": "Grep",
                           "input": {"pattern": "retry", "path": "cmd/entire/push.go"}}]}}}},
        {"parentUuid": anchor["uuid"], "isSidechain": False, "sessionId": sid, "type": "progress",
         "uuid": "ffff0000-0000-4000-8000-000000000002", "timestamp": anchor["timestamp"],
         "toolUseID": "agent_msg_02", "parentToolUseID": "toolu_task_parent_01",
         "data": {"type": "agent_progress", "agentId": "b7c1e2f",
                  "message": {"type": "user", "timestamp": anchor["timestamp"], "message": {
                      "role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_sub_grep_01",
                                                   "content": "cmd/entire/push.go:88: for attempt := 0; attempt < 5; attempt++ {"}]}}}},
    ]
    return _write_jsonl(_after(recs, lambda r: r is anchor, side + progress))


def cc_two_compactions() -> bytes:
    """A long session compacted twice (and micro-compacted between): two summaries."""
    recs = _jsonl(CC_MANUAL)
    boundary = next(r for r in recs if r.get("subtype") == "compact_boundary")
    summary = next(r for r in recs if r.get("isCompactSummary"))
    last = recs[-1]
    micro = _base(last, type="system", subtype="microcompact_boundary", content="Context microcompacted", parentUuid=None,
                  uuid="1111aaaa-0000-4000-8000-000000000001", level="info",
                  microcompactMetadata={"trigger": "auto", "preTokens": 60888, "tokensSaved": 21091,
                                        "compactedToolIds": ["toolu_x1", "toolu_x2"], "clearedAttachmentUUIDs": []})
    b2 = {**copy.deepcopy(boundary), "uuid": "1111aaaa-0000-4000-8000-000000000002", "logicalParentUuid": last.get("uuid"),
          "timestamp": last.get("timestamp"), "compactMetadata": {"trigger": "auto", "preTokens": 171002}}
    s2 = copy.deepcopy(summary)
    s2.update(uuid="1111aaaa-0000-4000-8000-000000000003", parentUuid=b2["uuid"], timestamp=last.get("timestamp"))
    s2["message"]["content"] = ("This session is being continued from a previous conversation that ran out of context. "
                                "Summary: 1. The user asked to commit the checkpoint id fix on branch "
                                "alex/ent-112-checkpoint-id-reuse-bug. 2. Never force-push. 3. Tests in "
                                "cmd/entire/checkpoint_test.go pass.")
    after = _base(last, type="user", parentUuid=s2["uuid"], uuid="1111aaaa-0000-4000-8000-000000000004",
                  message={"role": "user", "content": "Now open the pull request, and do not touch the CHANGELOG."})
    return _write_jsonl(recs + [micro, b2, s2, after])


def cc_crlf_truncated() -> bytes:
    """A file copied through a Windows editor (CRLF) from a session still running: last line cut."""
    data = _write_jsonl(_jsonl(CC_AUTO), newline="\r\n")
    return data[: len(data) - 700]


def cc_long_line() -> bytes:
    """One tool result of 6 MB on one line (a `cat` of a build log), and an older file's summary records."""
    recs = _jsonl(CC_SUMMARY)
    i, res = next((i, r) for i, r in enumerate(recs) if r.get("type") == "user"
                  and isinstance(r["message"]["content"], list)
                  and any(b.get("type") == "tool_result" for b in r["message"]["content"]))
    big = copy.deepcopy(res)
    block = next(b for b in big["message"]["content"] if b.get("type") == "tool_result")
    log = "".join(f"[{n:07d}] ok   github.com/entireio/cli/cmd/entire/pkg{n % 97}\t0.{n % 10}1s\n" for n in range(90_000))
    block["content"] = log + "FAIL github.com/entireio/cli/cmd/entire/checkpoint 1.2s\n"
    big["toolUseResult"] = {"stdout": block["content"], "stderr": "", "interrupted": False, "isImage": False}
    recs[i] = big
    return _write_jsonl(recs)


# -- Codex rollouts (no real one exists here: written from FORMATS.md §6 and codex-rs's protocol) -------------------

def _cx(ts: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": ts, "type": kind, "payload": payload}


def codex_rollout() -> bytes:
    """A Codex rollout of cli 0.142: reasoning with summary text and content, structured tool
    output, apply_patch, local shell, web search, unknown items, two compactions (one with text)."""
    t = "2026-03-02T10:00:{:02d}.000Z"
    lines = [
        _cx(t.format(0), "session_meta", {"id": "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "timestamp": t.format(0),
                                          "cwd": "/home/mei/src/ledger", "originator": "codex_cli_rs",
                                          "cli_version": "0.142.0", "base_instructions": {"text": "You are Codex."}}),
        _cx(t.format(1), "turn_context", {"turn_id": "t1", "cwd": "/home/mei/src/ledger", "model": "gpt-5.5",
                                          "approval_policy": "on-request"}),
        _cx(t.format(2), "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Make the ledger export stream rows instead of loading them all. "
                                           "Do not change the public API of export_rows()."},
            {"type": "input_image", "image_url": "data:image/png;base64," + PNG}]}),
        _cx(t.format(3), "event_msg", {"type": "user_message", "message": "Make the ledger export stream rows instead "
                                       "of loading them all. Do not change the public API of export_rows().",
                                       "images": []}),
        _cx(t.format(4), "response_item", {"type": "reasoning", "id": "rs_01", "summary": [
            {"type": "summary_text", "text": "**Planning the streaming change**\n\nexport_rows builds a list first."}],
            "content": [{"type": "reasoning_text", "text": "I should switch to a generator and keep the signature."}],
            "encrypted_content": "gAAAAABopaqueReasoning=="}),
        _cx(t.format(5), "event_msg", {"type": "agent_reasoning", "text": "**Planning the streaming change**"}),
        _cx(t.format(6), "response_item", {"type": "function_call", "name": "shell", "call_id": "call_sh_1",
                                           "arguments": json.dumps({"command": ["bash", "-lc", "pytest -q tests/test_export.py"]})}),
        _cx(t.format(7), "response_item", {"type": "function_call_output", "call_id": "call_sh_1", "output": {
            "content": "F.\nFAILED tests/test_export.py::test_streams - MemoryError\n1 failed, 1 passed in 0.4s",
            "success": False}}),
        _cx(t.format(8), "event_msg", {"type": "exec_command_end", "call_id": "call_sh_1", "exit_code": 1,
                                       "aggregated_output": "F.\nFAILED tests/test_export.py::test_streams - MemoryError"}),
        _cx(t.format(9), "response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": "call_ap_1",
                                           "status": "completed",
                                           "input": "*** Begin Patch\n*** Update File: src/ledger/export.py\n@@\n-    rows = list(q)\n+    yield from q\n*** End Patch"}),
        _cx(t.format(10), "response_item", {"type": "custom_tool_call_output", "call_id": "call_ap_1",
                                            "output": json.dumps({"output": "Success. Updated the following files:\nM src/ledger/export.py",
                                                                  "metadata": {"exit_code": 0}})}),
        _cx(t.format(11), "response_item", {"type": "local_shell_call", "call_id": "call_ls_1", "status": "completed",
                                            "action": {"type": "exec", "command": ["git", "diff", "--stat"],
                                                       "working_directory": "/home/mei/src/ledger"}}),
        _cx(t.format(12), "response_item", {"type": "web_search_call", "id": "ws_01", "status": "completed",
                                            "action": {"type": "search", "query": "python sqlite3 iterate cursor memory"}}),
        _cx(t.format(13), "response_item", {"type": "function_call_output", "call_id": "call_mcp_1", "output": [
            {"type": "input_text", "text": "issue #482: export loads 2 GB into memory"},
            {"type": "input_image", "image_url": "data:image/png;base64," + PNG}]}),
        _cx(t.format(14), "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "export_rows now streams; the test passes.", "annotations": []}]}),
        _cx(t.format(15), "compacted", {"message": "Summary: export_rows streams via a generator; public API unchanged; "
                                        "tests/test_export.py passes.", "replacement_history": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Make the ledger export stream rows"}]}],
            "window_id": "w2", "window_number": 2}),
        _cx(t.format(16), "event_msg", {"type": "context_compacted"}),
        _cx(t.format(17), "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "Also add a --limit flag; only touch src/ledger/cli.py."}]}),
        _cx(t.format(18), "response_item", {"type": "mcp_tool_call", "call_id": "call_new_1", "server": "github",
                                            "tool": "create_issue", "arguments": {"title": "limit flag follow-up"}}),
        _cx(t.format(19), "ghost_snapshot", {"ghost_commit": {"id": "5e1f0c2", "parent": "a1b2c3d"}}),
        _cx(t.format(20), "compacted", {"message": "", "replacement_history": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Also add a --limit flag"}]},
            {"type": "compaction", "encrypted_content": "gAAAAABcompactionOpaque=="}]}),
    ]
    return _write_jsonl(lines)


# -- saved message lists --------------------------------------------------------------------------------------------

def anthropic_blocks() -> bytes:
    """An Anthropic Messages list with the blocks the API added: images, documents, server tools,
    tool results as block lists, citations, a compaction block, redacted thinking."""
    doc = json.loads((REAL / "anthropic/test_anthropic_tool_with_thinking.conversation.json").read_text(encoding="utf-8"))
    doc["messages"] = [
        {"role": "user", "content": [
            {"type": "text", "text": "What does this chart show? Answer in one sentence."},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "document", "title": "q3-report.txt",
             "source": {"type": "text", "media_type": "text/plain", "data": "Q3 revenue rose 12% to $4.1M."}}]},
        {"role": "assistant", "content": [
            {"type": "compaction", "content": "Earlier: the user asked for a revenue summary; must cite the report."},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgyRedactedOpaque=="},
            {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "Q3 revenue 4.1M"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
                {"type": "web_search_result", "title": "Quarterly results", "url": "https://example.com/q3",
                 "encrypted_content": "Eqg-opaque"}]},
            {"type": "text", "text": "Revenue rose 12% in Q3.", "citations": [
                {"type": "char_location", "cited_text": "Q3 revenue rose 12%", "document_index": 0,
                 "start_char_index": 0, "end_char_index": 19}]},
            {"type": "tool_use", "id": "toolu_chart_01", "name": "read_chart", "input": {"series": "revenue"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_chart_01", "content": [
                {"type": "text", "text": "series revenue: 3.66, 4.10"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]},
            {"type": "text", "text": "Never round the figures."}]},
        *doc["messages"],
    ]
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def openai_chat_parts() -> bytes:
    """Chat Completions with content parts, a refusal, an audio part, OpenRouter reasoning."""
    doc = json.loads((REAL / "openai-chat/test_openai_instructions_with_tool_calls_keep_instructions.conversation.json")
                     .read_text(encoding="utf-8"))
    items = doc["messages"] if isinstance(doc, dict) else doc
    extra = [
        {"role": "developer", "content": [{"type": "text", "text": "Answer in metric units only."}]},
        {"role": "user", "content": [
            {"type": "text", "text": "What is shown in this photo of the thermometer?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + PNG, "detail": "low"}},
            {"type": "input_audio", "input_audio": {"data": PNG, "format": "wav"}},
            {"type": "file", "file": {"filename": "readings.csv", "file_data": "data:text/csv;base64,"
                                      + base64.b64encode(b"day,temp\nmon,21\n").decode()}}]},
        {"role": "assistant", "content": None, "refusal": "I can't identify people in images.",
         "reasoning": "The photo shows a face next to the thermometer; I should refuse the person part.",
         "reasoning_details": [{"type": "reasoning.text", "text": "Checking whether a person is visible.",
                                "format": "openrouter"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "The thermometer reads 21 degrees Celsius."}],
         "audio": {"id": "audio_01", "transcript": "The thermometer reads twenty-one degrees."}},
        {"role": "tool", "tool_call_id": "call_missing", "content": [{"type": "text", "text": "21.0 C at 09:00"}]},
    ]
    items.extend(extra)
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def openai_responses_items() -> bytes:
    """Responses items the API added: reasoning content, refusals, built-in tool calls, MCP,
    structured function output, image generation, an item type nobody has met."""
    doc = json.loads((REAL / "openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json")
                     .read_text(encoding="utf-8"))
    doc["items"] += [
        {"type": "reasoning", "id": "rs_x1", "summary": [],
         "content": [{"type": "reasoning_text", "text": "The user wants the poem checked against the capitals list."}]},
        {"type": "message", "role": "assistant", "id": "msg_x1", "content": [
            {"type": "refusal", "refusal": "I can't include that name in the poem."},
            {"type": "output_text", "text": "Here is the checked poem.", "annotations": [
                {"type": "url_citation", "url": "https://example.org/capitals", "title": "World capitals"}]}]},
        {"type": "web_search_call", "id": "ws_x1", "status": "completed",
         "action": {"type": "search", "query": "list of national capitals starting with D"}},
        {"type": "file_search_call", "id": "fs_x1", "status": "completed", "queries": ["capitals starting with W"],
         "results": [{"file_id": "file_1", "filename": "capitals.txt", "text": "Warsaw, Washington, Wellington"}]},
        {"type": "mcp_call", "id": "mcp_x1", "server_label": "atlas", "name": "lookup_capital",
         "arguments": "{\"letter\": \"D\"}", "output": "Dhaka, Dodoma, Dublin, Dushanbe"},
        {"type": "function_call", "id": "fc_x2", "call_id": "call_x2", "name": "update_plan",
         "arguments": "{\"plan\": \"check line 7\"}"},
        {"type": "function_call_output", "call_id": "call_x2", "output": [
            {"type": "input_text", "text": "plan updated: line 7 checked"}]},
        {"type": "image_generation_call", "id": "ig_x1", "status": "completed", "result": PNG,
         "revised_prompt": "An acrostic poem on parchment"},
        {"type": "computer_call_output", "call_id": "call_cu_1", "output": {"type": "computer_screenshot",
                                                                           "image_url": "data:image/png;base64," + PNG}},
        {"type": "item_reference", "id": "msg_x1"},
    ]
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


def deepseek_variants() -> bytes:
    """DeepSeek with reasoning on a plain answer, content parts, a prefix-completion flag."""
    doc = json.loads((REAL / "deepseek/test_deepseek_deferred_capability_with_thinking.conversation.json")
                     .read_text(encoding="utf-8"))
    items = doc["messages"] if isinstance(doc, dict) else doc
    items += [
        {"role": "user", "content": [{"type": "text", "text": "Roll again, but never above 6."}]},
        {"role": "assistant", "content": "", "reasoning_content": "A second roll; the die has six faces so 6 is the cap.",
         "prefix": True},
    ]
    return json.dumps(doc, ensure_ascii=False, indent=1).encode("utf-8")


# -- Gemini CLI -----------------------------------------------------------------------------------------------------

def gemini_checkpoint() -> bytes:
    """A Gemini CLI checkpoint (``/chat save`` writes ``checkpoint-<tag>.json``): the API's
    Content list (``role`` user/model, ``parts`` with text, thought, functionCall, functionResponse)."""
    return json.dumps([
        {"role": "user", "parts": [{"text": "This is the Gemini CLI. We are setting up the context for our chat."}]},
        {"role": "model", "parts": [{"text": "Got it. Thanks for the context!"}]},
        {"role": "user", "parts": [{"text": "create docs/blue.md describing the colour blue; never touch docs/color.md"}]},
        {"role": "model", "parts": [
            {"text": "**Deciding the file**\nFollow the format of docs/color.md.", "thought": True},
            {"text": "I will create docs/blue.md."},
            {"functionCall": {"id": "write_file-1", "name": "write_file",
                              "args": {"file_path": "/repo/docs/blue.md", "content": "# Blue\nThe colour of the sky."}}}],
         "thoughtSignature": "CiQBopaqueSignature"},
        {"role": "user", "parts": [{"functionResponse": {"id": "write_file-1", "name": "write_file", "response": {
            "output": "Successfully created and wrote to new file: /repo/docs/blue.md."}}}]},
        {"role": "model", "parts": [{"text": "Created docs/blue.md."},
                                    {"inlineData": {"mimeType": "image/png", "data": PNG}},
                                    {"executableCode": {"language": "PYTHON", "code": "print(len('Blue'))"}},
                                    {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "4"}}]},
    ], ensure_ascii=False, indent=2).encode("utf-8")


def gemini_newer() -> bytes:
    """A newer Gemini CLI chat file: content as a part list, tool results with resultDisplay,
    error/warning notices, a message type not seen before, CRLF from a Windows machine."""
    doc = json.loads((REAL / "gemini-cli/9c53780d06b7-0__write_file_shell_thoughts.json").read_text(encoding="utf-8"))
    msgs = doc["messages"]
    msgs.append({"id": "v-1", "timestamp": msgs[-1]["timestamp"], "type": "user",
                 "content": [{"text": "now run the tests, and only use npm, never yarn"}]})
    msgs.append({"id": "v-2", "timestamp": msgs[-1]["timestamp"], "type": "gemini", "model": "gemini-3-pro-preview",
                 "content": [{"text": "Running the tests with npm."}],
                 "toolCalls": [{"id": "run_shell_command-9", "name": "run_shell_command", "args": {"command": "npm test"},
                                "status": "error", "timestamp": msgs[-1]["timestamp"],
                                "resultDisplay": "npm ERR! missing script: test",
                                "result": [{"functionResponse": {"id": "run_shell_command-9", "name": "run_shell_command",
                                                                 "response": {"error": "Command exited with code 1"}}}]}]})
    msgs.append({"id": "v-3", "timestamp": msgs[-1]["timestamp"], "type": "error",
                 "content": "[API Error: quota exceeded for gemini-3-pro-preview]"})
    msgs.append({"id": "v-4", "timestamp": msgs[-1]["timestamp"], "type": "compression",
                 "content": "Chat history compressed from 48210 to 9120 tokens.",
                 "summary": "<state_snapshot>The user wants docs/blue.md; tests run with npm only.</state_snapshot>"})
    return json.dumps(doc, ensure_ascii=False, indent=2).replace("\n", "\r\n").encode("utf-8")


def sif_crlf() -> bytes:
    """A sif/1 sample edited on Windows: CRLF line ends."""
    return (ROOT / "sample_sessions" / "01_export_timeout.jsonl").read_bytes().replace(b"\n", b"\r\n")


VARIANTS: dict[str, Callable[[], bytes]] = {
    "cc_new_blocks.jsonl": cc_new_blocks,
    "cc_unknown_records.jsonl": cc_unknown_records,
    "cc_sidechain_agents.jsonl": cc_sidechain_agents,
    "cc_two_compactions.jsonl": cc_two_compactions,
    "cc_crlf_truncated.jsonl": cc_crlf_truncated,
    "cc_long_line.jsonl": cc_long_line,
    "rollout-2026-03-02T10-00-00-0199a1b2.jsonl": codex_rollout,
    "anthropic_blocks.conversation.json": anthropic_blocks,
    "openai_chat_parts.conversation.json": openai_chat_parts,
    "openai_responses_items.conversation.json": openai_responses_items,
    "deepseek_more.conversation.json": deepseek_variants,
    "checkpoint-before-blue.json": gemini_checkpoint,
    "session-2026-01-15T20-51-newer.json": gemini_newer,
    "sif_crlf.jsonl": sif_crlf,
}


def real_files() -> list[Path]:
    """The real transcripts as they are (the baseline every variant is measured beside)."""
    keep = []
    for path in sorted(REAL.rglob("*")):
        if path.is_file() and path.suffix in (".jsonl", ".json", ".eval") and "recordings" not in path.parts:
            keep.append(path)
    return keep


def build(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for name, make in VARIANTS.items():
        path = out / name
        path.write_bytes(make())
        made.append(path)
    return made


if __name__ == "__main__":
    for made in build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT):
        print(made, made.stat().st_size)
