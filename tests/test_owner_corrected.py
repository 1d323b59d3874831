"""One rule after an owner's correction (review-18 #1, verdict-thirteen): a value the owner wrote in review
after a generation was written is "?" in drift, survival and check alike — the summary could not know its
words — naming the value it replaced when the text still holds it; kept and contradicted stay decided, and a
generation written after the correction is judged as any other (docs/verdicts.md, "After an owner's correction").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.drift import GenerationText, StateFact, find_drift
from inspector.domain.owner_corrected import CODE, corrected_after
from inspector.domain.survival import Fact, survival
from tests.test_check_survival import AUTO_MICRO, ENV, _import

OLD = "Fix the export timeout"
NEW = "Stream the export instead of paging it"


def _judge(text: str, written_at: int | None) -> tuple[set[str], str, str]:
    gen = GenerationText(1, "recursive", text, (), ("evt:1",), (), (1, 4), written_at)
    state = [StateFact("goal.main", "goal", NEW, "active", ("ledger:3",), "owner", replaced=OLD)]
    found = find_drift(gen, state)
    fact = Fact("goal.main", "goal", NEW, "active", ("ledger:3",), "owner")
    [v] = survival(1, text, [], (1, 4), [fact], written_at=written_at, replaced={"goal.main": OLD}).verdicts
    return {f.code for f in found if f.severity == "finding"} | {f.code for f in found if f.code == CODE}, \
        v.verdict, v.reason


def test_the_corrected_value_missing_from_an_earlier_text_is_a_question_in_drift_and_survival() -> None:
    codes, verdict, why = _judge(f"Goal: {OLD}. Edited export.go.", written_at=1)
    assert codes == {CODE} and verdict == "unknown"
    assert "ledger:3" in why and f"still holds the value it replaced, “{OLD.casefold()}”" in why.casefold()
    codes, verdict, why = _judge("Edited export.go.", written_at=1)
    assert codes == {CODE} and verdict == "unknown" and "in its own words a person must judge" in why


def test_kept_and_cancelled_stay_decided_and_a_later_text_is_judged_as_any() -> None:
    assert _judge(f"Goal: {NEW}.", written_at=1)[:2] == (set(), "kept")
    codes, verdict, _ = _judge(f"Goal (abandoned): {NEW}.", written_at=1)
    assert "protected_negated" in codes and verdict == "contradicted"
    codes, verdict, _ = _judge(f"Goal: {OLD}.", written_at=5)  # written after ledger:3: it could know the value
    assert codes == {"protected_missing"} and verdict in ("missing", "unknown")
    assert corrected_after(("evt:1", "ledger:3"), None) is None  # the log said it: not the owner's alone


def _json(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, [*args, "--json"], env=ENV)
    return result.exit_code, json.loads(result.stdout)


def test_check_drift_and_survival_say_the_same_after_the_owner_corrects_the_goal(tmp_path: Path) -> None:
    """review-18 #1 on the real transcript: check was ✗ (drift protected_missing) while survival said "not
    judged". Now every surface says "?" with one reason; --strict still fails it."""
    if not AUTO_MICRO.exists():
        pytest.skip("real transcripts not present")
    store, (session,) = _import(tmp_path, AUTO_MICRO)
    _json("correct", str(store), "--session", session, "--key", "goal.main", "--value", "a new goal",
          "--reason", "the goal as the owner says it")
    code, checked = _json("check", str(store))
    (s,) = checked["sessions"]
    assert code == 0 and s["verdict"] == "unknown" and not s["drift"] and not s["survival"]
    [note] = [w for w in s["warnings"] if w["code"] == CODE]
    _, drift = _json("drift", str(store), "--session", session)
    assert [f["code"] for f in drift["findings"] if f["key"] == "goal.main"] == [CODE]
    _, surv = _json("survival", str(store), "--session", session)
    [main] = [f for f in surv["facts"] if f["key"] == "goal.main" and f["status"] == "active"]
    assert main["verdict"] == "unknown" and main["reason"] in note["message"]
    assert "the summary could not know these words" in main["reason"]
    assert CliRunner().invoke(cli, ["check", str(store), "--strict"], env=ENV).exit_code == 1


def test_a_text_written_after_the_correction_is_judged_as_any(tmp_path: Path) -> None:
    """A corrected generation filed after the owner's correction could know the value: missing is ✗ in
    drift, survival and check alike (written_at from the ledger; check_text judges it as written now)."""
    if not AUTO_MICRO.exists():
        pytest.skip("real transcripts not present")
    store, (session,) = _import(tmp_path, AUTO_MICRO)
    _json("correct", str(store), "--session", session, "--key", "goal.main", "--value", "a new goal",
          "--reason", "the goal as the owner says it")
    text = tmp_path / "t.txt"
    text.write_text("The user asked about sessions in the metadata.", encoding="utf-8")
    refused = CliRunner().invoke(cli, ["correct-summary", str(store), "--session", session, "--generation", "1",
                                       "--text-file", str(text), "--reason", "shorter"], env=ENV)
    assert refused.exit_code == 1 and "protected_missing" in refused.output  # checked before it is saved
    saved = CliRunner().invoke(cli, ["correct-summary", str(store), "--session", session, "--generation", "1",
                                     "--text-file", str(text), "--reason", "shorter", "--save-anyway"], env=ENV)
    assert saved.exit_code == 0, saved.output
    code, checked = _json("check", str(store))
    (s,) = checked["sessions"]
    assert code == 1 and s["verdict"] == "failed"
    assert [f["code"] for f in s["drift"] if f.get("key") == "goal.main"] == ["protected_missing"]
    assert [f["code"] for f in s["survival"] if f.get("key") == "goal.main"] == ["fact_missing"]


def test_a_decision_the_owner_corrected_after_the_text_is_a_question_too() -> None:
    gen = GenerationText(1, "recursive", "Edited export.go.", (), ("evt:1",), (), (1, 4), 1)
    state = [StateFact("decision.export", "decision", "stream the export", "active", ("ledger:3",), "owner",
                       alternatives=("page the export",))]
    assert [f.code for f in find_drift(gen, state) if f.key == "decision.export"] == [CODE]
    later = GenerationText(2, "recursive", "Edited export.go.", (), ("evt:1",), (), (1, 4), 5)
    assert [f.code for f in find_drift(later, state) if f.key == "decision.export"] == ["protected_missing"]
