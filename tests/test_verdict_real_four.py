"""verdict-real-four: the exit codes of ``survival``, ``drift`` and ``check`` say the same failure, and
survival's per-kind counts and ``regress`` count survival's parts (domain/survival_report.part), not
the four verdicts (docs/reviews/survival-words.md, not done 2, 4, 5; docs/verdicts.md "Exit codes agree").

Before: a summary that named every goal and constraint but not an evidence reference the protected
state carries was "?" in ``check`` (exit 0) and exit 1 in ``survival``; ``regress`` failed it; the
Survival tab said "evidence_ref: 0/1 kept" with no word of why check did not count it lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.drift_rules import DriftContext
from inspector.domain.regress import Answer, RegressCase, judge_generation
from tests.conftest import event_record, session_record, write_sif

ENV = {"INSPECTOR_REVIEWER": "owner"}
AT = "2025-05-01T00:00:00Z"
TEXTS = ["Goal: ship the export fix. Never touch the production database.", "See res:run-184 for the log.", "ok"]


def _state(key: str, kind: str, value: str, source: str) -> dict[str, Any]:
    return {"type": "state", "session": "s1", "key": key, "kind": kind, "value": value, "sources": [source],
            "writer": "user", "at": AT, "scope": "task", "version": 1, "status": "active"}


def _sif(tmp_path: Path, summary: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return write_sif(tmp_path / "s.jsonl", [
        session_record(), *[event_record(i, content=text) for i, text in enumerate(TEXTS, 1)],
        _state("goal.ship", "goal", "ship the export fix", "evt:1"),
        _state("constraint.prod", "constraint", "never touch the production database", "evt:1"),
        _state("evidence.run", "evidence_ref", "res:run-184", "evt:2"),
        {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": summary, "covers": [1, 3]}])


def _store(tmp_path: Path, summary: str) -> Path:
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(_sif(tmp_path, summary)), "--into", str(store)],
                              env=ENV).exit_code in (0, 1)
    return store


def _exits(store: Path) -> dict[str, tuple[int, str]]:
    """Each command's exit code and the verdict its JSON says."""
    out = {}
    for name in ("check", "drift", "survival"):
        result = CliRunner().invoke(cli, [name, str(store), *(["--session", "s1"] if name != "check" else []),
                                          "--json"], env=ENV)
        doc = json.loads(result.stdout)
        verdict = doc["verdict"] if name != "survival" else ("failed" if doc["tally"]["lost"] else
                                                             "unknown" if sum(doc["tally"].values()) > doc["tally"]["kept"]
                                                             else "clear")
        out[name] = (result.exit_code, verdict)
    return out


NOT_RESTATED = "We ship the export fix. Never touch the production database."
LOST = "We ship the export fix."


def test_survival_drift_and_check_exit_alike(tmp_path: Path) -> None:
    """An evidence reference only not restated: every command says ? and exits 0 (survival exited 1);
    a confirmed constraint lost: every command says ✗ and exits 1."""
    for summary, verdict, code in ((NOT_RESTATED, "unknown", 0), (LOST, "failed", 1)):
        exits = _exits(_store(tmp_path / verdict, summary))
        assert exits == {"check": (code, verdict), "drift": (code, verdict), "survival": (code, verdict)}, exits


def test_survival_per_kind_counts_say_the_parts(tmp_path: Path) -> None:
    store = _store(tmp_path, NOT_RESTATED)
    doc = json.loads(CliRunner().invoke(cli, ["survival", str(store), "--session", "s1", "--json"], env=ENV).stdout)
    assert doc["tally_by_kind"]["evidence_ref"] == {"kept": 0, "lost": 0, "not_restated": 1, "pending_lost": 0,
                                                    "not_judged": 0}
    assert doc["counts_by_kind"]["evidence_ref"]["missing"] == 1  # the verdicts, as they were
    assert {k: sum(v.values()) for k, v in doc["tally_by_kind"].items()} == {"goal": 1, "constraint": 1,
                                                                            "evidence_ref": 1}


def test_regress_fails_what_check_fails_and_not_what_it_only_warns(tmp_path: Path) -> None:
    """A summarizer's generation that drops only the evidence reference passes regress (check: ?);
    one that drops the constraint fails it, naming the constraint."""
    events = tuple({"seq": i, "kind": "user_message", "trust": "user", "content": t} for i, t in enumerate(TEXTS, 1))
    state = (_state("goal.ship", "goal", "ship the export fix", "evt:1"),
             _state("constraint.prod", "constraint", "never touch the production database", "evt:1"),
             _state("evidence.run", "evidence_ref", "res:run-184", "evt:2"))
    case = RegressCase("c", "c.jsonl", "s1", events, state, ())
    covers = (1, 3)
    passed = judge_generation(case, 1, covers, Answer(NOT_RESTATED, (), (), "text"), DriftContext())
    assert passed.passed and passed.as_dict()["tally"]["not_restated"] == 1
    failed = judge_generation(case, 1, covers, Answer(LOST, (), (), "text"), DriftContext())
    assert not failed.passed and [v.fact.key for v in failed.lost] == ["constraint.prod"]


