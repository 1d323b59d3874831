"""A transcript that changed since it was imported into this store: one sentence a person can act on.

Gemini CLI rewrites its session file as the session goes on (a message gains its tool calls
once they finish), so a later copy of the same session differs from what the store already
holds. Imported events never change, so nothing is merged — but the refusal read "line 3:
event 1 differs from an earlier record with the same identity": a line of the converted
records the person never sees, about an event they did not touch. It now names the file,
the session the store already holds, why the two differ, and what to do instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "gemini-cli"


def _gemini(messages: list[dict[str, object]]) -> dict[str, object]:
    return {"sessionId": "g-1", "projectHash": "p", "startTime": "2026-01-15T20:51:48.582Z",
            "lastUpdated": "2026-01-15T20:52:29.285Z", "messages": messages}


USER = {"id": "m1", "timestamp": "2026-01-15T20:51:48.600Z", "type": "user", "content": "make docs/blue.md"}
ANSWER = {"id": "m2", "timestamp": "2026-01-15T20:51:50.000Z", "type": "gemini", "content": "Reading docs first."}


def _import(path: Path, store: Path) -> tuple[int, dict[str, object]]:
    out = CliRunner().invoke(cli, ["import", str(path), "--into", str(store), "--json"], env={"INSPECTOR_REVIEWER": "t"})
    return out.exit_code, json.loads(out.stdout)


def test_a_rewritten_gemini_session_is_refused_in_a_sentence_that_says_why(tmp_path: Path) -> None:
    store, first, later = tmp_path / "s.db", tmp_path / "session-1.json", tmp_path / "session-2.json"
    first.write_text(json.dumps(_gemini([USER, ANSWER])), encoding="utf-8")
    grown = {**ANSWER, "toolCalls": [{"id": "read-1", "name": "read_file", "args": {"file_path": "docs/color.md"},
                                      "result": [{"functionResponse": {"id": "read-1", "name": "read_file",
                                                                       "response": {"output": "# Blue"}}}]}]}
    later.write_text(json.dumps(_gemini([USER, grown])), encoding="utf-8")
    assert _import(first, store)[0] == 0
    before = store.read_bytes()
    code, doc = _import(later, store)
    error = doc["error"]
    assert code == 3 and error["code"] == "conflicting_record" and error["line"] is None
    message = error["message"]
    assert "session-2.json" in message and "g-1" in message and "already holds session" in message and "says one of its records differently" in message
    assert "new store" in message and "line " not in message
    assert store.read_bytes() == before  # nothing merged


def test_the_two_real_snapshots_of_one_gemini_session(tmp_path: Path) -> None:
    files = sorted(REAL.glob("*.json")) if REAL.is_dir() else []
    if len(files) < 2:
        pytest.skip(f"needs the two Gemini CLI files in {REAL} (../shared/real_sessions)")
    store = tmp_path / "s.db"
    early, late = sorted(files, key=lambda p: json.loads(p.read_text(encoding="utf-8"))["lastUpdated"])
    assert _import(early, store)[0] == 0
    code, doc = _import(late, store)
    assert code == 3 and "already holds session" in doc["error"]["message"]
    # each version into a store of its own works
    assert _import(late, tmp_path / "late.db")[0] == 0
