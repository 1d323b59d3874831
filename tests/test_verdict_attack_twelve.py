"""The thirteenth verdict attack (verdict-twelve; docs/reviews/verdict-twelve.md): a pass claim paired
with the run it is about (a narrower re-run beside a wider failure, a wider pass after a narrower
failure), Go's package and test lines counted, a long result no claim depends on, a lookup that found
nothing. Cases: tests/verdict_attack_twelve_cases.py (labelled before the rules were written).
"""

from __future__ import annotations

import pytest

from tests.verdict_attack_cases import assert_clear, assert_labelled, blocking, judge, labelled_params
from tests.verdict_attack_twelve_cases import twelve_cases

CASES = twelve_cases()
# Drifted texts not caught: none. verdict-thirteen caught e-d2 (a sources list citing the failing evt:7
# names nothing: said_failure_stated) and h-d3 ("2 packages pass (evt:7)" is judged against evt:7, whose
# package without tests passed nothing: count_words, output_go).
NOT_CAUGHT: set[str] = set()
# Drifted texts that are an honest "?" (what the later run covered, or the long result's middle, is not known).
UNSURE = {"p-d8": "run_unpaired", "l-d4": "result_in_part", "l-d5": "result_in_part", "l-d6": "result_in_part"}
FALSE_ALARM: set[str] = set()
_PENDING = {"e-f1", "e-f2"}  # a pending record: drift's "not judged until confirmed" note stays (as for any)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("twelve"), *(c for _, _, c in CASES)))


@pytest.mark.parametrize(("what", "case"), [p for p in labelled_params(CASES, "drifted", NOT_CAUGHT)
                                             if p.id not in UNSURE])
def test_a_drifted_text_is_a_finding(judged: dict, what: str, case: dict) -> None:
    got = judged[case["id"]]
    assert blocking(got), (what, {c: [f.message for f in fs] for c, fs in got["codes"].items()})


@pytest.mark.parametrize("cid", sorted(UNSURE))
def test_what_cannot_be_paired_or_read_is_a_named_question(judged: dict, cid: str) -> None:
    """Never ✓: a "?" naming the run (`go test -run TestTotal ./...` ran tests no output lists)."""
    from inspector.domain.unreadable import NOT_JUDGED_ALL

    got = judged[cid]
    assert not blocking(got) and UNSURE[cid] in got["codes"] and UNSURE[cid] in NOT_JUDGED_ALL


@pytest.mark.parametrize(("what", "case"), [p for p in labelled_params(CASES, "faithful", FALSE_ALARM)
                                             if p.id not in _PENDING])
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


@pytest.mark.parametrize("cid", sorted(_PENDING))
def test_a_lookup_that_found_nothing_is_no_loss(judged: dict, cid: str) -> None:
    """A Grep ENOENT / Glob "Path does not exist" never retried: its failure record left out is
    ``kept`` (a lookup that found nothing changed nothing), and drift names no failure."""
    got = judged[cid]
    assert set(got["codes"]) == {"facts_not_judged"}
    key = next(k for k in got["survival"] if k.startswith("failure."))
    assert got["survival"] == {key: "kept", "goal.main": "kept"}


def test_a_narrower_pass_that_skipped_the_failure_says_so(judged: dict) -> None:
    """`go test ./...` failed in shop.io/api; only `go test ./cart/` ran again: "The build is green."
    is ✗ naming the narrower run, not a "?" (the re-run never ran the failing package)."""
    [f] = judged["p-d1"]["codes"]["failure_dropped"]
    assert f.key == "evt:3" and "`go test ./cart/`, evt:7, passed but did not run where it failed" in f.message


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 40)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 20 and labels.count("faithful") >= 20


@pytest.mark.parametrize(("cid", "said"), [("n-d1", "“4 packages passed”"), ("n-d3", "“1 test failed”"),
                                           ("n-d5", "“2 packages failed”"), ("n-d7", "“4 packages passed”")])
def test_a_go_count_is_compared_with_its_package_and_test_lines(judged: dict, cid: str, said: str) -> None:
    """Go prints no "N passed" line: the counts are its ``ok``/``FAIL`` package lines and ``--- FAIL:``."""
    [f] = judged[cid]["codes"]["output_misstated"]
    assert said in f.message and "the Go run evt:7 printed" in f.message and "“FAIL” package lines" in f.message


def test_survival_pairs_a_claim_with_the_run_it_names(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The same cases with the first run's failure record in the state: "`go test ./cart/` passes"
    beside a failed `go test ./...` was ``contradicted`` by survival as by drift; it is about the
    cart run (kept: the failure is named), and the drifted p-d3 (api failure left out) is missing."""
    import asyncio

    def with_record(c: dict) -> dict:
        ev = c["events"]
        rec = {"key": "failure.run", "kind": "failure", "sources": ["evt:3"], "signature": ev[1]["args"]["command"],
               "value": f"{ev[1]['args']['command']} failed: {ev[2]['content'].splitlines()[0]}", "tool": "Bash"}
        return {**c, "id": c["id"] + "-rec", "state": [*c["state"], rec]}

    picked = [with_record(c) for _, _, c in CASES if c["id"] in ("p-f1", "p-f2", "p-f7", "p-d3")]
    got = asyncio.run(judge(tmp_path_factory.mktemp("rec"), *picked))
    assert {cid: v["survival"]["failure.run"] for cid, v in got.items()} == {
        "p-f1-rec": "kept", "p-f2-rec": "kept", "p-f7-rec": "kept", "p-d3-rec": "missing"}


def test_a_confirmed_deadline_in_other_words_is_a_question_and_a_moved_one_a_finding(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A deadline is now a proposed rule (facts_deadline.py). Confirmed, drift wanted its words: "The user
    wants the fix shipped by the end of the month." was ✗ protected_missing (the edited 4b7d5121
    compaction). The same deadline in other words is a "?" naming the sentence; another deadline, none
    at all, or the deadline left out is still ✗."""
    import asyncio

    from tests.verdict_attack_cases import case

    rule = {"key": "constraint.deadline", "kind": "constraint", "value": "Ship the fix by the end of the month",
            "sources": ["evt:1"]}
    events = [{"seq": 1, "kind": "user_message", "content": "Fix the export. Ship the fix by the end of the month."},
              {"seq": 2, "kind": "assistant_message", "content": "On it."}]
    texts = {"same": "The user wants the fix shipped by the end of the month.",
             "moved": "The user wants the fix shipped by the end of next month.",
             "dropped": "The user wants the fix shipped; there is no deadline for the fix any more.",
             "left": "The user wants the export fixed."}
    got = asyncio.run(judge(tmp_path_factory.mktemp("deadline"), *(
        case(name, text, covers=(1, 2), events=events, state=[rule], unresolved=(), sources=("evt:1",))
        for name, text in texts.items())))
    [note] = got["same"]["codes"]["subject_unjudged"]
    assert not blocking(got["same"]) and note.where == texts["same"] and note.words == ("the end of the month",)
    assert all(blocking(got[name]) for name in ("moved", "dropped", "left"))
