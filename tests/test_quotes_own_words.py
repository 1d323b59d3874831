"""Every quote of a summary is in the summary's own characters (fresh-eyes F12).

The rules read a summary in its normal form, and Survival's "kept" evidence quoted that form:
"`checkconcurrentsessions` … `basecommit`" for a summary that says "`checkConcurrentSessions`
… `baseCommit`". A quote is evidence: it must be what the summary says.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.domain.drift import GenerationText, StateFact, find_drift
from inspector.domain.quotes import original
from inspector.domain.survival import Fact, survival
from inspector.services.importing import import_file
from inspector.services.survival import survival_report
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"


@pytest.mark.parametrize(("quote", "own"), [
    ("fixed `checkconcurrentsessions`.", "Fixed `checkConcurrentSessions`."),
    ("the \"basecommit\" was reset and lifted.", "The  “baseCommit” was ＲＥＳＥＴ and li\u200bfted."),
    ("strasse ok.", "Straße ok."),
    ("concurrentsessions`", "ConcurrentSessions`"),
])
def test_a_normalised_quote_is_placed_back_in_the_original(quote: str, own: str) -> None:
    text = "Fixed `checkConcurrentSessions`.\nThe  “baseCommit” was ＲＥＳＥＴ and li\u200bfted.  Straße ok."
    assert original(text, quote) == own


def test_a_quote_not_in_the_text_is_not_placed() -> None:
    assert original("Fixed it.", "broke it.") is None


def test_survival_quotes_the_kept_sentence_as_the_summary_wrote_it() -> None:
    text = "Fixed `checkConcurrentSessions` in Handlers.go. NEVER push to Main."
    facts = [Fact("constraint.push", "constraint", "never push to main", "active", ("evt:1",)),
             Fact("artifact.handlers", "artifact", "cmd/handlers.go", "active", ("evt:2",))]
    result = survival(1, text, [], (1, 5), facts)
    assert {v.fact.key: (v.verdict, v.where) for v in result.verdicts} == {
        "constraint.push": ("kept", "NEVER push to Main."),
        "artifact.handlers": ("kept", "Fixed `checkConcurrentSessions` in Handlers.go.")}


def test_a_drift_finding_quotes_the_summary_as_it_wrote_it() -> None:
    state = [StateFact("constraint.destroy", "constraint", "Never run terraform destroy", "active", ("evt:1",), "user")]
    gen = GenerationText(1, "recursive", "Ran Terraform Destroy on the old stack to save costs.", (), ("evt:1",),
                         covers=(1, 3))
    (finding,) = [f for f in find_drift(gen, state) if f.code == "forbidden_action_done"]
    assert finding.where == "Ran Terraform Destroy on the old stack to save costs."
    assert "“Ran Terraform Destroy on the old stack to save costs.”" in finding.message
    assert "ran terraform destroy on" not in finding.message


def test_the_real_auto_compaction_keeps_its_evidence_in_its_own_case(tmp_path: Path) -> None:
    source = REAL / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    asyncio.run(import_file(source, tmp_path / "s.db", actor="tester"))

    async def run() -> list[str]:
        async with await open_store(tmp_path / "s.db") as opened:
            session = (await opened.db.execute_fetchall("SELECT id FROM sessions"))[0][0]
            report = await survival_report(opened, session)
            return [v.where for v in report.verdicts if v.verdict == "kept" and v.where]

    quotes = asyncio.run(run())
    assert any("`checkConcurrentSessions`" in q for q in quotes)
    assert not any("checkconcurrentsessions" in q for q in quotes)
