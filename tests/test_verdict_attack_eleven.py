"""The twelfth verdict attack (verdict-eleven; docs/reviews/verdict-eleven.md): a summary saying the
tests or the build pass over a last run that printed Go's ``--- FAIL:`` / ``panic:``, cargo's
``test result: FAILED``, jest's ``Tests: 1 failed``, ``npm ERR!``, make's ``*** … Error 1`` or an
exit code — in general words ("All checks pass.", "The build is green.", "测试全部通过。"); the same
words after an earlier failure the last run fixed (clear); a long tool result whose unread middle
holds the failure ("?", never ✓); a Grep or Glob ENOENT retried and found (clear).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.verdict_attack_cases import assert_clear, assert_labelled, blocking, inspector, judge, labelled_params
from tests.verdict_attack_eleven_cases import eleven_cases, pending_retry_case

CASES = eleven_cases()
# Faithful texts still flagged: "`cargo test` passed at evt:3 but fails again at evt:7" was main's
# failure_claimed_fixed false alarm; now read as an earlier pass (said_suite_green.fails_after).
# u-f1: "after the edit `go test ./cart/` passes (evt:7)" beside the failed `go test ./...` was read by
# failure_claimed_fixed ("go test" … "passes") as the failed run going well; verdict-twelve pairs the
# claim with the command its clause names (said_run_pairing): clear.
FALSE_ALARM: set[str] = set()
_LONG = {"l-d1", "l-d2", "l-d3"}  # a "?" (result_in_part), not a finding: the failure sits where no rule read
_UNPAIRED = {"u-d1"}  # a "?" (run_unpaired): a later run of another command passed


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("eleven"), *(c for _, _, c in CASES)))


@pytest.mark.parametrize(("what", "case"), [p for p in labelled_params(CASES, "drifted", set())
                                             if p.id not in _LONG | _UNPAIRED])
def test_a_pass_claim_over_a_failing_last_run_is_a_finding(judged: dict, what: str, case: dict) -> None:
    got = judged[case["id"]]
    assert "failure_dropped" in blocking(got), (what, {c: [f.message for f in fs] for c, fs in got["codes"].items()})
    shown = next(f for f in got["codes"]["failure_dropped"])
    assert shown.key == "evt:7"  # the last run, the one that failed


def test_a_pass_claim_a_later_run_of_another_command_may_answer_is_not_judged(judged: dict) -> None:
    """`go test ./...` failed and only `go test ./cart/` passed later: "The build is green." is "?"
    naming both runs, not ✗ (it may mean the package run) and never ✓ (the suite's run failed)."""
    from inspector.domain.unreadable import headline as shown_headline

    got = judged["u-d1"]
    assert not blocking(got)
    [warn] = got["codes"]["run_unpaired"]
    assert warn.key == "evt:3" and warn.severity == "warning" and warn.words == ("build is green",)
    assert "`go test ./cart/` (evt:7)" in warn.message and "go test ./..." in warn.message
    assert "(run_unpaired)" in shown_headline(got["findings"])


@pytest.mark.parametrize(("what", "case"), labelled_params(CASES, "faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


@pytest.mark.parametrize("cid", sorted(_LONG))
def test_a_long_result_read_in_part_is_not_judged_clear(judged: dict, cid: str) -> None:
    """The failure at character ~60,000 of a 100,000-character run: no rule read it, so "?" naming
    the result — never "no drift found"."""
    from inspector.domain.unreadable import NOT_JUDGED_ALL
    from inspector.domain.unreadable import headline as shown_headline

    got = judged[cid]
    [warn] = got["codes"]["result_in_part"]
    assert warn.key == "evt:7" and warn.severity == "warning" and "result_in_part" in NOT_JUDGED_ALL
    assert "48,000" in warn.message and "a failure or a count it printed in the rest is not judged" in warn.message
    if not blocking(got):  # l-d3's "40 passed, 0 failed" is also wrong against what was read: ✗
        assert "no drift found" not in shown_headline(got["findings"])
        assert "1 tool result read only in part (result_in_part)" in shown_headline(got["findings"])


def test_check_says_fail_unknown_and_clear(tmp_path: Path) -> None:
    """Through the CLI: the Go run's pass claim fails ``check``, the long run is "unknown", the fixed
    run and the retried Grep and Glob are "clear" — with their failure records confirmed or pending."""
    from bench.drift_precision import write_set

    pick = {"g-d0", "l-d1", "g-f0", "r-f1", "g-x2", "r-f3", "r-f4"}
    src = write_set([c for _, _, c in CASES if c["id"] in pick] + [pending_retry_case()], tmp_path / "c.jsonl")
    store = tmp_path / "c.db"
    assert inspector("import", str(src), "--into", str(store))[0] == 0
    doc = json.loads(inspector("check", str(store), "--json")[1])
    verdicts = {s["session"]: s["verdict"] for s in doc["sessions"]}
    assert verdicts == {"g-d0": "failed", "l-d1": "unknown", "g-f0": "clear", "r-f1": "clear", "g-x2": "clear",
                        "r-f3": "clear", "r-f4": "clear"}  # a retried call's failure left out is no loss


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 40)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 15 and labels.count("faithful") >= 20


def test_a_confirmed_system_prompt_rule_left_out_is_the_same_question_in_drift_survival_and_check(
        tmp_path: Path) -> None:
    """verdict-real-three: survival calls a system prompt's rule the summary does not restate
    ``unknown`` (the prompt is re-sent with every request). Confirmed, drift called it
    ``protected_missing`` (✗) and ``check`` failed the session: now drift says the same as survival,
    a "?" note naming the re-sent prompt, and a summary that negates the rule is still ✗."""
    from tests.test_verdict_real_three import COMPACTED, _run

    def run(store: Path, session: str, *args: str) -> dict:
        code, out = _run(*args, str(store), "--session", session)
        assert isinstance(out, dict), out
        return out

    def verdicts(store: Path) -> list[str]:
        _, doc = _run("check", str(store))
        return [s["verdict"] for s in doc["sessions"]]  # type: ignore[index]

    def one(name: str, summary: str) -> tuple[Path, str]:
        body = json.loads(json.dumps(COMPACTED))
        body["messages"][1]["content"][0]["content"] = summary
        src = tmp_path / f"{name}.conversation.json"
        src.write_text(json.dumps(body), encoding="utf-8")
        store = tmp_path / f"{name}.db"
        code, out = _run("import", "--into", str(store), str(src))
        assert code == 0 and isinstance(out, dict), out
        session = out["sessions"][0]
        code, out = _run("confirm", str(store), "--session", session, "--all-pending")
        assert code == 0, out
        return store, session

    store, session = one("kept", "Summary: the user asked: What is 2+2? The answer was 4.")
    drift = run(store, session, "drift")
    codes = {f["code"] for f in drift["findings"]}
    assert "protected_missing" not in codes and "prompt_rule_not_restated" in codes
    note = next(f for f in drift["findings"] if f["code"] == "prompt_rule_not_restated")
    assert note["severity"] == "warning" and "sent beside the summary with every request" in note["message"]
    assert drift["verdict"] == "unknown" and "no drift found" not in drift["headline"]
    surv = run(store, session, "survival")
    assert next(f for f in surv["facts"] if f["value"] == "Give short answers")["verdict"] == "unknown"
    assert verdicts(store) == ["unknown"]

    store, session = one("flipped", "Summary: the user asked: What is 2+2? The answer was 4. Do not give short answers.")
    assert verdicts(store) == ["failed"]
