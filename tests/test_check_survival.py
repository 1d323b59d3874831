"""``check``, the report and the app's header read survival: never ✓ where survival says otherwise.

verdict-real-two: after ``confirm --all-pending`` on a real Claude Code transcript, ``survival``
said three confirmed goals ``unknown`` while ``check`` dropped its survival warning (it read
survival only while drift judged none of the facts). services/survival_verdict.py is the one
rule now; these tests hold every place that shows a verdict to it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.survival import Fact, Verdict
from inspector.domain.survival_report import Survival
from inspector.services.overview import session_badges
from inspector.services.survival import SurvivalReport, survival_report
from inspector.services.survival_verdict import RESTATED_KINDS, survival_verdict
from inspector.store.connection import open_store

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real_sessions" / "claude-code"
AUTO_MICRO = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
SOURCES = sorted((ROOT / "sample_sessions").glob("*.jsonl")) + sorted(REAL.glob("*.jsonl"))
ENV = {"INSPECTOR_REVIEWER": "owner"}


def _run(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, [*args, "--json"], env=ENV)
    return result.exit_code, json.loads(result.stdout)


def _import(tmp_path: Path, source: Path) -> tuple[Path, list[str]]:
    store = tmp_path / f"{source.stem[:40]}.db"
    code, out = _run("import", "--into", str(store), str(source))
    assert code in (0, 1), out
    return store, list(out["sessions"])


def _verdict(key: str, verdict: str, status: str = "active", where: str | None = "the sentence") -> Verdict:
    return Verdict(Fact(key, "goal", f"value of {key}", status, ("evt:1",)), verdict, where, "the rule's reason")


def _report(*verdicts: Verdict) -> SurvivalReport:
    return SurvivalReport("s", 2, "recursive", (1, 9), Survival(2, (1, 9), list(verdicts)))


def test_a_confirmed_fact_lost_or_contradicted_is_a_finding_with_its_key_and_sentence() -> None:
    found = survival_verdict("s", _report(_verdict("goal.a", "missing", where=None),
                                          _verdict("goal.b", "contradicted", where="The goal is dropped."),
                                          _verdict("goal.c", "kept")))
    assert [(f["code"], f["key"], f["sentence"]) for f in found.findings] == [
        ("fact_missing", "goal.a", None), ("fact_contradicted", "goal.b", "The goal is dropped.")]
    assert not found.warnings


def test_an_evidence_reference_the_summary_does_not_name_is_a_question_not_a_loss() -> None:
    """The protected channel carries an evidence reference beside every summary, and no drift
    rule asks a summary to restate one: the demo's accepted good candidate (which cites no
    res:run-184) failed check ✗ for it. Not named: "?" (facts_not_restated); contradicted: ✗."""
    def ref(key: str, verdict: str) -> Verdict:
        return Verdict(Fact(key, "evidence_ref", "res:run-184", "active", ("evt:5",)), verdict, None, "not named")

    found = survival_verdict("s", _report(ref("evidence.a", "missing"), ref("evidence.b", "contradicted"),
                                          _verdict("goal.a", "missing", where=None)))
    assert [(f["code"], f["key"]) for f in found.findings] == [("fact_contradicted", "evidence.b"),
                                                                ("fact_missing", "goal.a")]
    assert [(w["code"], w["keys"]) for w in found.warnings] == [("facts_not_restated", ["evidence.a"])]
    assert "not ✗; not ✓ either" in found.warnings[0]["message"]


def test_unknown_names_the_facts_and_pending_losses_say_pending_never_a_finding() -> None:
    found = survival_verdict("s", _report(_verdict("goal.a", "unknown"), _verdict("goal.p", "contradicted", "pending"),
                                          _verdict("goal.q", "unknown", "pending")))
    assert not found.findings  # a pending fact binds nothing
    by_code = {(w["code"], w["pending"]): w for w in found.warnings}
    assert by_code[("facts_unknown", False)]["keys"] == ["goal.a"] and "goal.a" in by_code[("facts_unknown", False)]["message"]
    assert by_code[("facts_lost", True)]["keys"] == ["goal.p"] and "pending" in by_code[("facts_lost", True)]["message"]
    assert by_code[("facts_unknown", True)]["keys"] == ["goal.q"]


def test_the_real_transcript_confirmed_says_which_goals_survival_cannot_judge(tmp_path: Path) -> None:
    if not AUTO_MICRO.exists():
        pytest.skip("real transcripts not present")
    store, (session,) = _import(tmp_path, AUTO_MICRO)
    assert _run("confirm", str(store), "--session", session, "--all-pending")[0] == 0
    _, report = _run("survival", str(store), "--session", session)
    unknown = sorted(f["key"] for f in report["facts"] if f["verdict"] == "unknown")
    assert len(unknown) == 3
    code, doc = _run("check", str(store))
    (s,) = doc["sessions"]
    assert code == 0 and s["verdict"] == "unknown" and s["survival"] == []
    warned = [w for w in s["warnings"] if w["code"] == "facts_unknown"]
    assert [sorted(w["keys"]) for w in warned] == [unknown] and warned[0]["pending"] is False


async def _badges(store: Path, session: str) -> tuple[SurvivalReport, object]:
    async with await open_store(store) as opened:
        return await survival_report(opened, session), await session_badges(opened, session)


def _agree(tmp_path: Path, store: Path, session: str, tag: str) -> None:
    report, badges = asyncio.run(_badges(store, session))
    lost = [v for v in report.verdicts if v.verdict in ("missing", "contradicted")]
    # a confirmed fact of a kind no drift rule asks a summary to restate (an evidence reference) is
    # a "?" when the summary does not name it, never ✗ (the protected channel carries it)
    bad_active = [v for v in lost if v.fact.status == "active"
                  and (v.verdict == "contradicted" or v.fact.kind in RESTATED_KINDS)]
    not_green = bad_active or lost or any(v.verdict == "unknown" for v in report.verdicts)
    code, doc = _run("check", str(store), "--session", session)
    (s,) = doc["sessions"]
    html = tmp_path / f"{tag}.html"
    assert CliRunner().invoke(cli, ["report", str(store), "--session", session, "-o", str(html)], env=ENV).exit_code == 0
    page = html.read_text(encoding="utf-8")
    if bad_active:
        assert s["verdict"] == "failed" and code == 1 and {f["key"] for f in s["survival"]} == {
            v.fact.key for v in bad_active}
        assert badges.survival_lost == len(bad_active)  # type: ignore[attr-defined]
    if not_green:
        assert s["verdict"] != "clear", (tag, s["warnings"])
        assert badges.survival_lost or badges.not_judged or badges.drift  # type: ignore[attr-defined]
        assert "✓ passes" not in page and "no findings</span>" not in page
    if s["verdict"] == "clear":
        assert not not_green and code == 0


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem[:30])
def test_check_report_and_header_never_say_clear_over_survival(tmp_path: Path, source: Path) -> None:
    """Every fixture and real transcript, as imported and with every pending fact confirmed."""
    store, sessions = _import(tmp_path, source)
    for session in sessions[:3]:
        _agree(tmp_path, store, session, f"{session[:12]}-as-imported")
        _run("confirm", str(store), "--session", session, "--all-pending")
        _agree(tmp_path, store, session, f"{session[:12]}-confirmed")


def test_the_survival_tab_counts_as_check_does() -> None:
    """The tab said "✗2" for two pending facts lost (check: "?") and nothing for unknown ones."""
    from inspector.services.survival_verdict import mark

    assert mark(survival_verdict("s", _report(_verdict("goal.a", "missing"), _verdict("goal.b", "unknown")))) == "✗1"
    assert mark(survival_verdict("s", _report(_verdict("goal.p", "missing", "pending"),
                                              _verdict("goal.q", "unknown", "pending"),
                                              _verdict("goal.r", "unknown")))) == "?3"
    assert mark(survival_verdict("s", _report(_verdict("goal.a", "kept")))) == ""


def test_a_failure_the_summary_repeats_word_for_word_is_kept() -> None:
    """s-bigfold: "61 checks failed: disk full" in its summary was "an unresolved failure the summary
    does not mention" (its error, "disk full", is too short an anchor), so check turned ✗ on it."""
    from inspector.domain.survival import survival

    fact = Fact("failure.disk", "failure", "61 checks failed: disk full", "active", ("evt:4",))
    result = survival(1, "Roll out the build. 61 checks failed: disk full (res:deploy-log).", [], (1, 4), [fact])
    assert [v.verdict for v in result.verdicts] == ["kept"]
    gone = survival(1, "Roll out the build to all nodes.", [], (1, 4), [fact])
    assert [v.verdict for v in gone.verdicts] == ["missing"]


def test_an_open_issue_carried_in_the_unresolved_markers_is_kept() -> None:
    """s-orders: the question sits in the summary's ``unresolved`` list, where open issues belong;
    survival said "missing: 0% of its words appear" and check turned ✗ on it."""
    from inspector.domain.survival import survival

    question = "Was orders_created_idx created before the connection dropped?"
    fact = Fact("open_issue.index", "open_issue", question, "active", ("evt:5",))
    kept = survival(1, "Goal: finish the migration. Migration 0042 outcome unknown.", [question], (1, 6), [fact])
    assert [v.verdict for v in kept.verdicts] == ["kept"]
    lost = survival(1, "Goal: finish the migration. Migration 0042 outcome unknown.", [], (1, 6), [fact])
    assert [v.verdict for v in lost.verdicts] == ["missing"]
