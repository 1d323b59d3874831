"""Deciding pending records one at a time and many at once: the owner rule, ledger entries, verify."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import BadInput, NotFound
from inspector.services import confirmations, corrections
from inspector.services.channels import state_records
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store import ledger
from inspector.store.connection import open_store
from tests.backend_master import BackendMaster, master_fixture
from tests.pending_fixture import OWNER, S, pending_store


async def _build(target: Path | str, folder: Path) -> None:
    await pending_store(folder, target)


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


async def statuses(opened, keys: list[str]) -> dict[str, list[tuple[int, str]]]:  # type: ignore[no-untyped-def]
    out: dict[str, list[tuple[int, str]]] = {}
    for r in await state_records(opened, S):
        if r.key in keys:
            out.setdefault(r.key, []).append((r.version, r.status))
    return {k: sorted(v) for k, v in out.items()}


async def confirmations_in_ledger(opened) -> list[dict]:  # type: ignore[no-untyped-def]
    return [{"actor": e.actor, **e.payload} async for e in ledger.iter_entries(opened.db, session=S)
            if e.kind == "confirmation"]


async def test_bulk_confirm_writes_one_entry_per_record_in_one_step(store: Path) -> None:
    keys = ["decision.db", "open_issue.p95", "evidence_ref.a"]
    async with await open_store(store) as opened:
        before = await get_session(opened, S)
        out = await confirmations.decide_many(opened, S, [(k, None) for k in keys], actor="rev", reason="checked")
        assert [d.key for d in out.decided] == keys and out.refused == []
        assert all(d.status == "active" for d in out.decided)
        # one act: the context version grows once, the goal revision not at all (no goal confirmed)
        assert (out.context_version, out.goal_revision) == (before.context_version + 1, before.goal_revision)
        entries = await confirmations_in_ledger(opened)
        assert [(e["key"], e["decision"], e["batch"], e["actor"], e["reason"]) for e in entries] == [
            (k, "confirmed", 3, "rev", "checked") for k in keys]
        assert out.ledger == sorted(out.ledger) and len(out.ledger) == 3
        assert await statuses(opened, keys) == {k: [(1, "active")] for k in keys}
        history = await corrections.history(opened, S, "decision.db")
        assert history[0]["acts"][0]["decision"] == "confirmed"  # a key's history reads as a single confirm would
        assert (await verify_store(opened)).ok


async def test_non_owner_bulk_decides_what_it_may_and_refuses_the_owners_kinds(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await confirmations.decide_many(opened, S, [("constraint.no_prod", None), ("failure.tests", None)],
                                              actor="rev")
        assert [d.key for d in out.decided] == ["failure.tests"]
        assert [(r.key, r.refusal.code) for r in out.refused] == [("constraint.no_prod", "not_owner")]
        assert OWNER in out.refused[0].refusal.message
        assert await statuses(opened, ["constraint.no_prod"]) == {"constraint.no_prod": [(1, "pending")]}
        assert (await verify_store(opened)).ok


async def test_nothing_decidable_writes_nothing(store: Path) -> None:
    async with await open_store(store) as opened:
        before = len([e async for e in ledger.iter_entries(opened.db)])
        out = await confirmations.decide_many(opened, S, [("goal.restated", None), ("goal.main", None)], actor="rev")
        assert out.decided == [] and [r.refusal.code for r in out.refused] == ["not_owner", "nothing_pending"]
        assert len([e async for e in ledger.iter_entries(opened.db)]) == before
        assert (await get_session(opened, S)).context_version == out.context_version


async def test_all_pending_by_the_owner_confirms_goals_and_raises_the_goal_revision_once(store: Path) -> None:
    async with await open_store(store) as opened:
        before = await get_session(opened, S)
        out = await confirmations.decide_many(opened, S, actor=OWNER)
        # the goal the model restated and the constraint a tool wrote are owner-only rules from
        # writers without authority: --all-pending leaves them for the owner to confirm one by one
        assert [(r.key, r.refusal.code) for r in out.refused] == [("constraint.no_prod", "confirm_by_key"),
                                                                 ("goal.restated", "confirm_by_key")]
        assert "--key goal.restated" in out.refused[1].refusal.message
        assert len(out.decided) == 8
        assert (out.context_version, out.goal_revision) == (before.context_version + 1, before.goal_revision)
        # progress.steps v2 replaced v1; only the two rules are left pending
        assert await statuses(opened, ["progress.steps"]) == {"progress.steps": [(1, "superseded"), (2, "active")]}
        assert sorted(r.key for r in await state_records(opened, S) if r.status == "pending") == [
            "constraint.no_prod", "goal.restated"]
        # named, they are confirmed: the goal revision rises with the goal
        named = await confirmations.decide_many(opened, S, [("goal.restated", None), ("constraint.no_prod", None)],
                                                actor=OWNER)
        assert len(named.decided) == 2 and named.goal_revision == before.goal_revision + 1
        assert not [r for r in await state_records(opened, S) if r.status == "pending"]
        assert (await verify_store(opened)).ok


async def test_reject_by_kind_and_writer_leaves_the_active_version(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await confirmations.decide_many(opened, S, actor="rev", reject=True, kind="evidence_ref", writer="tool")
        assert [d.key for d in out.decided] == ["evidence_ref.a", "evidence_ref.b", "evidence_ref.c"]
        assert all(d.status == "superseded" for d in out.decided)
        assert out.context_version == (await get_session(opened, S)).context_version  # the active state is unchanged
        entries = await confirmations_in_ledger(opened)
        assert {e["decision"] for e in entries} == {"rejected"} and len(entries) == 3
        out = await confirmations.decide_many(opened, S, actor="rev", kind="evidence_ref")
        assert out.decided == [] and [r.refusal.code for r in out.refused] == ["nothing_pending"]
        assert (await verify_store(opened)).ok


async def test_a_named_version_is_decided_or_refused_exactly(store: Path) -> None:
    async with await open_store(store) as opened:
        out = await corrections.confirm(opened, S, "progress.steps", actor="rev", version=1)
        assert [r.code for r in out.refusals] == ["not_pending"] and out.status == "active"
        out = await corrections.confirm(opened, S, "progress.steps", actor="rev", version=2, reject=True)
        assert (out.version, out.status, out.refusals) == (2, "superseded", [])
        assert await statuses(opened, ["progress.steps"]) == {"progress.steps": [(1, "active"), (2, "superseded")]}
        with pytest.raises(NotFound):
            await corrections.confirm(opened, S, "progress.steps", actor="rev", version=9)
        with pytest.raises(NotFound):
            await confirmations.decide_many(opened, S, [("no.such", None)], actor="rev")
        with pytest.raises(BadInput):
            await confirmations.decide_many(opened, S, [("decision.db", None)], actor="rev", kind="decision")
        with pytest.raises(BadInput):
            await confirmations.decide_many(opened, S, actor="rev", kind="fact")
        assert (await verify_store(opened)).ok


async def test_preview_names_what_would_be_refused_without_writing(store: Path) -> None:
    async with await open_store(store) as opened:
        refused = await confirmations.preview(opened, S, [("goal.restated", 1), ("decision.db", 1), ("goal.main", 1)],
                                              actor="rev")
        assert [(r.key, r.refusal.code) for r in refused] == [("goal.restated", "not_owner"),
                                                              ("goal.main", "not_pending")]
        assert await confirmations_in_ledger(opened) == []


def test_cli_confirm_many_keys_all_pending_and_bad_input(store: Path) -> None:
    run = CliRunner().invoke
    base = ["confirm", str(store), "--session", S]
    out = run(cli, [*base, "--key", "decision.db", "--key", "open_issue.p95", "--reviewer", "rev", "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert [d["key"] for d in doc["decided"]] == ["decision.db", "open_issue.p95"] and doc["refusals"] == []
    assert doc["decision"] == "confirmed" and len(doc["ledger"]) == 2
    # a non-owner asking for every pending record: the owner's kinds are refused (exit 1), the rest decided
    out = run(cli, [*base, "--all-pending", "--writer", "tool", "--reject", "--reviewer", "rev"])
    assert out.exit_code == 1
    assert "rejected 4" in out.stdout and "refused not_owner: only the session's owner (olga)" in out.stdout
    out = run(cli, [*base, "--all-pending", "--kind", "goal", "--reviewer", OWNER, "--json"])
    doc = json.loads(out.stdout)
    assert out.exit_code == 1 and doc["decided"] == [] and [r["code"] for r in doc["refusals"]] == ["confirm_by_key"]
    out = run(cli, [*base, "--key", "goal.restated", "--reviewer", OWNER, "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["status"] == "active"
    # one --key keeps the single-record answer
    out = run(cli, [*base, "--key", "open_issue.retry", "--reviewer", "rev", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["status"] == "active"
    # usage and bad input: nothing written
    assert run(cli, [*base, "--reviewer", "rev"]).exit_code == 2
    assert run(cli, [*base, "--key", "a", "--all-pending", "--reviewer", "rev"]).exit_code == 2
    assert run(cli, [*base, "--key", "decision.db", "--kind", "goal", "--reviewer", "rev"]).exit_code == 2
    out = run(cli, [*base, "--all-pending", "--kind", "fact", "--reviewer", "rev", "--json"])
    assert out.exit_code == 3 and json.loads(out.stdout)["error"]["code"] == "bad_input"
    out = run(cli, [*base, "--key", "nope", "--key", "decision.db", "--reviewer", "rev"])
    assert out.exit_code == 3 and "no protected record 'nope'" in out.stderr
    out = run(cli, [*base, "--all-pending", "--kind", "progress", "--reviewer", "rev"])
    assert out.exit_code == 0 and "confirmed 1" in out.stdout
    out = run(cli, [*base, "--all-pending", "--kind", "progress", "--reviewer", "rev"])
    assert out.exit_code == 1 and "nothing_pending" in out.stdout
    assert run(cli, ["verify", str(store)]).exit_code == 0
