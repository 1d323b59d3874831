"""Drift findings are exact (a faithful generation gives none), and corrections are ledgered versions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import candidates, corrections
from inspector.services.drift import drift
from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.backend_master import BackendMaster, master_fixture
from tests.conftest import session_record, write_sif

S = "s1"


def state(key: str, kind: str, value: str, status: str = "active") -> dict:
    return {"type": "state", "session": S, "key": key, "kind": kind, "value": value, "status": status,
            "sources": ["evt:1"], "writer": "user"}


def gen(n: int, text: str, unresolved: list[str], claims: list[dict] | None = None, **more: object) -> dict:
    rec = {"type": "summary", "session": S, "generation": n, "kind": "recursive", "text": text,
           "unresolved": unresolved, "sources": ["evt:1"], "covers": [1, 2]}
    if claims is not None:
        rec["claims"] = claims
    return {**rec, **more}


FAITHFUL = "Goal: ship the export fix. Constraint: never touch production data."


async def _build(target: Path | str, folder: Path) -> None:
    """Corrections and drift run on both backends."""
    records = [
        session_record(S, owner="olga"),
        {"type": "event", "session": S, "seq": 1, "kind": "user_message", "trust": "user",
         "content": "ship the export fix; never touch production data; P95 untested"},
        {"type": "event", "session": S, "seq": 2, "kind": "assistant_message", "trust": "model",
         "content": "Noted."},  # the generations cover [1, 2]: a range past the last event is reported
        state("goal.main", "goal", "ship the export fix"),
        state("constraint.prod", "constraint", "never touch production data"),
        state("open_issue.p95", "open_issue", "P95 untested"),
        state("decision.mode", "decision", "streaming or paging?", "pending"),
        gen(1, FAITHFUL, ["P95 untested", "streaming or paging?"],
            [{"key": "constraint.prod", "text": "never touch production data", "sources": ["evt:1"]}]),
        gen(2, "Goal: ship the export fix. Constraint: be careful with production data.",
            ["P95 untested", "streaming or paging?"],
            [{"key": "constraint.prod", "text": "be careful with production data", "sources": ["evt:1"]}]),
        gen(3, "Goal: ship the export fix. P95 passed. We chose streaming.", []),
        {"type": "candidate", "session": S, "id": "c-old", "base_version": 1, "goal_revision": 1,
         "exact_fields": {"goal.main": "ship the export fix", "constraint.prod": "never touch production data"},
         "summary": FAITHFUL + " P95 untested", "sources": ["evt:1"]},
    ]
    await import_file(write_sif(folder / "d.jsonl", records), target, actor="t")


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


async def _codes(store: Path, generation: int) -> list[tuple[str, str | None]]:
    async with await open_store(store) as opened:
        report = await drift(opened, S, generation)
    return [(f.code, f.key) for f in report.findings]


async def test_faithful_generation_has_no_finding(store: Path) -> None:
    assert await _codes(store, 1) == []


async def test_reworded_constraint_with_a_claim_is_exactly_protected_rewritten(store: Path) -> None:
    assert await _codes(store, 2) == [("protected_rewritten", "constraint.prod")]


async def test_dropped_constraint_closed_issue_and_flattened_dispute(store: Path) -> None:
    assert await _codes(store, 3) == [("protected_missing", "constraint.prod"), ("open_issue_closed", "open_issue.p95"),
                                      ("dispute_flattened", "decision.mode"),
                                      ("open_issue_claimed_done", "open_issue.p95")]


async def test_unsourced_generation_is_a_warning(tmp_path: Path) -> None:
    records = [session_record(S), gen(1, "text", [], sources=[])]
    path = tmp_path / "u.db"
    await import_file(write_sif(tmp_path / "u.jsonl", records), path, actor="t")
    async with await open_store(path) as opened:
        report = await drift(opened, S)
    assert [(f.code, f.severity) for f in report.findings] == [("unsourced_assertion", "warning")]
    assert report.blocking == []


async def test_field_timeline_shows_each_key_per_generation(store: Path) -> None:
    async with await open_store(store) as opened:
        t = (await drift(opened, S)).timeline
    assert t.generations == [1, 2, 3]
    assert t.cells["constraint.prod"] == {1: "kept", 2: "rewritten", 3: "missing"}
    assert t.cells["open_issue.p95"] == {1: "kept", 2: "kept", 3: "missing"}
    assert t.cells["decision.mode"] == {1: "kept", 2: "kept", 3: "missing"}


async def test_correct_summary_makes_the_latest_generation_clean(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await corrections.correct_summary(opened, S, 3, FAITHFUL + " We have not chosen streaming yet.",
                                                reason="gen 3 drifted", actor="rev")
        assert (out.generation, out.parent) == (4, 3)
        report = await drift(opened, S)
        assert report.generation == 4 and report.findings == []
        assert (await verify_store(opened)).ok


async def test_reviewer_corrects_an_open_issue_and_stales_candidates(store: Path) -> None:
    async with await open_store(store) as opened:
        assert (await candidates.validate(opened, "c-old")).structure_verified
        out = await corrections.correct(opened, S, "open_issue.p95", "P95 untested on staging", reason="precise",
                                        actor="rev")
        assert (out.version, out.status, out.context_version) == (2, "active", 2)
        assert [r.code for r in (await candidates.validate(opened, "c-old")).refusals] == ["stale_base"]
        versions = await corrections.history(opened, S, "open_issue.p95")
        assert [(v["version"], v["status"]) for v in versions] == [(1, "superseded"), (2, "active")]
        assert versions[1]["acts"][0]["actor"] == "rev" and versions[1]["acts"][0]["reason"] == "precise"
        assert (await verify_store(opened)).ok


async def test_non_owner_constraint_change_stays_pending_until_the_owner_confirms(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await corrections.correct(opened, S, "constraint.prod", "never touch prod or backups", reason="r",
                                        actor="rev")
        assert out.status == "pending" and out.context_version == 1  # the active state did not change
        denied = await corrections.confirm(opened, S, "constraint.prod", actor="rev")
        assert [r.code for r in denied.refusals] == ["not_owner"]
        ok = await corrections.confirm(opened, S, "constraint.prod", actor="olga")
        assert (ok.status, ok.context_version) == ("active", 2)
        statuses = [(v["version"], v["status"]) for v in await corrections.history(opened, S, "constraint.prod")]
        assert statuses == [(1, "superseded"), (2, "active")]
        assert (await verify_store(opened)).ok


async def test_owner_goal_change_raises_goal_revision(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await corrections.correct(opened, S, "goal.main", "ship the export fix and a regression test",
                                        reason="scope grew", actor="olga")
        assert (out.status, out.context_version, out.goal_revision) == ("active", 2, 2)
        info = await get_session(opened, S)
        assert (info.context_version, info.goal_revision) == (2, 2)
        refusals = [r.code for r in (await candidates.validate(opened, "c-old")).refusals]
        assert "stale_goal" in refusals and "stale_base" in refusals
        assert (await verify_store(opened)).ok


def test_cli_drift_and_corrections(store: Path, tmp_path: Path) -> None:
    run = CliRunner().invoke
    out = run(cli, ["drift", str(store), "--session", S, "--json"])
    assert out.exit_code == 1 and [f["code"] for f in json.loads(out.stdout)["findings"]] == [
        "protected_missing", "open_issue_closed", "dispute_flattened", "open_issue_claimed_done"]
    assert run(cli, ["drift", str(store), "--session", S, "--generation", "1"]).exit_code == 0
    text = tmp_path / "fixed.txt"
    text.write_text(FAITHFUL + " Streaming or paging is still open.", encoding="utf-8")
    out = run(cli, ["correct-summary", str(store), "--session", S, "--generation", "3", "--text-file", str(text),
                    "--reason", "drift", "--reviewer", "rev", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["generation"] == 4
    assert run(cli, ["drift", str(store), "--session", S]).exit_code == 0
    out = run(cli, ["correct", str(store), "--session", S, "--key", "constraint.prod", "--value", "x", "--reason",
                    "r", "--reviewer", "rev", "--json"])
    assert json.loads(out.stdout)["status"] == "pending"
    out = run(cli, ["confirm", str(store), "--session", S, "--key", "constraint.prod", "--reviewer", "rev"])
    assert out.exit_code == 1
    out = run(cli, ["history", str(store), "--session", S, "--key", "constraint.prod", "--json"])
    assert [v["version"] for v in json.loads(out.stdout)] == [1, 2]
    assert run(cli, ["correct", str(store), "--session", S, "--key", "nope", "--value", "x", "--reason", "r",
                     "--reviewer", "rev"]).exit_code == 3
    assert run(cli, ["verify", str(store)]).exit_code == 0
