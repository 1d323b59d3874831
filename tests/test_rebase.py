"""Stale candidates are replayed on the current base (seed 002's branch rules), never merged
blind: a new candidate, validated afresh, linked to the stale one, showing what changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import Static

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.review_dialog import ReviewDialog
from tests.backend_sql import run_sql
from tests.test_app import settle
from tests.test_review_dialog import _review


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


def _run(*args: str) -> tuple[int, dict]:
    out = CliRunner().invoke(cli, [*args, "--json"])
    return out.exit_code, json.loads(out.stdout)


def _candidate(store: Path, cid: str) -> tuple[int, str, str]:
    return tuple(run_sql(store, f"SELECT base_version, status, extra FROM candidates WHERE id = '{cid}'")[0][0])


def test_rebase_makes_a_new_candidate_on_the_current_base(sample_store: Path) -> None:
    before = _candidate(sample_store, "cand-stale")
    code, out = _run("rebase", str(sample_store), "cand-stale", "--reviewer", "lin")
    assert code == 0 and out["candidate"] == "cand-stale-on-v4" and out["rebased_from"] == "cand-stale"
    assert out["from"]["base_version"] == 3 and out["to"]["base_version"] == 4
    assert out["validation"]["structure_verified"] is True
    changes = out["changes"]
    assert changes["events"]["refs"] == ["evt:10", "evt:11"]  # after evt:9, the last event version 3 covered
    assert "open_issue.p95 v1 (active)" in changes["state_versions"]
    assert _candidate(sample_store, "cand-stale") == before  # the stale one stays as it was
    base, status, extra = _candidate(sample_store, "cand-stale-on-v4")
    stale_extra = json.loads(before[2])
    new_extra = json.loads(extra)
    assert base == 4 and status == "pending" and new_extra["rebased_from"]["candidate"] == "cand-stale"
    assert {k: new_extra[k] for k in stale_extra} == stale_extra  # same summary, fields, actions, sources
    _, entries = _run("ledger", str(sample_store), "--session", "s-export")
    assert entries[-1]["kind"] == "candidate.rebase" and entries[-1]["actor"] == "lin"  # type: ignore[index]
    code, accepted = _run("accept", str(sample_store), "cand-stale-on-v4", "--reviewer", "lin")
    assert code == 0 and accepted["context_version"] == 5
    assert _run("verify", str(sample_store))[1]["ok"]


def test_rebase_validates_afresh_and_refuses_what_cannot_move(sample_store: Path) -> None:
    code, out = _run("rebase", str(sample_store), "cand-good", "--reviewer", "lin")
    assert code == 1 and out["refusals"][0]["code"] == "not_stale"
    # A correction moves the base and changes a protected value: the replay is refused on exact fields.
    assert CliRunner().invoke(cli, ["correct", str(sample_store), "--session", "s-export", "--key", "constraint.prod",
                                    "--value", "不得修改生产库与备份库", "--reason", "owner widened it",
                                    "--reviewer", "lin"]).exit_code == 0
    code, out = _run("rebase", str(sample_store), "cand-good", "--reviewer", "lin")
    assert code == 0 and out["to"]["base_version"] == 5
    assert [r["code"] for r in out["validation"]["refusals"]] == ["exact_fields_changed"]
    assert [a["kind"] for a in out["changes"]["acts"]] == ["correction"]
    assert "constraint.prod v2 (active)" in out["changes"]["state_versions"]
    code, out = _run("rebase", str(sample_store), "cand-good", "--reviewer", "lin")
    assert code == 1 and out["refusals"][0]["code"] == "already_rebased"
    assert CliRunner().invoke(cli, ["reject", str(sample_store), "cand-warn", "--reason", "r",
                                    "--reviewer", "lin"]).exit_code == 0
    code, out = _run("rebase", str(sample_store), "cand-warn", "--reviewer", "lin")
    assert code == 1 and out["refusals"][0]["code"] == "already_decided"
    assert CliRunner().invoke(cli, ["rebase", str(sample_store), "cand-none", "--reviewer", "lin"]).exit_code == 3


@pytest.mark.parametrize("backend", ["sqlite"])  # the app on PostgreSQL: tests/test_live_store.py
async def test_rebase_and_accept_from_the_review_dialog(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        dialog = await _review(app, pilot, "cand-stale")
        assert "b rebases it" in str(dialog.query_one("#review-status", Static).render())
        await pilot.press("b")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewDialog) and app.screen.candidate == "cand-stale-on-v4"
        body = str(app.screen.query_one("#review-text", Static).render())
        assert "REBASED from cand-stale" in body and "evt:10, evt:11" in body
        await pilot.press("a")
        await settle(app, pilot)
        assert app.screen.view is not None and app.screen.view.validation.status == "accepted"
    assert _candidate(sample_store, "cand-stale")[1] == "pending"
