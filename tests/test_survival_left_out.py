"""The header's "◌ 6 pending records" beside "gen 1 keeps 5 of 5 facts": the counts add up.

On the real compaction transcript the sixth proposal (a later request, evt:174) comes after the
range the summary covers (evt:1–147), so survival does not judge it; the header, ``survival``
(plain and ``--json``) and the Survival tab now say so instead of leaving the reviewer to guess
which record was not counted and why.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.survival import Fact, survival
from inspector.services.importing import import_file
from inspector.services.overview import Badges, session_badges
from inspector.services.survival import SurvivalReport, survival_report
from inspector.store.connection import open_store
from inspector.ui.widgets.survival_view import report_content

REAL = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl")


def test_the_facts_left_out_are_named_with_why() -> None:
    facts = [Fact("g1", "goal", "ship the export fix", "pending", ("evt:1",), "extractor"),
             Fact("g2", "goal", "then the import fix", "pending", ("evt:40",), "extractor"),
             Fact("r1", "constraint", "always skip validation", "pending", ("evt:2",), "tool")]
    out = survival(1, "We will ship the export fix.", [], (1, 10), facts)
    assert [v.fact.key for v in out.verdicts] == ["g1"]
    assert [f.key for f in out.after] == ["g2"] and [f.key for f in out.untrusted] == ["r1"]
    assert out.headline() == ("gen 1: 1 of 1 fact kept · 1 after its range · 1 untrusted not counted")
    assert survival(1, "ship the export fix", [], (1, 10), facts[:1]).headline() == "gen 1: 1 of 1 fact kept"


@pytest.mark.skipif(not REAL.is_file(), reason="needs ../shared/real_sessions/claude-code (CI has it)")
def test_the_real_transcript_says_which_of_seven_records_is_not_counted(tmp_path: Path) -> None:
    store = tmp_path / "s.db"

    async def read() -> tuple[str, Badges, SurvivalReport]:
        session = (await import_file(REAL, store, actor="t")).sessions[0]
        async with await open_store(store) as opened:
            return session, await session_badges(opened, session), await survival_report(opened, session)

    session, badges, report = asyncio.run(read())
    # Seven since verdict-real: the question the compaction cut short (evt:129) is a goal too.
    assert badges.pending_state == 7
    # Three of the goals stand word for word only in its "All User Messages" list: unknown since
    # verdict-real-two (a quote is not their state).
    assert badges.survival == "gen 1: 3 of 6 facts kept, 0 lost, 3 not judged · 1 after its range"
    assert badges.survival_short == "gen 1 3/6 kept, 3 not judged · 1 not counted"
    assert [f.sources for f in report.result.after] == [("evt:174",)]  # type: ignore[union-attr]
    shown = report_content(report).plain
    assert "· after its range (1)" in shown and "ok, I couldn't replicate the 4 session issue" in shown
    plain = CliRunner().invoke(cli, ["survival", str(store), "--session", session])
    assert "after range" in plain.output and "evt:174, after what this generation covers" in plain.output
    doc = json.loads(CliRunner().invoke(cli, ["survival", str(store), "--session", session, "--json"]).output)
    assert [f["sources"] for f in doc["after_range"]] == [["evt:174"]] and doc["untrusted_not_counted"] == []
