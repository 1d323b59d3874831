"""Every importer, every field: a real transcript of each kind with a payload appended to every
string it holds (ids, tool names, cwd, models, titles, call ids, tool arguments, results, the
file's own name), imported and read back through the commands a reviewer runs.

Structural fields (record types, roles, kinds, timestamps, signatures) are left as they are so
the file still parses as its format; a link (a call id, a uuid) gets the same payload on both
sides, so pairing still works. Plain output must show every escape made visible, `--json`
must parse and print no raw control, C1, bidi, zero-width, variation-selector run or mark
flood, and nothing may end in a traceback (a 2,100-mark value once crashed `check`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.terminal_safe import is_terminal_safe

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
if not REAL.is_dir():
    pytest.skip(f"the real transcripts are not beside the project ({REAL})", allow_module_level=True)

PAYLOAD = ("\x1b]52;p;ZWNobyBvd25lZA==\x1b\\\x1b]2;TITLE\x07\x1b]8;;file:///etc/passwd\x07x\x1b]8;;\x07"
           "\x1b[1;1H\x1b[J\x1b[?1049h\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\\x9b2J\x9d0;t\x9c"
           "real\x08\x08fake\x07rm -rf /\rls \u202e\u2066abc\u2069a\u200d\u200bb"
           "hi\U000e0069\U000e0067x\ufe0f\ufe0e\U000e0100\U000e0101nul\x00\u2028Z" + "\u0301\u0336" * 300)
KEEP = {"type", "role", "subtype", "kind", "format", "status", "trust", "writer", "media_type",
        "disclosure_scope", "stop_reason", "content_hash", "encoding", "adapter", "scope", "requested_by",
        "stop_sequence", "level", "userType", "entrypoint", "version", "object", "finish_reason", "phase",
        "signature", "encrypted_content", "data", "definition_hash", "at", "timestamp", "created_at",
        "retrieved_at", "startTime", "lastUpdated", "created", "completed", "started", "started_at"}
TEMPLATES = {
    "claude-code": "claude-code/ee8f793bfeb9-0__summary_records.jsonl",
    "openai-chat": "openai-chat/test_multiple_agent_tool_calls.conversation.json",
    "openai-responses": "openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json",
    "anthropic": "anthropic/test_anthropic_tool_with_thinking.conversation.json",
    "deepseek": "deepseek/test_deepseek_deferred_capability_with_thinking.conversation.json",
    "gemini": "gemini-cli/9c53780d06b7-0__write_file_shell_thoughts.json",
    "inspect-ai": "inspect-ai/log_tool_call_error.json",
}
CODEX = [
    {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/repo"}},
    {"timestamp": "2026-01-01T00:00:00Z", "type": "turn_context", "payload": {"cwd": "/repo", "model": "gpt-5"}},
    {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "never push to main"}]}},
    {"timestamp": "2026-01-01T00:00:03Z", "type": "response_item", "payload": {
        "type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": "call_1"}},
    {"timestamp": "2026-01-01T00:00:04Z", "type": "response_item", "payload": {
        "type": "function_call_output", "call_id": "call_1", "output": "a.py"}},
    {"timestamp": "2026-01-01T00:00:06Z", "type": "compacted", "payload": {"message": "before", "replacement_history": []}},
]
VS_RUN = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}")


def poison(node: Any, key: str | None = None) -> Any:
    if isinstance(node, dict):
        return {k: poison(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [poison(v, key) for v in node]
    if isinstance(node, str) and key not in KEEP:
        if key == "arguments":  # JSON inside a string: poisoned inside too
            try:
                return json.dumps(poison(json.loads(node)))
            except ValueError:
                pass
        return node + PAYLOAD
    return node


def _hostile_file(folder: Path, fmt: str) -> Path:
    name = f"{fmt}-\x1b]0;x\x07\u202e"
    if fmt == "codex":
        path = folder / f"rollout-2026-01-01-{name}.jsonl"
        path.write_text("".join(json.dumps(poison(r), ensure_ascii=False) + "\n" for r in CODEX), encoding="utf-8")
        return path
    source = REAL / TEMPLATES[fmt]
    if fmt == "gemini":
        name = "session-" + name
    path = folder / (name + source.suffix)
    if source.suffix == ".jsonl":
        lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
        path.write_text("".join(json.dumps(poison(r), ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    else:
        path.write_text(json.dumps(poison(json.loads(source.read_text(encoding="utf-8"))), ensure_ascii=False),
                        encoding="utf-8")
    return path


def _inert(text: str) -> bool:
    flat = text.replace("\n", "").replace("\t", "")
    longest = run = 0
    for ch in flat:
        run = run + 1 if unicodedata.combining(ch) else 0
        longest = max(longest, run)
    return is_terminal_safe(flat) and not VS_RUN.search(flat) and longest <= 8


def _invoke(args: list[str], as_json: bool) -> str:
    result = CliRunner().invoke(cli, args, env={"INSPECTOR_REVIEWER": "rev"})
    assert result.exception is None or isinstance(result.exception, SystemExit), (args[0], repr(result.exception))
    out = result.stdout or ""
    if as_json and out.strip():
        json.loads(out)
    assert _inert(result.stderr or ""), (args[0], "stderr", (result.stderr or "")[:300])
    assert _inert(out), (args[0], out[:300])
    return out


@pytest.mark.parametrize("fmt", [*TEMPLATES, "codex"])
def test_every_field_of_every_importer_reaches_the_terminal_inert(tmp_path: Path, fmt: str) -> None:
    src = _hostile_file(tmp_path, fmt)
    store = str(tmp_path / "s.db")
    _invoke(["import", str(src), "--into", store], False)
    doc = json.loads(_invoke(["sessions", store, "--json"], True))
    sessions = [s["id"] for s in (doc["sessions"] if isinstance(doc, dict) else doc)]
    assert sessions
    for as_json in (False, True):
        flag = ["--json"] if as_json else []
        _invoke(["sessions", store, *flag], as_json)
        _invoke(["ledger", store, *flag], as_json)
        _invoke(["check", store, *flag], as_json)
        sid = sessions[0]
        for command in (["drift"], ["facts"], ["survival"], ["search", "a"]):
            _invoke([command[0], store, *command[1:], "--session", sid, *flag], as_json)
        _invoke(["history", store, "--session", sid, "--key", "k" + PAYLOAD, *flag], as_json)  # the error quotes it
        _invoke(["drift", store, "--session", sid + PAYLOAD, *flag], as_json)
