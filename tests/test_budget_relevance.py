"""Seed 002's worked budget example, and raw evidence chosen for the open task with a reason."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.budget import Item, plan_budget, rank_evidence
from tests.conftest import session_record, write_sif

CHATTER = "step log: " + "x" * 374  # 384 ASCII characters: 96 tokens, plus 4 for the event = 100


def _long_session(tmp_path: Path) -> Path:
    """180 events of 100 estimated tokens each = 18,000 tokens of raw history; the failing run is
    evt:120, and a constraint cites evt:1."""
    records: list[dict] = [session_record("s18", adapter="generic", goal_revision=1)]
    for seq in range(1, 181):
        content = CHATTER
        kind = "assistant_message"
        if seq == 120:
            kind, content = "tool_result", ("exit 1 - 3 FAILED - test_export_p95 " + "y" * 384)[:384]
        records.append({"type": "event", "session": "s18", "seq": seq, "kind": kind, "content": content,
                        "at": f"2025-05-01T{seq // 60:02d}:{seq % 60:02d}:00Z", "trust": "model"})
    records.append({"type": "state", "session": "s18", "key": "constraint.prod", "kind": "constraint",
                    "value": "不得修改生产库", "sources": ["evt:1"], "writer": "user", "version": 1,
                    "status": "active"})
    records.append({"type": "summary", "session": "s18", "generation": 1, "kind": "recursive",
                    "text": "导出修复进行中。", "covers": [1, 180], "base_version": 1, "unresolved": []})
    return write_sif(tmp_path / "s18.jsonl", records)


def test_seed_002_worked_example(tmp_path: Path) -> None:
    store = tmp_path / "s18.db"
    assert CliRunner().invoke(cli, ["import", str(_long_session(tmp_path)), "--into", str(store)]).exit_code == 0
    out = CliRunner().invoke(cli, ["budget", str(store), "--session", "s18", "--window", "4000", "--fixed", "1200",
                                   "--reserve", "1300", "--split", "1,1,1", "--json"])
    plan = json.loads(out.stdout)
    assert out.exit_code == 0 and plan["history_budget"] == 1500
    assert [b["budget"] for b in plan["blocks"]] == [500, 500, 500]
    assert plan["raw_history_tokens"] == 18_000
    assert round(plan["history_budget"] / plan["raw_history_tokens"], 3) == 0.083  # ≈ 8.3 %, a length figure
    raw = plan["blocks"][2]
    refs = [i["ref"] for i in raw["items"]]
    # The failing run and the event the constraint cites come first, then the newest that still fit.
    assert refs[:2] == ["evt:120", "evt:1"] and refs[2:] == ["evt:180", "evt:179", "evt:178"]
    assert raw["items"][0]["reason"].startswith("failed result") and raw["used"] == 500
    assert raw["items"][1]["reason"] == "cited by active constraint.prod"
    assert raw["items"][2]["reason"] == "newest"


def test_relevance_order_and_reasons() -> None:
    events = [Item(f"evt:{n}", 10, "e") for n in (9, 8, 7, 6, 5)]  # newest first
    ranked = rank_evidence(events, {"evt:5": [(3, "action a7 is unknown")], "evt:7": [(0, "failed result")],
                                    "evt:6": [(2, "behind unresolved “P95”"), (1, "cited by active k")]})
    assert [(i.ref, i.reason) for i in ranked] == [
        ("evt:7", "failed result"), ("evt:6", "cited by active k; behind unresolved “P95”"),
        ("evt:5", "action a7 is unknown"), ("evt:9", "newest"), ("evt:8", "newest")]
    plan = plan_budget(30, (0, 0, 1), [], [], None, ranked, [], [Item("stub-7[0,10)", 10, "x", "expansion")])
    assert [i.ref for i in plan.blocks[2].items] == ["stub-7[0,10)", "evt:7", "evt:6"]
    assert any(n["ref"] == "evt:5" and "action a7 is unknown" in n["why"] for n in plan.not_loaded)


def test_expansions_for_the_next_request_count_first(sample_store: Path) -> None:
    assert CliRunner().invoke(cli, ["expand", str(sample_store), "stub-7", "--range", "0:400",
                                    "--reviewer", "lin"]).exit_code == 0
    out = CliRunner().invoke(cli, ["budget", str(sample_store), "--session", "s-export", "--window", "2000", "--json"])
    raw = json.loads(out.stdout)["blocks"][2]
    first = raw["items"][0]
    assert first["ref"] == "stub-7[0,400)" and first["reason"].startswith("expansion reserved for the next request")
    assert first["tokens"] > 0 and raw["used"] >= first["tokens"]
