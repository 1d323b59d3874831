"""Evidence for a reconciliation, attacked with references the first tests did not try.

Found: the action's own call (the event that *started* it) was accepted as evidence of its
effect, though the rule is evidence observed after the action started; and ``evt:٦``
(an Arabic-Indic six) or ``evt:0006`` were accepted and written into the append-only
ledger as they were typed, so the entry names an event no reader or tool resolves the
same way. Now the call itself is refused ``evidence_before_action`` and an event reference
is ASCII digits, recorded as ``evt:N``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

BASE = ["--status", "succeeded", "--reason", "checked", "--reviewer", "bob", "--json"]


def _reconcile(store: Path, evidence: str) -> tuple[int, dict]:
    out = CliRunner().invoke(cli, ["reconcile", str(store), "a7", "--evidence", evidence, *BASE])
    return out.exit_code, json.loads(out.stdout)


def _status(store: Path) -> str:
    with sqlite3.connect(store) as db:
        return str(db.execute("SELECT status FROM actions WHERE session = 's-orders' AND id = 'a7'").fetchone()[0])


def test_the_call_that_started_the_action_is_not_evidence_of_its_effect(sample_store: Path) -> None:
    code, out = _reconcile(sample_store, "evt:4")  # a7's call c4 is event 4
    assert code == 1 and [r["code"] for r in out["refusals"]] == ["evidence_before_action"]
    assert _status(sample_store) == "unknown"


def test_an_event_reference_is_ascii_digits_and_is_recorded_as_evt_n(sample_store: Path) -> None:
    for odd in ("evt:\u0666", "evt:\uff16", "evt:+6", "evt:6\u200b"):
        code, out = _reconcile(sample_store, odd)
        assert code == 1 and [r["code"] for r in out["refusals"]] == ["evidence_missing"], odd
        assert _status(sample_store) == "unknown"
    code, out = _reconcile(sample_store, " evt:0006 ")
    assert code == 0 and out["evidence"] == "evt:6"
    with sqlite3.connect(sample_store) as db:
        payload = json.loads(db.execute("SELECT payload FROM ledger WHERE kind = 'action.reconcile'").fetchone()[0])
    assert payload["evidence"] == "evt:6"
    assert CliRunner().invoke(cli, ["verify", str(sample_store)]).exit_code == 0
