"""A deletion removes what the targets said, not every event that shares their bookkeeping.

An importer writes beside each event where its line sits in the original, the model, message
ids and record types. Taken as values of a deleted message, those made every event of a real
Claude Code session a copy of it: deleting one user message removed all 207 events, while the
session's title, made from that very message, kept it (fresh-eyes review, F8)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import session_record, write_sif

REAL = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl")
MODEL = "claude-opus-4-5-20251101"


def _run(*args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "lin"})
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _event(seq: int, kind: str, content: str, **more: Any) -> dict[str, Any]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": kind, "content": content,
            "trust": "user" if kind == "user_message" else "model", "at": "2025-05-01T00:00:00Z", **more}


def test_shared_bookkeeping_fields_make_no_copies_and_the_title_made_from_the_target_is_rewritten(
        tmp_path: Path) -> None:
    origin = {"material": "original:session-file.jsonl", "format": "claude-code"}
    records = [
        session_record("s1", title="ship the fix"),
        _event(1, "user_message", "ship the fix", origin={**origin, "line": 1}),
        _event(2, "assistant_message", "On it.", model=MODEL, origin={**origin, "line": 2},
               record_type="assistant-message-record"),
        _event(3, "assistant_message", "Done.", model=MODEL, origin={**origin, "line": 3},
               record_type="assistant-message-record"),
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:2"], "requested_by": "user",
         "reason": "not wanted"},
        {"type": "deletion_request", "session": "s1", "id": "del-2", "targets": ["evt:1"], "requested_by": "user",
         "reason": "not wanted"},
    ]
    store = tmp_path / "s.db"
    CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "in.sif", records)), "--into", str(store)])

    first = _run("deletion", str(store), "del-1")
    assert [c["id"] for c in first["copies"] if c["where"] == "events"] == ["evt:2"]  # not evt:3, same model
    second = _run("deletion", str(store), "del-2")
    assert [c["id"] for c in second["copies"] if c["where"] == "events"] == ["evt:1"]
    assert any(c["where"] == "sessions" for c in second["copies"])  # the title is the message

    done = _run("delete", str(store), "del-2", "--reviewer", "lin")
    assert done["status"] == "done" and done["by_kind"]["event"] == 1
    titles = [s["title"] for s in _run("sessions", str(store))]
    assert "ship the fix" not in " ".join(titles)
    assert b"ship the fix" not in store.read_bytes()
    assert _run("verify", str(store))["ok"]


@pytest.mark.skipif(not REAL.exists(), reason=f"{REAL} is missing (../shared not beside the project)")
def test_deleting_one_message_of_a_real_claude_code_session_removes_that_message_only(tmp_path: Path) -> None:
    store, sif = tmp_path / "a.db", tmp_path / "a.sif"
    source = tmp_path / REAL.name
    source.write_bytes(REAL.read_bytes())
    CliRunner().invoke(cli, ["import", str(source), "--into", str(store)])
    CliRunner().invoke(cli, ["export", str(store), "-o", str(sif)])
    with sif.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"type": "deletion_request", "session": "0cf3db51-1c73-43bb-8d05-dc02739514a5",
                             "id": "del-1", "targets": ["evt:4"], "requested_by": "user", "reason": "r"}) + "\n")
    copy = tmp_path / "b.db"
    CliRunner().invoke(cli, ["import", str(sif), "--into", str(copy)])
    events_before = _run("sessions", str(copy))[0]["events"]

    plan = _run("deletion", str(copy), "del-1")
    assert [c["id"] for c in plan["copies"] if c["where"] == "events"] == ["evt:4"]
    done = _run("delete", str(copy), "del-1", "--reviewer", "lin")
    assert done["status"] == "done" and done["by_kind"]["event"] == 1
    after = _run("sessions", str(copy))[0]
    assert after["events"] == events_before - 1
    assert after["title"] != "commit this"  # the title was made from the deleted message
    assert _run("verify", str(copy))["ok"]
