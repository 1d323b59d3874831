"""Check's ✗ and survival's "lost" are one number (survival-words, lead-16-17 item 1).

The demo's header said "✗ 2 facts lost" (check: confirmed facts of the kinds a summary must
restate) beside "∴ gen 3 1/5 kept, 3 lost" (survival: every missing fact, the evidence reference
the protected state carries included). Both true; a reviewer comparing them trusted neither.
Survival now says the facts that need not be restated, and the pending ones it lost, apart:
"1/5 kept, 2 lost, 1 not restated, 1 not judged" — one rule (domain/survival_report.part) for both.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from inspector.cli.main import cli
from inspector.domain.survival import Fact, Verdict
from inspector.domain.survival_report import VERDICTS, Survival
from inspector.domain.vocabulary import STATE_KINDS
from inspector.services.checking import check_store
from inspector.services.overview import session_badges
from inspector.services.sessions import list_sessions
from inspector.services.survival import SurvivalReport, survival_all, survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"
REAL_WITH_FACTS = ("7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl", "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl",
                   "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl")
ENV = {"INSPECTOR_REVIEWER": "owner"}
AT = "2025-05-01T00:00:00Z"


def _verdict(kind: str, verdict: str, status: str = "active") -> Verdict:
    return Verdict(Fact(f"{kind}.{verdict}.{status}", kind, "a value", status, ("evt:1",)), verdict, None, "why")


def test_a_fact_the_summary_need_not_restate_and_a_pending_one_are_not_said_lost() -> None:
    out = Survival(2, (1, 9), [
        _verdict("goal", "kept"), _verdict("constraint", "missing"), _verdict("evidence_ref", "contradicted"),
        _verdict("evidence_ref", "missing"), _verdict("progress", "missing"), _verdict("goal", "missing", "pending"),
        _verdict("decision", "unknown"), _verdict("evidence_ref", "unknown", "pending")])
    t = out.tally()
    assert (t.kept, t.lost, t.not_restated, t.pending_lost, t.not_judged) == (1, 2, 2, 1, 2)
    assert out.tally()._asdict() == {"kept": 1, "lost": 2, "not_restated": 2, "pending_lost": 1, "not_judged": 2}
    assert out.counts_said() == "1 of 8 facts kept, 2 lost, 2 not restated, 1 pending lost, 2 not judged"
    assert out.short_headline() == "gen 2 1/8 kept, 2 lost, 2 not restated, 1 pending lost, 2 not judged"
    only_ref = Survival(1, (1, 3), [_verdict("goal", "kept"), _verdict("evidence_ref", "missing")])
    assert only_ref.counts_brief() == "1/2 kept, 1 not restated"  # never "1 lost" beside check's ✓-or-?


@given(st.lists(st.tuples(st.sampled_from(STATE_KINDS), st.sampled_from(VERDICTS),
                          st.sampled_from(("active", "pending"))), max_size=40))
def test_for_any_mix_of_facts_checks_cross_is_survivals_lost_and_the_parts_add_up(
        mix: list[tuple[str, str, str]]) -> None:
    """Any kinds, verdicts and statuses: check's ✗ findings are survival's "lost", its "?" warnings
    name exactly the facts of the other parts, and the five parts add up to the facts judged."""
    verdicts = [Verdict(Fact(f"f{i}", kind, "v", status, ("evt:1",)), verdict, None, "why")
                for i, (kind, verdict, status) in enumerate(mix)]
    result = Survival(1, (1, 5), verdicts)
    t = result.tally()
    said = survival_verdict("s", SurvivalReport("s", 1, "recursive", (1, 5), result))
    assert len(said.findings) == t.lost and sum(t) == len(verdicts)
    warned = {code: len(w["keys"]) for w in said.warnings for code in [w["code"] + ("?" if w["pending"] else "")]}
    assert warned.get("facts_not_restated", 0) == t.not_restated and warned.get("facts_lost?", 0) == t.pending_lost
    assert warned.get("facts_unknown", 0) + warned.get("facts_unknown?", 0) == t.not_judged
    line = result.short_headline()
    assert (f", {t.lost} lost" in line) == bool(t.lost) and (t.kept == len(verdicts)) == (line.count(",") == 0)


def _parts_store(tmp_path: Path) -> Path:
    """A session with a fact in every part: kept, lost, not restated, pending lost."""
    def state(key: str, kind: str, value: str, source: str, status: str = "active",
              writer: str = "user") -> dict[str, Any]:
        return {"type": "state", "session": "s1", "key": key, "kind": kind, "value": value, "sources": [source],
                "writer": writer, "at": AT, "scope": "task", "version": 1, "status": status}

    texts = ["Goal: ship the export fix. Never touch the production database.",
             "See res:run-184 for the log; the CSV header must stay unchanged.", "Use streaming export.", "ok"]
    sif = write_sif(tmp_path / "parts.jsonl", [
        session_record(), *[event_record(i, content=text) for i, text in enumerate(texts, 1)],
        state("goal.ship", "goal", "ship the export fix", "evt:1"),
        state("constraint.prod", "constraint", "never touch the production database", "evt:1"),
        state("evidence.run", "evidence_ref", "res:run-184", "evt:2"),
        state("constraint.csv", "constraint", "the CSV header must stay unchanged", "evt:2", "pending", "extractor"),
        {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": "We ship the export fix.",
         "covers": [1, 4]}])
    store = tmp_path / "parts.db"
    assert CliRunner().invoke(cli, ["import", str(sif), "--into", str(store)], env=ENV).exit_code in (0, 1)
    return store


async def _compared(store: Path) -> list[tuple[str, int, int, int, dict[str, int], dict[str, int] | None, str]]:
    """Per session with a judged generation: survival's lost, check's ✗ survival findings, the
    header's "✗ N facts lost", survival's tally, check --json's tally, the header's survival line."""
    out = []
    async with await open_store(store) as opened:
        checked = {c.session: c for c in await check_store(opened)}
        for info in await list_sessions(opened):
            report = await survival_report(opened, info.id)
            if report.result is None or not report.verdicts:
                continue
            badges = await session_badges(opened, info.id)
            t = report.result.tally()
            assert sum(t) == len(report.verdicts)
            for older in await survival_all(opened, info.id):  # every generation, the rule's own count
                if older.result is not None:
                    assert len(survival_verdict(info.id, older).findings) == older.result.tally().lost
            out.append((info.id, t.lost, len(checked[info.id].survival), badges.survival_lost, t._asdict(),
                        checked[info.id].survival_tally, badges.survival or ""))
    return out


def _confirm_all(store: Path) -> None:
    sessions = json.loads(CliRunner().invoke(cli, ["sessions", str(store), "--json"], env=ENV).stdout)
    for s in sessions:
        CliRunner().invoke(cli, ["confirm", str(store), "--session", s["id"], "--all-pending"], env=ENV)


def _assert_one_number(store: Path) -> int:
    rows = asyncio.run(_compared(store))
    for session, lost, findings, header, tally, check_tally, line in rows:
        assert lost == findings == header, (session, lost, findings, header, line)
        assert check_tally == tally, session
        # the header's survival line says check's count, and each other part by its own name
        if tally["kept"] < sum(tally.values()):
            assert f", {lost} lost" in line, line
        for name, words in (("not_restated", "not restated"), ("pending_lost", "pending lost")):
            assert (f"{tally[name]} {words}" in line) == bool(tally[name]), line
    return len(rows)


@pytest.mark.parametrize("build", ["demo", "demo-good-candidate-accepted", "parts", *REAL_WITH_FACTS])
def test_checks_cross_and_survivals_lost_are_one_number(build: str, tmp_path: Path, sample_store: Path,
                                                       imported_copy: Any) -> None:
    """The demo, the demo after the good candidate is accepted (its summary names no res:run-184),
    a store with a fact in every part, and real transcripts — as imported and all confirmed."""
    if build.startswith("demo"):
        store = sample_store
        if build == "demo-good-candidate-accepted":
            assert CliRunner().invoke(cli, ["accept", str(store), "cand-good"], env=ENV).exit_code == 0
    elif build == "parts":
        store = _parts_store(tmp_path)
    else:
        if not (REAL / build).exists():
            pytest.skip("real transcripts not present")
        store = imported_copy(REAL / build, actor="owner")
    assert _assert_one_number(store) >= 1
    _confirm_all(store)
    assert _assert_one_number(store) >= 1


def test_the_parts_store_says_every_part_where_survival_is_read(tmp_path: Path) -> None:
    store = _parts_store(tmp_path)
    runner = CliRunner()
    plain = runner.invoke(cli, ["survival", str(store), "--session", "s1"], env=ENV)
    assert plain.output.startswith("s1 gen 1: 1 of 4 facts kept, 1 lost, 1 not restated, 1 pending lost, 0 not judged")
    rows = {line.split()[2]: line for line in plain.output.splitlines()[1:]}
    assert "not restated: the protected state carries it beside the summary; check says ?, not ✗" in rows["evidence_ref"]
    doc = json.loads(runner.invoke(cli, ["survival", str(store), "--session", "s1", "--json"], env=ENV).stdout)
    assert doc["tally"] == {"kept": 1, "lost": 1, "not_restated": 1, "pending_lost": 1, "not_judged": 0}
    assert doc["counts"] == {"kept": 1, "missing": 3, "contradicted": 0, "unknown": 0}  # kept, as it was
    assert {f["key"]: f["part"] for f in doc["facts"]} == {"goal.ship": "kept", "constraint.prod": "lost",
                                                          "evidence.run": "not_restated", "constraint.csv": "pending_lost"}
    checked = json.loads(runner.invoke(cli, ["check", str(store), "--json"], env=ENV).stdout)["sessions"][0]
    assert checked["survival_tally"] == doc["tally"] and len(checked["survival"]) == 1


def test_the_report_marks_the_fact_not_restated_where_it_says_missing(sample_store: Path, tmp_path: Path) -> None:
    """The report's table said "∅ missing" for res:run-184 in generations 2 and 3 beside a header of
    "✗ 2 facts lost": which missing fact check did not count was left to guess."""
    page = tmp_path / "r.html"
    assert CliRunner().invoke(cli, ["report", str(sample_store), "--session", "s-export", "-o", str(page)],
                              env=ENV).exit_code == 0
    html = page.read_text(encoding="utf-8")
    table = html[html.index('<section id="survival">'):]
    row = table[table.index("<code>evidence.run184</code>"):].split("</tr>")[0]
    assert row.count("∅ missing · not restated") == 2 and "check says ?, not ✗" in row, row
    lost = table[table.index("<code>constraint.prod</code>"):].split("</tr>")[0]
    assert "∅ missing</td>" in lost and "not restated" not in lost  # check's ✗: said as it was
    assert "gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged" in html


def test_plain_check_says_survivals_count_beside_the_lines_it_counts(sample_store: Path) -> None:
    """`check` listed two `survival fact_…` lines and a `! facts_not_restated` line with no count to
    match against the header's "∴ … 2 lost, 1 not restated"; now its line says it, once per session."""
    out = CliRunner().invoke(cli, ["check", str(sample_store), "--session", "s-export"], env=ENV).output
    lines = out.splitlines()
    said = [line for line in lines if line.startswith("    survival gen ")]
    assert said == ["    survival gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged · 1 untrusted not counted"]
    assert sum(line.startswith("    survival fact_") for line in lines) == 2  # the "2 lost"
    assert sum(line.startswith("    ! facts_not_restated ") for line in lines) == 1
    clear = CliRunner().invoke(cli, ["check", str(sample_store), "--session", "s-orders"], env=ENV).output
    assert "survival gen" not in clear  # every fact kept: nothing to count against
    doc = json.loads(CliRunner().invoke(cli, ["check", str(sample_store), "--session", "s-export", "--json"],
                                        env=ENV).stdout)
    assert doc["sessions"][0]["survival_headline"] == said[0].strip().removeprefix("survival ")
