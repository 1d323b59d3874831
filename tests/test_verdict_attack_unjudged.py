"""Drift judges active records only. On an imported transcript every proposed fact is
pending, so before this fix drift said "no drift found", the Drift tab "no drift" and
``check`` "✓" for a compaction summary that dropped every one of them (survival said 7
missing). A verdict says what it checked: the pending facts it did not judge are named,
and ``check`` lists what survival found lost instead of a bare ✓.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli as main
from inspector.domain.drift import Finding, headline
from tests.verdict_attack_cases import FAITHFUL, STATE, case, judge

REAL = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "995ebed6e4-2__two_records_on_one_line_v2.1.7.jsonl")

PENDING = [{**s, "status": "pending", "writer": "extractor"} for s in STATE]


async def test_pending_facts_drift_cannot_judge_are_named_not_passed(tmp_path: Path) -> None:
    got = (await judge(tmp_path, case("title-only", "Fix export", state=PENDING)))["title-only"]
    warned = got["codes"].get("facts_not_judged", [])
    assert warned and warned[0].severity == "warning"
    # 7: the pending decision too — the extractor's, so no dispute but a proposal survival judges
    # (verdict-real-five; it was read as a dispute_flattened ✗ before)
    assert "7 pending" in warned[0].message and "not judged" in warned[0].message
    # survival reads them, and says they are gone
    assert "missing" in got["survival"].values()


async def test_a_session_with_only_active_records_gets_no_such_warning(tmp_path: Path) -> None:
    active = [s for s in STATE if s.get("status") != "pending"]
    got = (await judge(tmp_path, case("faithful", FAITHFUL, state=active)))["faithful"]
    assert got["codes"] == {}


def _compacted_to_a_title(src: Path) -> None:
    """The real transcript, compacted where Claude Code titled it (after line 129) to that one-line
    title. (Its own ``summary`` records are titles, not compactions — test_summary_records.py — so the
    compaction that drops every fact is written here as Claude Code writes one.)"""
    lines = REAL.read_bytes().split(b"\n")
    titled = json.loads(lines[128])
    assert titled["type"] == "summary"
    before = json.loads(lines[126])
    boundary = {"parentUuid": None, "logicalParentUuid": before.get("uuid"), "type": "system",
                "subtype": "compact_boundary", "content": "Conversation compacted", "sessionId": before["sessionId"],
                "uuid": "fe-boundary", "timestamp": before.get("timestamp"), "compactMetadata": {"trigger": "manual"}}
    summary = {"parentUuid": "fe-boundary", "type": "user", "isCompactSummary": True, "sessionId": before["sessionId"],
               "uuid": "fe-summary", "timestamp": before.get("timestamp"),
               "message": {"role": "user", "content": titled["summary"]}}
    added = [json.dumps(boundary).encode(), json.dumps(summary).encode()]
    src.write_bytes(b"\n".join(lines[:129] + added + lines[129:]))


@pytest.mark.skipif(not REAL.exists(), reason="the real transcripts are not beside the project")
def test_check_and_drift_on_a_real_transcript_do_not_give_a_bare_all_clear(tmp_path: Path) -> None:
    src = tmp_path / REAL.name
    _compacted_to_a_title(src)
    store = tmp_path / "real.db"
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(src), "--into", str(store), "--reviewer", "t"]).exit_code == 0
    sid = json.loads(runner.invoke(main, ["sessions", str(store), "--json"]).output)[0]["id"]
    plain = runner.invoke(main, ["drift", str(store), "--session", sid]).output
    assert "no drift found" not in plain.splitlines()[0] or "not judged" in plain.splitlines()[0]
    checked = runner.invoke(main, ["check", str(store)])
    assert not checked.output.startswith("✓"), checked.output
    doc = json.loads(runner.invoke(main, ["check", str(store), "--json"]).output)
    codes = {w["code"] for w in doc["sessions"][0]["warnings"]}
    assert "facts_lost" in codes and doc["sessions"][0]["ok"] is True  # a warning, never a refusal


@pytest.mark.skipif(not REAL.exists(), reason="the real transcripts are not beside the project")
def test_names_the_log_cannot_confirm_make_the_line_unknown_even_when_survival_keeps_every_fact(
        tmp_path: Path) -> None:
    """The summary keeps both proposals (no survival line), but names files and ids the log
    never shows (it continues an earlier conversation): the rule says it cannot tell whether
    they were invented, so the line is "?" and the JSON says "unknown" — never ✓."""
    name = "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    src = tmp_path / name
    shutil.copyfile(REAL.parent / name, src)
    store = tmp_path / "kept.db"
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(src), "--into", str(store), "--reviewer", "t"]).exit_code == 0
    checked = runner.invoke(main, ["check", str(store)])
    out = checked.output
    assert out.startswith("? ") and "identifier_unverified" in out and "facts_lost" not in out, out
    assert "0 ✓ clear, 1 ? not judged in full" in out.splitlines()[-1]
    assert checked.exit_code == 0  # a warning, never a refusal (DESIGN: exit 1 on refusals and findings)
    doc = json.loads(runner.invoke(main, ["check", str(store), "--json"]).output)
    assert doc["ok"] is True and doc["verdict"] == "unknown"
    assert doc["sessions"][0]["verdict"] == "unknown"


def test_the_headline_names_every_part_that_was_not_judged() -> None:
    """A generation with unconfirmed names and pending facts: the headline names both, and never
    says "no drift" (the Drift tab and `inspector drift` show it as the generation's line)."""
    found = [Finding("identifier_unverified", None, "generation 1 names …", "warning", words=("a.go", "b.go")),
             Finding("facts_not_judged", None, "generation 1: 3 pending proposals are not judged", "warning")]
    assert headline(found) == ("no finding; 2 names the log cannot confirm (identifier_unverified); "
                               "3 pending not judged (see survival)")
    assert headline(found[1:]) == "no drift in the active records; 3 pending not judged (see survival)"
    assert headline([]) == "no drift found"
