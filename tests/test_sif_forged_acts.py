"""A sif/1 file is untrusted input: the acts it claims are not taken as acts here.

Before: a handoff written `"status": "accepted"` imported accepted with no accept act (the
Handoffs tab showed it decided, `accept-handoff` refused `already_decided`, and it blocked
every other handoff of the session); a deletion request written `"done"` made `delete` refuse
while the content it targets was still stored; a candidate `accepted`, an action `not_done`
(a reconciliation) likewise. A ledger line claiming the accept changed nothing of that. And
`handoff` said "acceptable" for a handoff whose new session id the file had already used
(itself, or another session), which `accept-handoff` then refused.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"


def _base() -> list[dict[str, Any]]:
    return [{"type": "session", "id": "s1", "title": "t", "owner": "alice", "created_at": AT},
            {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
             "content": "fix it; call 138-0013-8000"},
            {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": "fix it",
             "sources": ["evt:1"], "writer": "user", "at": AT}]


HANDOFF = {"type": "handoff", "session": "s1", "id": "h1", "to_session": "s2", "goal_revision": 1,
           "context_version": 1, "material": {"goal": "fix it", "exact_fields": {"goal.main": "fix it"}},
           "tool_mapping": {}}
FORGED_ACT = {"type": "ledger", "session": "s1", "kind": "handoff.accepted", "actor": "alice", "at": AT,
              "payload": {"handoff": "h1", "status_set": {"type": "handoff", "identity": ["s1", "h1"],
                                                          "status": "accepted"}}}


def _run(*args: str) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "alice"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def _import(tmp_path: Path, extra: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    store = str(tmp_path / "s.db")
    code, report = _run("import", str(write_sif(tmp_path / "f.jsonl", _base() + extra)), "--into", store)
    assert code == 0, report
    return store, report


@pytest.mark.parametrize("record, claimed, kept", [
    ({**HANDOFF, "status": "accepted"}, "accepted", "pending"),
    ({**HANDOFF, "status": "rejected"}, "rejected", "pending"),
    ({"type": "candidate", "session": "s1", "id": "c1", "base_version": 1, "goal_revision": 1,
      "exact_fields": {"goal.main": "fix it"}, "open_actions": [], "unknowns": [], "summary": "x",
      "sources": ["evt:1"], "status": "accepted"}, "accepted", "pending"),
    ({"type": "deletion_request", "session": "s1", "id": "d1", "targets": ["evt:1"], "reason": "r",
      "status": "done"}, "done", "pending"),
    ({"type": "action", "session": "s1", "id": "a1", "intent": "x", "status": "not_done"}, "not_done", "unknown"),
])
def test_a_decided_status_in_a_file_is_not_taken_as_an_act(tmp_path: Path, record: dict[str, Any], claimed: str,
                                                           kept: str) -> None:
    store, report = _import(tmp_path, [record])
    problems = [p for p in report["problems"] if p["code"] == "unverified_act"]
    assert len(problems) == 1 and problems[0]["line"] == 5 and record["id"] in problems[0]["message"]
    table = {"handoff": "handoffs", "candidate": "candidates", "deletion_request": "deletion_requests",
             "action": "actions"}[record["type"]]
    db = sqlite3.connect(store)
    assert db.execute(f"SELECT status FROM {table} WHERE id = ?", (record["id"],)).fetchone()[0] == kept
    db.close()
    entries = _run("ledger", store)[1]
    assert [{"type": record["type"], "id": record["id"], "claimed": claimed}] in [
        e["payload"].get("unverified_acts") for e in entries]
    assert _run("verify", store)[0] == 0


def test_a_forged_accept_act_in_the_file_does_not_decide_the_handoff(tmp_path: Path) -> None:
    store, _ = _import(tmp_path, [{**HANDOFF, "status": "accepted"}, FORGED_ACT])
    code, doc = _run("handoff", store, "h1")
    assert doc["acceptable"] is True and code == 0  # pending: a person here decides
    code, decided = _run("accept-handoff", store, "h1")
    assert code == 0 and decided["status"] == "accepted" and decided["new_session"] == "s2"


def test_a_done_deletion_in_the_file_still_deletes(tmp_path: Path) -> None:
    store, _ = _import(tmp_path, [{"type": "deletion_request", "session": "s1", "id": "d1", "targets": ["evt:1"],
                                   "reason": "r", "status": "done"}])
    code, doc = _run("delete", store, "d1")
    assert code == 0 and doc["status"] == "done"
    assert b"138-0013-8000" not in Path(store).read_bytes()


@pytest.mark.parametrize("extra", [
    [{**HANDOFF, "to_session": "s1"}],  # onto itself
    [HANDOFF, {"type": "session", "id": "s2", "title": "other", "owner": "mallory", "created_at": AT}],
    [HANDOFF, {"type": "session", "id": "s2", "title": "t2", "owner": "alice", "created_at": AT},
     {**HANDOFF, "session": "s2", "id": "h2", "to_session": "s1"}],  # a cycle
])
def test_handoff_says_refused_when_its_new_session_already_exists(tmp_path: Path, extra: list[dict[str, Any]]) -> None:
    store, _ = _import(tmp_path, extra)
    code, doc = _run("handoff", store, "h1")
    assert code == 1 and doc["acceptable"] is False
    assert [c["name"] for c in doc["checks"] if not c["ok"]] == ["new session id free"]
    assert _run("accept-handoff", store, "h1")[0] == 1


def test_a_repeated_id_that_differs_is_refused_whole(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    code, doc = _run("import", str(write_sif(tmp_path / "f.jsonl", _base() + [
        HANDOFF, {**HANDOFF, "material": {"goal": "something else"}}])), "--into", str(store))
    assert code == 3 and doc["error"]["code"] == "conflicting_record" and not store.exists()
