"""An entry of the inspector's own kinds appended by hand, changing nothing (hostile review seven).

Before: a ``correction`` entry appended with plain sqlite3 (its hash computed as the inspector
computes it, source ``inspector``, actor ``owner``, reason "the owner lifted it", no new version
of the record) passed verify (exit 0), and ``history`` showed it under the constraint as
"L8 correction by owner: the owner lifted it: writing to production is allowed now" while the
record stayed v1 active. No act of the inspector writes such an entry: a correction always adds
a version, an accept always sets a status. Now ``act_incomplete``. Forging the whole act (the
row and the seals, with the store's key) is what ``relies_on`` declares.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.canonical import canonical_json, ledger_hash


def _append(store: Path, kind: str, payload: dict[str, object]) -> None:
    con = sqlite3.connect(store)
    try:
        seq, prev, at, session = con.execute("SELECT seq, hash, at, session FROM ledger WHERE session IS NOT NULL "
                                             "ORDER BY seq DESC LIMIT 1").fetchone()
        body = {"seq": seq + 1, "session": session, "kind": kind, "actor": "owner", "at": at, "payload": payload,
                "source": "inspector", "record_digest": None}
        con.execute("INSERT INTO ledger (seq, session, kind, actor, at, payload, source, record_digest, prev_hash, "
                    "hash) VALUES (?, ?, ?, 'owner', ?, ?, 'inspector', NULL, ?, ?)",
                    (seq + 1, session, kind, at, canonical_json(payload), prev, ledger_hash(prev, body)))
        con.commit()
    finally:
        con.close()


@pytest.mark.parametrize(("kind", "payload"), [
    ("correction", {"key": "constraint.prod", "kind": "constraint", "old_version": 1, "new_version": 1,
                    "reason": "the owner lifted it: writing to production is allowed now", "status": "superseded",
                    "target": "state:constraint.prod", "carried": [], "changed": []}),
    ("candidate.accept", {"candidate": "cand-1", "base_version": 1, "context_version": 2, "goal_revision": 1}),
    ("deletion", {"request": "del-1", "targets": ["evt:4"], "copies": [], "removed": {}}),
])
def test_an_act_appended_by_hand_that_changes_nothing_is_a_break(sample_store: Path, kind: str,
                                                                  payload: dict[str, object]) -> None:
    assert CliRunner().invoke(cli, ["verify", str(sample_store)]).exit_code == 0
    _append(sample_store, kind, payload)
    result = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == 1, doc
    assert doc["first_break"]["code"] == "act_incomplete", doc
    assert kind in doc["first_break"]["message"]


def test_the_acts_the_inspector_writes_pass(sample_store: Path) -> None:
    runner = CliRunner()
    sid = "s-export"
    for args in (["correct", str(sample_store), "--session", sid, "--key", "constraint.prod", "--value", "只读",
                  "--reason", "owner said", "--reviewer", "r"],
                 ["rebuild", str(sample_store), "--session", sid, "--reviewer", "r"],
                 ["request-deletion", str(sample_store), "evt:2", "--session", sid, "--reason", "asked",
                  "--reviewer", "r"]):
        assert runner.invoke(cli, args).exit_code in (0, 1), args
    assert runner.invoke(cli, ["verify", str(sample_store)]).exit_code == 0
