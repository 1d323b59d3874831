"""Versions only move forward: a pending version older than the active one is not confirmed,
and a correction of a decision keeps its rationale and alternatives unless the reviewer changes them."""

from __future__ import annotations

from pathlib import Path

from inspector.services import corrections
from inspector.services.channels import state_records
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.test_drift import S, master, store  # noqa: F401 - the shared fixtures (store is a copy of master)


async def test_confirming_an_older_pending_version_is_refused(store: Path) -> None:  # noqa: F811
    async with await open_store(store) as opened:
        proposed = await corrections.correct(opened, S, "constraint.prod", "never touch prod", reason="shorter",
                                             actor="rev")
        assert (proposed.version, proposed.status) == (2, "pending")
        owner = await corrections.correct(opened, S, "constraint.prod", "never touch prod or backups",
                                          reason="widened", actor="olga")
        assert (owner.version, owner.status) == (3, "active")
        refused = await corrections.confirm(opened, S, "constraint.prod", actor="olga")
        assert [r.code for r in refused.refusals] == ["stale_pending"] and "v3" in refused.refusals[0].message
        versions = {r.version: r.status for r in await state_records(opened, S) if r.key == "constraint.prod"}
        assert versions == {1: "superseded", 2: "pending", 3: "active"}  # nothing moved backwards
        rejected = await corrections.confirm(opened, S, "constraint.prod", actor="olga", reject=True, reason="old")
        assert not rejected.refusals and rejected.status == "superseded"
        assert (await verify_store(opened)).ok


async def test_a_decision_correction_carries_rationale_and_alternatives(store: Path) -> None:  # noqa: F811
    async with await open_store(store) as opened:
        first = await corrections.correct(opened, S, "decision.export", "use streaming export", reason="new",
                                          actor="rev", kind="decision", rationale="batch 1400 timed out",
                                          alternatives=["paging"])
        again = await corrections.correct(opened, S, "decision.export", "use streaming export (chunked)",
                                          reason="precise", actor="rev")
        assert first.version == 1 and again.version == 2
        latest = next(r for r in await state_records(opened, S) if r.key == "decision.export" and r.version == 2)
        assert latest.rationale == "batch 1400 timed out" and latest.alternatives == ["paging"]
        changed = await corrections.correct(opened, S, "decision.export", "use paging", reason="reversed",
                                            actor="rev", rationale="streaming broke the CSV", alternatives=[])
        newest = next(r for r in await state_records(opened, S) if r.key == "decision.export" and r.version == 3)
        assert changed.version == 3 and newest.rationale == "streaming broke the CSV" and newest.alternatives == []
        assert (await verify_store(opened)).ok
