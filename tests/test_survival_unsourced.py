"""A pending fact that cites no event is not "after the range" (review-14).

Survival's new "after its range" list took every pending fact not in the range, and a fact
with no source is never in it (when it was said is unknown): ``survival`` printed "first said at
, after what this generation covers" — no event, and a claim nothing supports. It is now listed
as having no source, in the headline, the JSON and the Survival tab.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.survival import Fact, survival
from inspector.services.importing import import_file
from inspector.services.survival import survival_report
from inspector.store.connection import open_store
from inspector.ui.widgets.survival_view import report_content
from tests.conftest import event_record, session_record, write_sif


def test_a_fact_without_a_source_is_not_said_to_come_after_the_range() -> None:
    facts = [Fact("g1", "goal", "ship it", "active", ("evt:1",), "user"),
             Fact("c1", "constraint", "never touch prod", "pending", (), "user")]
    out = survival(1, "ship it", [], (1, 4), facts)
    assert out.after == [] and [f.key for f in out.unsourced] == ["c1"]
    assert out.headline() == "gen 1: 1 of 1 fact kept · 1 without a source not counted"


def test_the_cli_the_json_and_the_tab_say_it_has_no_source(tmp_path: Path) -> None:
    records = [session_record(), *(event_record(i, content=f"line {i}") for i in range(1, 6)),
               {"type": "state", "session": "s1", "key": "goal.main", "kind": "goal", "value": "ship it",
                "sources": ["evt:1"], "writer": "user"},
               {"type": "state", "session": "s1", "key": "constraint.db", "kind": "constraint",
                "value": "never touch prod", "sources": [], "writer": "user", "status": "pending"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": "ship it",
                "covers": [1, 4], "base_version": 1, "unresolved": []}]
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t"))
    plain = CliRunner().invoke(cli, ["survival", str(store), "--session", "s1"]).output
    assert "first said at ," not in plain and "after range" not in plain, plain
    assert "no source" in plain and "never touch prod" in plain
    doc = json.loads(CliRunner().invoke(cli, ["survival", str(store), "--session", "s1", "--json"]).output)
    assert doc["after_range"] == [] and [f["key"] for f in doc["unsourced_not_counted"]] == ["constraint.db"]

    async def tab() -> str:
        async with await open_store(store) as opened:
            return report_content(await survival_report(opened, "s1")).plain

    shown = asyncio.run(tab())
    assert "after its range" not in shown and "without a source, not counted (1)" in shown
