"""Each hostile input the issue measured, as a test: the right exit code and sentence, no
traceback, the store unchanged (or, for a third-party transcript, the line shown as a problem)."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from inspector.cli.main import cli
from tests.conftest import file_sha, write_sif

SESSION = {"type": "session", "id": "s1", "title": "t", "adapter": "generic", "owner": "o"}


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, [*args])


def refused(result: Result, code: str, *words: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == 3, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    doc = json.loads(result.stdout)
    assert doc["error"]["code"] == code, doc
    for word in words:
        assert word in doc["error"]["message"], doc


@pytest.fixture
def store(tmp_path: Path) -> Path:
    base = write_sif(tmp_path / "base.jsonl", [SESSION, {"type": "event", "session": "s1", "seq": 1,
                                                          "kind": "user_message", "content": "hi"}])
    assert run("import", str(base), "--into", str(tmp_path / "s.db")).exit_code == 0
    return tmp_path / "s.db"


@pytest.mark.parametrize("what", ["fifo", "device", "directory"])
def test_only_regular_files_are_read(tmp_path: Path, store: Path, what: str) -> None:
    target = {"device": Path("/dev/zero"), "directory": tmp_path}.get(what, tmp_path / "pipe")
    if what == "fifo":
        os.mkfifo(target)
    before = file_sha(store)
    result = run("import", str(target), "--into", str(store), "--json")  # a FIFO would hang a plain read
    refused(result, "not_a_file", "not a regular file")
    assert file_sha(store) == before


def test_a_file_over_the_size_bound_is_refused(tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_MAX_IMPORT_BYTES", "100")
    src = write_sif(tmp_path / "big.jsonl", [SESSION, {"type": "event", "session": "s1", "seq": 2,
                                                        "kind": "user_message", "content": "x" * 200}])
    refused(run("import", str(src), "--into", str(store), "--json"), "too_large", "INSPECTOR_MAX_IMPORT_BYTES")


SIF_CASES = {
    "lone_surrogate": (b'{"type":"event","session":"s1","seq":2,"kind":"user_message","content":"a\\ud800"}',
                       "content"),
    "integer_out_of_range": (b'{"type":"event","session":"s1","seq":9223372036854775808,"kind":"other"}', "seq"),
    "duplicate_key": (b'{"type":"event","session":"s1","seq":2,"kind":"other","type":"session"}', "'type'"),
    "too_deep": (b'{"type":"event","session":"s1","seq":2,"kind":"other","args":' + b"[" * 100_000
                 + b"]" * 100_000 + b"}", "deep"),
}


@pytest.mark.parametrize("code", SIF_CASES)
def test_sif_refuses_what_a_store_cannot_keep_with_the_line_named(tmp_path: Path, store: Path, code: str) -> None:
    line, field = SIF_CASES[code]
    src = tmp_path / "bad.jsonl"
    src.write_bytes(b'{"type":"header","format":"sif/1"}\n' + json.dumps(SESSION).encode() + b"\n" + line + b"\n")
    before = file_sha(store)
    refused(run("import", str(src), "--into", str(store), "--json"), code, "line 3", field)
    assert file_sha(store) == before
    assert run("export", str(store), "-o", str(tmp_path / "out.jsonl")).exit_code == 0


def _claude(*extra: bytes) -> bytes:
    ok = json.dumps({"type": "user", "sessionId": "cc-1", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z",
                     "message": {"role": "user", "content": "hello"}}).encode()
    return b"\n".join([ok, *extra]) + b"\n"


CLAUDE_CASES = {
    "lone_surrogate": b'{"type":"user","sessionId":"cc-1","message":{"role":"user","content":"x\\udc00"}}',
    "integer_out_of_range": b'{"type":"progress","sessionId":"cc-1","n":99999999999999999999}',
    "duplicate_key": b'{"type":"user","sessionId":"cc-1","type":"summary"}',
    "too_deep": b'{"type":"progress","sessionId":"cc-1","data":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "wrong_field_type": b'{"type":"assistant","sessionId":"cc-1","message":{"id":"m","content":[{"type":"tool_use",'
                        b'"id":"t1","name":"Bash","input":"ls"}]}}',
    "unreadable_line": b'{"type":"user","sessionId":"cc-1","message":{"role":"us',
    "not_an_object": b'[1, 2]',
}


@pytest.mark.parametrize("code", CLAUDE_CASES)
def test_a_bad_line_of_a_transcript_is_a_problem_event_not_a_refusal(tmp_path: Path, code: str) -> None:
    src = tmp_path / "cc.jsonl"
    src.write_bytes(_claude(CLAUDE_CASES[code]))
    result = run("import", str(src), "--into", str(tmp_path / "s.db"), "--json")
    assert result.exit_code == 0, result.output
    problems = [p for p in json.loads(result.stdout)["problems"] if p["code"] == code]
    assert [p["line"] for p in problems] == [2], result.stdout
    if code == "wrong_field_type":
        assert "message.content[0].input" in problems[0]["message"]
    assert run("verify", str(tmp_path / "s.db")).exit_code == 0
    # The original is kept byte for byte, the bad line with it; nothing with a lone surrogate is stored.
    back = tmp_path / "back.jsonl"
    assert run("export", str(tmp_path / "s.db"), "--session", "cc-1", "--original", "-o", str(back)).exit_code == 0
    assert back.read_bytes() == src.read_bytes()
    assert run("export", str(tmp_path / "s.db"), "-o", str(tmp_path / "all.jsonl")).exit_code == 0


def test_a_whole_document_with_a_lone_surrogate_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "chat.conversation.json"
    src.write_bytes(b'[{"role":"user","content":"hi"},{"role":"assistant","content":"\\ud800"}]')
    refused(run("import", str(src), "--into", str(tmp_path / "s.db"), "--json"), "lone_surrogate", "[1].content")
    assert not (tmp_path / "s.db").exists()


def test_a_message_of_the_wrong_type_names_the_field(tmp_path: Path) -> None:
    src = tmp_path / "chat.conversation.json"
    src.write_bytes(json.dumps([{"role": "user", "content": "hi"},
                                {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": 5}}]}]).encode())
    result = run("import", str(src), "--into", str(tmp_path / "s.db"), "--json", "--from", "openai-chat")
    assert result.exit_code == 0, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["code"] == "wrong_field_type" and "[1].tool_calls[0].function.name" in problem["message"]


def test_an_eval_zip_bomb_is_refused_before_it_unpacks(tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("header.json", "{}")
        z.writestr("samples/1_epoch_1.json", b'{"id":1,"messages":[],"pad":"' + b" " * (48 << 20) + b'"}')
    src = tmp_path / "bomb.eval"
    src.write_bytes(buf.getvalue())
    assert src.stat().st_size < 200_000
    refused(run("import", str(src), "--into", str(tmp_path / "s.db"), "--json"), "too_large", "zip bomb")
    assert not (tmp_path / "s.db").exists()


def test_wrong_types_in_codex_and_inspect_logs_name_the_field(tmp_path: Path) -> None:
    rollout = [
        {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1"}},
        {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
         "payload": {"type": "function_call", "name": ["shell"], "call_id": "c1", "arguments": "{}"}},
        {"timestamp": 17, "type": "event_msg", "payload": {"type": "agent_message"}},
    ]
    src = tmp_path / "rollout.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in rollout) + "\n", encoding="utf-8")
    result = run("import", str(src), "--into", str(tmp_path / "c.db"), "--json")
    assert result.exit_code == 0, result.output
    problems = {p["line"]: p["message"] for p in json.loads(result.stdout)["problems"]}
    assert "payload.name" in problems[2] and "timestamp" in problems[3]

    log = {"version": 2, "eval": {"task": "t"}, "samples": [{"id": 1, "epoch": 1, "messages": [
        {"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok", "tool_calls": [{"id": 5}]}]}]}
    src = tmp_path / "log.json"
    src.write_text(json.dumps(log), encoding="utf-8")
    result = run("import", str(src), "--into", str(tmp_path / "i.db"), "--json")
    assert result.exit_code == 0, result.output
    (problem,) = json.loads(result.stdout)["problems"]
    assert problem["code"] == "wrong_field_type" and "samples[0].messages[1].tool_calls[0].id" in problem["message"]


REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions"
EVERY_FORMAT = {  # a file of each format, and whether it is read line by line (then a bad line is a problem)
    "claude-code/ee8f793bfeb9-0__summary_records.jsonl": True,
    "openai-chat/test_multiple_agent_tool_calls.conversation.json": False,
    "anthropic/test_anthropic_tool_with_thinking.conversation.json": False,
    "openai-responses/test_openai_responses_compact_messages.conversation.json": False,
    "deepseek/test_deepseek_deferred_capability_with_thinking.conversation.json": False,
    "inspect-ai/log_tool_call_error.json": False,
    "gemini-cli/9c53780d06b7-0__write_file_shell_thoughts.json": False,
}


@pytest.mark.parametrize("name", sorted(EVERY_FORMAT))
def test_a_lone_surrogate_in_any_format_is_never_stored(tmp_path: Path, name: str) -> None:
    if not (REAL / name).exists():
        pytest.skip(f"the real transcripts are not beside the project ({REAL / name})")
    data = (REAL / name).read_bytes()
    at = data.index(b'"', data.index(b'"content"') + len(b'"content"') + 1) + 1  # inside the first content string
    src = tmp_path / Path(name).name
    src.write_bytes(data[:at] + b"\\ud800" + data[at:])
    result = run("import", str(src), "--into", str(tmp_path / "s.db"), "--json")
    if EVERY_FORMAT[name]:
        assert result.exit_code == 0 and "lone_surrogate" in {p["code"] for p in json.loads(result.stdout)["problems"]}
        assert run("export", str(tmp_path / "s.db"), "-o", str(tmp_path / "out.jsonl")).exit_code == 0
    else:
        refused(result, "lone_surrogate", "surrogate")
        assert not (tmp_path / "s.db").exists()


def test_a_lone_surrogate_in_an_eval_archive_is_refused(tmp_path: Path) -> None:
    source = REAL / "inspect-ai" / "log_read_sample.eval"
    if not source.exists():
        pytest.skip(f"the real transcripts are not beside the project ({source})")
    out = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in original.infolist():
            body = original.read(info.filename)
            if info.filename.startswith("samples/") and b'"content"' in body:
                at = body.index(b'"', body.index(b'"content"') + len(b'"content"') + 1) + 1
                body = body[:at] + b"\\udc00" + body[at:]
            copy.writestr(info.filename, body)
    src = tmp_path / "bad.eval"
    src.write_bytes(out.getvalue())
    refused(run("import", str(src), "--into", str(tmp_path / "s.db"), "--json"), "lone_surrogate")
    assert not (tmp_path / "s.db").exists()