def test_a_nudge_to_carry_on_is_no_later_request_and_costs_a_faithful_summary_nothing(tmp_path: Path) -> None:
    """The Anthropic case of bench/verdict_real_four: "thanks, go on" before the compaction was
    proposed as a later-request goal; confirmed, every summary (the faithful one too) lost it (✗)."""
    from inspector.domain.later_requests import is_request
    from tests.verdict_real_four_cases import build, cases

    for nudge in ("thanks, go on", "ok continue", "Keep going.", "please proceed", "yes, carry on", "继续"):
        assert not is_request(nudge), nudge
    for request in ("go on with the migration", "continue the export fix, then push", "keep going and add a test"):
        assert is_request(request), request
    case = next(c for c in cases() if c.name == "version-faithful")
    if not (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / case.source).exists():
        return  # the real file is not here: the words above are the rule
    name, data = build(case)
    (tmp_path / name).write_bytes(data)
    store = tmp_path / "v.db"
    out = json.loads(CliRunner().invoke(cli, ["import", "--into", str(store), str(tmp_path / name), "--json"],
                                        env=ENV).stdout)
    session = out["sessions"][0]
    CliRunner().invoke(cli, ["confirm", str(store), "--session", session, "--all-pending"], env=ENV)
    doc = json.loads(CliRunner().invoke(cli, ["survival", str(store), "--session", session, "--json"], env=ENV).stdout)
    assert not [f for f in doc["facts"] if "go on" in f["value"]]
    assert doc["tally"]["lost"] == 0


def test_a_version_the_log_never_holds_is_invented_and_an_amount_is_not_read() -> None:
    """The fixed_version transcript's tool answered "0.32a0"; a summary saying "the version is 0.3.2"
    got the same marks as the faithful one (same `?`, same codes). A version is now a name the
    evidence must hold, whole."""
    from inspector.domain.invented import invented, named_identifiers

    evidence = "tool fixed_version returned 0.32a0; go 1.22.3 on 10.0.0.12; took 1.5 s"
    assert [n.text for n in invented("The version is 0.3.2. Go 1.22.3.", evidence)] == ["0.3.2"]
    assert invented("The version is 0.32a0 (v0.32a0), on 10.0.0.12.", evidence) == []
    assert [n.text for n in invented("It runs on 10.0.0.1.", evidence)] == ["10.0.0.1"]  # not inside 10.0.0.12
    assert named_identifiers("took 1.5 s, 1.5x faster, 3.2ms, 2.5GB on Python 3.11 at 01:41:13.442Z") == []


def test_the_changed_version_is_a_finding_where_the_log_is_whole(tmp_path: Path) -> None:
    texts = ["Use the fixed_version tool, then tell me the version.", "fixed_version: 0.32a0"]

    def store(summary: str, name: str) -> Path:
        sif = write_sif(tmp_path / f"{name}.jsonl", [
            session_record(), *[event_record(i, content=text) for i, text in enumerate(texts, 1)],
            _state("goal.main", "goal", texts[0], "evt:1"),
            {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": summary,
             "covers": [1, 2], "sources": ["evt:1", "evt:2"]}])
        db = tmp_path / f"{name}.db"
        assert CliRunner().invoke(cli, ["import", str(sif), "--into", str(db)], env=ENV).exit_code in (0, 1)
        return db

    for version, found in (("0.32a0", []), ("0.3.2", ["invented_identifier"])):
        db = store(f"{texts[0]} The tool said {version}; told the user the version is {version}.", version)
        doc = json.loads(CliRunner().invoke(cli, ["drift", str(db), "--session", "s1", "--json"], env=ENV).stdout)
        assert [f["code"] for f in doc["findings"] if f["code"].startswith("invented")] == found, doc["findings"]


GOAL = "Compose a 12-line poem where the odd-numbered lines spell \"SAMIRA\"; use Python 3.11"


def _drift_codes(tmp_path: Path, summary: str, name: str) -> tuple[int, dict[str, str], str]:
    texts = [GOAL, "ok"]
    sif = write_sif(tmp_path / f"{name}.jsonl", [
        session_record(), *[event_record(i, content=text) for i, text in enumerate(texts, 1)],
        _state("goal.main", "goal", GOAL, "evt:1"),
        {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": summary,
         "covers": [1, 2], "sources": ["evt:1"]}])
    db = tmp_path / f"{name}.db"
    assert CliRunner().invoke(cli, ["import", str(sif), "--into", str(db)], env=ENV).exit_code in (0, 1)
    result = CliRunner().invoke(cli, ["drift", str(db), "--session", "s1", "--json"], env=ENV)
    doc = json.loads(result.stdout)
    check = json.loads(CliRunner().invoke(cli, ["check", str(db), "--json"], env=ENV).stdout)["sessions"][0]
    return result.exit_code, {f["code"]: f["message"] for f in doc["findings"]}, check["verdict"]


