"""``check`` repeats an act an imported sif file claimed but nobody made here (``unverified_act``).

The import takes such a record undecided and reports the claim once; ``check`` run later said
nothing of it, so a store whose file claimed "accepted" read as a clean ✓. The claim is a reason
the verdict is not one: a "?" line, a warning in --json, until a person decides the record here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_sif_forged_acts import HANDOFF, _base, _import


def _check(store: str, *more: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", store, *more], env={"INSPECTOR_REVIEWER": "alice"})
    return result.exit_code, result.stdout


@pytest.mark.parametrize("record", [
    {**HANDOFF, "status": "accepted"},
    {"type": "deletion_request", "session": "s1", "id": "d1", "targets": ["evt:1"], "reason": "r", "status": "done"},
    {"type": "action", "session": "s1", "id": "a1", "intent": "x", "status": "not_done"},
])
def test_check_repeats_the_claim_and_is_not_a_clean_green(tmp_path: Path, record: dict[str, Any]) -> None:
    store, _ = _import(tmp_path, [record])
    code, out = _check(store, "--json")
    (session,) = json.loads(out)["sessions"]
    assert session["verdict"] == "unknown" and code == 0
    assert [(c["type"], c["id"], c["claimed"]) for c in session["unverified_acts"]] == [
        (record["type"], record["id"], record["status"])]
    assert [w["id"] for w in session["warnings"] if w["code"] == "unverified_act"] == [record["id"]]
    _, plain = _check(store)
    assert plain.startswith("? s1") and f"! unverified_act {record['id']}:" in plain


def test_a_claim_decided_here_since_is_not_repeated(tmp_path: Path) -> None:
    store, _ = _import(tmp_path, [{**HANDOFF, "status": "accepted"}])
    decided = CliRunner().invoke(cli, ["accept-handoff", store, "h1"], env={"INSPECTOR_REVIEWER": "alice"})
    assert decided.exit_code == 0, decided.output
    (session, *_) = json.loads(_check(store, "--json")[1])["sessions"]
    assert session["unverified_acts"] == [] and not any(w["code"] == "unverified_act" for w in session["warnings"])


def test_a_file_that_claims_nothing_stays_clear(tmp_path: Path) -> None:
    store, _ = _import(tmp_path, [])
    assert _base()[0]["id"] == "s1"
    (session,) = json.loads(_check(store, "--json")[1])["sessions"]
    assert session["verdict"] == "clear" and session["unverified_acts"] == []
