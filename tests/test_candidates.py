"""Candidate review: every refusal and warning code, accept/reject, and decided-once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.exact import compare_exact
from inspector.services import candidates
from inspector.services.importing import import_file
from inspector.services.sessions import get_session, session_ledger
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.backend_sql import run_sql
from tests.conftest import session_record, write_sif


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store

EXPECTED = {
    ("s-export", "cand-good"): ([], []),
    ("s-export", "cand-stale"): (["stale_base"], []),
    ("s-export", "cand-goal"): (["stale_goal"], []),
    ("s-export", "cand-space"): (["exact_fields_changed"], []),
    ("s-export", "cand-actions"): (["open_actions_mismatch"], []),
    ("s-export", "cand-unknowns"): (["unknowns_mismatch"], []),
    ("s-export", "cand-notext"): (["summary_not_text"], ["open_issue_not_marked"]),
    ("s-export", "cand-warn"): ([], ["open_issue_not_marked", "unsourced_assertion"]),
    ("s-weather", "cand-ds"): (["rewrite_not_allowed"], []),
    ("s-injected", "cand-inj"): (["not_at_boundary"], ["untrusted_instruction"]),
    ("s-privacy", "cand-pii"): ([], ["sensitive_data"]),
}


@pytest.mark.parametrize("backend", ["sqlite"])  # PostgreSQL: all of them in one database, below
@pytest.mark.parametrize(("session", "cand"), sorted(EXPECTED))
async def test_each_sample_candidate_gets_exactly_its_codes(sample_store: Path, session: str, cand: str) -> None:
    async with await open_store(sample_store) as store:
        await _check_codes(store, session, cand)


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_each_sample_candidate_gets_exactly_its_codes_on_postgresql(sample_store: str) -> None:
    async with await open_store(sample_store) as store:
        for session, cand in sorted(EXPECTED):
            await _check_codes(store, session, cand)


async def _check_codes(store, session: str, cand: str) -> None:  # type: ignore[no-untyped-def]
    v = await candidates.validate(store, cand, session)
    refusals, warnings = EXPECTED[(session, cand)]
    assert [r.code for r in v.refusals] == refusals, (session, cand)
    assert [w.code for w in v.warnings] == warnings, (session, cand)
    assert v.structure_verified is (not refusals)
    assert v.as_dict()["semantic_lossless"] == "unknown"
    assert all(r.message.endswith((".", ")")) for r in v.refusals + v.warnings)


def test_exact_comparison_explains_invisible_differences() -> None:
    diffs = compare_exact({"a": "caf\u00e9", "b": "2 秒", "c": "x"}, {"a": "cafe\u0301", "b": "2秒", "d": "y"})
    by_key = {d.key: d for d in diffs}
    assert "Unicode normalisation" in by_key["a"].explanation
    assert "white space" in by_key["b"].explanation
    assert by_key["c"].kind == "missing" and by_key["d"].kind == "extra"


async def test_pending_decision_must_be_marked(tmp_path: Path) -> None:
    records = [
        session_record(),
        {"type": "state", "session": "s1", "key": "decision.db", "kind": "decision", "value": "选 A 还是 B", "status": "pending"},
        {"type": "candidate", "session": "s1", "id": "c", "base_version": 1, "goal_revision": 1, "exact_fields": {},
         "summary": "决定用 A。", "sources": ["evt:1"]},
    ]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    async with await open_store(store) as opened:
        v = await candidates.validate(opened, "c")
    assert [w.code for w in v.warnings] == ["open_issue_not_marked"] and "选 A 还是 B" in v.warnings[0].message


async def test_in_flight_action_is_not_a_boundary(tmp_path: Path) -> None:
    records = [session_record(),
               {"type": "action", "session": "s1", "id": "a1", "status": "in_flight"},
               {"type": "candidate", "session": "s1", "id": "c", "base_version": 1, "goal_revision": 1,
                "exact_fields": {}, "summary": "s", "sources": ["evt:1"]}]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    async with await open_store(store) as opened:
        v = await candidates.validate(opened, "c")
    assert [r.code for r in v.refusals] == ["not_at_boundary"] and "a1" in v.refusals[0].message


async def test_accept_bumps_the_version_once_and_stales_the_others(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        decision = await candidates.accept(store, "cand-good", actor="lin")
        assert decision.validation.status == "accepted" and decision.context_version == 5
        assert (await get_session(store, "s-export")).context_version == 5
        again = await candidates.accept(store, "cand-good", actor="lin")
        assert [r.code for r in again.validation.refusals][0] == "already_decided"
        other = await candidates.validate(store, "cand-warn")
        assert [r.code for r in other.refusals] == ["stale_base"]
        rejected = await candidates.reject(store, "cand-stale", actor="mo", reason="old base")
        assert rejected.validation.status == "rejected"
        assert [r.code for r in (await candidates.reject(store, "cand-stale", actor="mo", reason="x")).validation.refusals] == ["already_decided"]
        entries = await session_ledger(store, "s-export")
        assert [(e["kind"], e["actor"]) for e in entries[-2:]] == [("candidate.accept", "lin"), ("candidate.reject", "mo")]
        assert entries[-1]["payload"]["reason"] == "old base"
        assert (await verify_store(store)).ok


async def test_refused_accept_writes_nothing(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        before = await session_ledger(store, "s-export")
        decision = await candidates.accept(store, "cand-space", actor="lin")
        assert [r.code for r in decision.validation.refusals] == ["exact_fields_changed"]
        assert await session_ledger(store, "s-export") == before
        assert (await get_session(store, "s-export")).context_version == 4


async def test_verify_sees_a_status_changed_behind_the_ledgers_back(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        await candidates.accept(store, "cand-good", actor="lin")
    run_sql(sample_store, "UPDATE candidates SET status = 'pending' WHERE id = 'cand-good'")
    async with await open_store(sample_store) as store:
        report = await verify_store(store)
    assert not report.ok and report.first_break["where"] == "candidates"


@pytest.mark.parametrize(
    ("args", "code"),
    [(["validate", "cand-good"], 0), (["validate", "cand-stale"], 1), (["accept", "cand-space"], 1),
     (["accept", "cand-good"], 0), (["reject", "cand-goal", "--reason", "stale goal"], 0), (["validate", "nope"], 3)],
)
def test_cli_exit_codes(sample_store: Path, args: list[str], code: int) -> None:
    result = CliRunner().invoke(cli, [args[0], str(sample_store), *args[1:], "--json", "--reviewer", "lin"]
                                if args[0] != "validate" else [args[0], str(sample_store), *args[1:], "--json"])
    assert result.exit_code == code, result.output
    out = json.loads(result.stdout)
    if args[0] == "validate" and code != 3:
        assert set(out) >= {"candidate", "structure_verified", "semantic_lossless", "refusals", "warnings"}


def test_cli_lists_candidates(sample_store: Path) -> None:
    result = CliRunner().invoke(cli, ["candidates", str(sample_store), "--session", "s-export", "--json"])
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 8
