"""An id used in two sessions is ambiguous, not missing: every command that takes a record id
refuses it with ``ambiguous_id`` (exit 3, one sentence naming the sessions, nothing written)
and takes ``--session`` to say which one is meant."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import event_record, session_record, write_sif

TWIN = "s-twin"


@pytest.fixture
def twin_store(sample_store: Path, tmp_path: Path) -> Path:
    """The samples plus a second session whose action, candidate, handoff, stub and deletion
    request reuse ids of s-orders / s-export (ids are unique per session, not per store)."""
    records = [session_record(TWIN, owner="maria"),
               event_record(1, TWIN),
               {"type": "event", "session": TWIN, "seq": 2, "kind": "tool_call", "at": "2025-05-01T00:01:00Z",
                "trust": "model", "call_id": "c4", "tool": "apply_migration", "args": {"name": "0042"}},
               {"type": "event", "session": TWIN, "seq": 3, "kind": "tool_result", "content": "timeout",
                "at": "2025-05-01T00:02:00Z", "trust": "tool", "call_id": "c4", "tool": "apply_migration"},
               {"type": "action", "session": TWIN, "id": "a7", "intent": "apply_migration 0042", "call_id": "c4",
                "status": "unknown", "result_ref": "evt:3"}]
    source = write_sif(tmp_path / "twin.jsonl", records)
    done = CliRunner().invoke(cli, ["import", str(source), "--into", str(sample_store), "--json"])
    assert done.exit_code == 0, done.output
    return sample_store


def _ledger(store: Path) -> int:
    with sqlite3.connect(store) as db:
        return int(db.execute("SELECT COUNT(*) FROM ledger").fetchone()[0])


def _status(store: Path, session: str) -> str:
    with sqlite3.connect(store) as db:
        return str(db.execute("SELECT status FROM actions WHERE session = ? AND id = 'a7'", (session,)).fetchone()[0])


def test_reconcile_of_an_id_in_two_sessions_is_refused_as_ambiguous(twin_store: Path) -> None:
    args = ["reconcile", str(twin_store), "a7", "--status", "not_done", "--evidence", "evt:5", "--reason", "checked",
            "--reviewer", "maria"]
    before = _ledger(twin_store)
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "ambiguous_id", error
    assert "s-orders" in error["message"] and TWIN in error["message"] and "--session" in error["message"]
    assert _ledger(twin_store) == before and _status(twin_store, "s-orders") == _status(twin_store, TWIN) == "unknown"
    plain = CliRunner().invoke(cli, args)
    assert plain.exit_code == 3 and "Traceback" not in plain.output
    assert len(plain.stderr.strip().splitlines()) == 1 and "ambiguous" in plain.stderr, plain.stderr
    chosen = CliRunner().invoke(cli, [*args, "--session", "s-orders", "--json"])
    assert chosen.exit_code == 0, chosen.output
    assert _status(twin_store, "s-orders") == "not_done" and _status(twin_store, TWIN) == "unknown"
    assert CliRunner().invoke(cli, ["verify", str(twin_store)]).exit_code == 0


def test_an_id_missing_from_the_named_session_is_still_not_found(twin_store: Path) -> None:
    result = CliRunner().invoke(cli, ["reconcile", str(twin_store), "a9x", "--status", "not_done", "--evidence",
                                      "evt:5", "--reason", "r", "--reviewer", "maria", "--json"])
    assert result.exit_code == 3 and json.loads(result.stdout)["error"]["code"] == "not_found"
