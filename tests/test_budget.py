"""The budget of the next request: blocks, what is not loaded, state never truncated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.budget import estimate_tokens


def test_token_estimate_counts_cjk_per_character() -> None:
    assert estimate_tokens("abcd" * 10) == 10 and estimate_tokens("不得修改生产库") == 7


def _budget(store: Path, *args: str) -> tuple[int, dict]:
    out = CliRunner().invoke(cli, ["budget", str(store), "--session", "s-export", *args, "--json"])
    return out.exit_code, json.loads(out.stdout)


def test_blocks_and_what_is_not_loaded(sample_store: Path) -> None:
    code, plan = _budget(sample_store, "--window", "2000", "--fixed", "300", "--reserve", "200")
    assert code == 0 and plan["history_budget"] == 1500
    assert [b["name"] for b in plan["blocks"]] == ["protected state", "task summary", "raw evidence"]
    state = plan["blocks"][0]
    assert {i["ref"] for i in state["items"]} >= {"state:constraint.prod@v1", "state:goal.main@v1"}
    not_loaded = {n["ref"]: n["why"] for n in plan["not_loaded"]}
    assert "pending" in not_loaded["state:constraint.skip_checks@v1"]
    assert "folded" in not_loaded["res:run-184"]
    assert 0 < plan["ratio"] < 1 and plan["tokenizer"].startswith("estimate")


def test_small_evidence_block_picks_for_the_task_not_by_recency(sample_store: Path) -> None:
    code, plan = _budget(sample_store, "--window", "400", "--split", "20,10,10")
    evidence = plan["blocks"][2]
    assert code == 0 and evidence["used"] <= evidence["budget"]
    first = evidence["items"][0]
    assert first["ref"] == "evt:5" and "failed result" in first["reason"]  # the failing run, not evt:11
    assert all(i["reason"] for i in evidence["items"])
    assert any("picked only as newest do not fit" in n["why"] for n in plan["not_loaded"])


def test_state_is_refused_rather_than_truncated(sample_store: Path) -> None:
    code, plan = _budget(sample_store, "--window", "100", "--split", "1,50,50")
    assert code == 1 and [r["code"] for r in plan["refusals"]] == ["state_over_budget"]


def test_bad_numbers(sample_store: Path) -> None:
    assert CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export", "--window", "10",
                                    "--fixed", "20"]).exit_code == 3
    assert CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export", "--window", "10",
                                    "--split", "1,2"]).exit_code == 2


async def test_budget_tab(sample_store: Path) -> None:
    from textual.widgets import Input, Static

    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("b")
        await settle(app, pilot)
        text = str(app.screen.query_one("#budget-text", Static).render())
        assert "history budget 116,000" in text and "res:run-184" in text
        assert "evt:5" in text and "failed result (action a4 failed)" in text  # each pick says why
        app.screen.query_one("#budget-window", Input).value = "100"
        app.screen.query_one("#budget-fixed", Input).value = "0"
        app.screen.query_one("#budget-reserve", Input).value = "0"
        app.screen.query_one("#budget-split", Input).value = "1,50,50"
        await pilot.press("enter")
        await settle(app, pilot)
        assert "state_over_budget" in str(app.screen.query_one("#budget-text", Static).render())


async def test_the_hidden_budget_tab_reads_nothing_until_it_is_shown(sample_store: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets import budget_view
    from tests.test_app import settle

    calls: list[str] = []
    real = budget_view.budget

    async def counted(store, session, **kw):  # type: ignore[no-untyped-def]
        calls.append(session)
        return await real(store, session, **kw)

    monkeypatch.setattr(budget_view, "budget", counted)
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        assert calls == []  # the session is open, its badges loaded, the budget not computed
        await pilot.press("b")
        await settle(app, pilot)
        assert len(calls) == 1