def test_a_goal_reworded_with_every_number_and_name_is_not_judged_and_a_changed_one_is_missing(
        tmp_path: Path) -> None:
    """Real handoffs restate the user's goal, they do not quote it: 4 of 7 faithful summaries on real
    transcripts were ✗ `protected_missing` while survival said `unknown`. A rewording that keeps most
    words and every number and name is "?" (`goal_reworded`, saying what it could not tell); a changed
    number, name or version, or a goal mostly gone, stays ✗."""
    faithful = ("The user wants a 12-line poem whose odd-numbered lines spell \"SAMIRA\", using Python 3.11. "
                "Drafted it.")
    code, found, verdict = _drift_codes(tmp_path, faithful, "faithful")
    assert (code, set(found), verdict) == (0, {"goal_reworded"}, "unknown"), found
    assert "cannot tell" in found["goal_reworded"] and "12-line" in found["goal_reworded"]
    for name, drifted in (("lines", faithful.replace("12-line", "10-line")),
                          ("name", faithful.replace("SAMIRA", "SAMIRAH")),
                          ("version", faithful.replace("3.11", "3.11-rc")),
                          ("gone", "Drafted a poem.")):
        code, found, verdict = _drift_codes(tmp_path, drifted, name)
        assert (code, verdict) == (1, "failed") and "protected_missing" in found, (name, found)


def test_a_rules_opening_said_behind_a_negation_is_contradicted_and_a_narrowing_is_not() -> None:
    """The real dice game's prompt rule "Use the player's name in the response"; a handoff saying
    "keep it anonymous, never use the player's name" was `unknown` (check ?, the same as the faithful
    handoff). The rule's opening clause behind a negation, ending its clause, is its opposite."""
    from inspector.domain.survival import Fact, survival

    rule = Fact("constraint.name", "constraint", "Use the player's name in the response", "active", ("evt:1",),
                "user")
    plan = Fact("constraint.plan", "constraint", "You MUST use the update_plan tool and continually update it",
                "active", ("evt:1",), "user")

    def verdict(text: str, fact: Fact = rule) -> str:
        return survival(1, text, [], (1, 3), [fact]).verdicts[0].verdict

    assert verdict("Anne guessed 4. Keep it anonymous, never use the player's name. She won.") == "contradicted"
    assert verdict("Don't use the player's name anymore.") == "contradicted"
    assert verdict("Never use the update_plan tool again; it slows things down.", plan) == "contradicted"
    # the real Responses instructions made a choice: "MUST use the update_plan tool" said optional
    assert verdict("Instructions in force: the update_plan tool is optional; skip it for short tasks.",
                   plan) == "contradicted"
    assert verdict("You don't need to use the update_plan tool.", plan) == "contradicted"
    # a narrowing to another place, or the rule kept, is not its opposite
    assert verdict("Do not use the player's name in logs; use it in the response.") != "contradicted"
    assert verdict("We never use the player's name for debugging.") != "contradicted"
    assert verdict("Use the player's name in the response: told Anne she won.") == "kept"
    assert verdict("Used the update_plan tool: the plan is set, and I keep it updated.", plan) != "contradicted"


def test_a_correction_that_rewords_the_goal_is_saved_with_its_doubt_said(tmp_path: Path) -> None:
    """``correct-summary`` refused a text with a finding and listed a sentence the rules could not judge;
    with the goal's ✗ now a `goal_reworded` warning, a corrected text rewording the goal must still say
    it was not judged in full (`saved_with_doubts`), never read as clean."""
    texts = [GOAL, "ok"]
    sif = write_sif(tmp_path / "c.jsonl", [
        session_record(), *[event_record(i, content=text) for i, text in enumerate(texts, 1)],
        _state("goal.main", "goal", GOAL, "evt:1"),
        {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": GOAL,
         "covers": [1, 2], "sources": ["evt:1"]}])
    db = tmp_path / "c.db"
    assert CliRunner().invoke(cli, ["import", str(sif), "--into", str(db)], env=ENV).exit_code in (0, 1)
    text = tmp_path / "fixed.txt"
    text.write_text("The user wants a 12-line poem whose odd-numbered lines spell \"SAMIRA\", using Python 3.11.",
                    encoding="utf-8")
    result = CliRunner().invoke(cli, ["correct-summary", str(db), "--session", "s1", "--generation", "1",
                                      "--text-file", str(text), "--reason", "reworded", "--json"], env=ENV)
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and [w["code"] for w in doc["warnings"]] == ["goal_reworded"], doc
