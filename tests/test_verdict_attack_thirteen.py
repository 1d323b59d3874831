"""The fourteenth verdict attack (verdict-thirteen; docs/reviews/verdict-thirteen.md): a citation that is no
statement, counts in words, runs that ran no tests, retried and partial runs, another directory, the wrong
run cited. Cases: tests/verdict_attack_thirteen_cases.py (labelled before any rule or tree judged them).
"""

from __future__ import annotations

import pytest

from inspector.domain.count_words import clauses_with_cites, digits
from inspector.domain.no_tests_ran import ran_no_tests
from inspector.domain.said_failure_stated import says_failed
from tests.verdict_attack_cases import assert_clear, assert_labelled, blocking, judge, labelled_params
from tests.verdict_attack_thirteen_cases import CARGO_NONE, GO_CART_NONE, JEST_NONE, PY_NONE, thirteen_cases

CASES = thirteen_cases()
NOT_CAUGHT: set[str] = set()
# Drifted texts that are an honest "?": jest ran in another folder (cd api) than the one that failed (cd web).
UNSURE = {"d-d1": "run_unpaired"}
FALSE_ALARM: set[str] = set()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("thirteen"), *(c for _, _, c in CASES)))


@pytest.mark.parametrize(("what", "case"), [p for p in labelled_params(CASES, "drifted", NOT_CAUGHT)
                                             if p.id not in UNSURE])
def test_a_drifted_text_is_a_finding(judged: dict, what: str, case: dict) -> None:
    got = judged[case["id"]]
    assert blocking(got), (what, {c: [f.message for f in fs] for c, fs in got["codes"].items()})


@pytest.mark.parametrize("cid", sorted(UNSURE))
def test_what_cannot_be_paired_is_a_named_question(judged: dict, cid: str) -> None:
    got = judged[cid]
    assert not blocking(got) and UNSURE[cid] in got["codes"]


@pytest.mark.parametrize(("what", "case"), labelled_params(CASES, "faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 30)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 15 and labels.count("faithful") >= 15


def test_a_failing_run_cited_beside_a_pass_is_dropped_naming_the_run(judged: dict) -> None:
    """e-d2's shape: the sources list and a sentence saying it went well both cite evt:7; neither names it."""
    for cid in ("c-d1", "c-d2", "c-d3"):
        [f] = judged[cid]["codes"]["failure_dropped"]
        assert f.key == "evt:7", cid


def test_a_count_in_words_is_judged_against_the_run_it_cites(judged: dict) -> None:
    [f] = judged["w-d4"]["codes"]["output_misstated"]
    assert "“4 packages passed”" in f.message and "the Go run evt:7 printed 3 “ok”" in f.message
    [f] = judged["w-d3"]["codes"]["output_misstated"]
    assert "“2 packages passed”" in f.message and "evt:7" in f.message


@pytest.mark.parametrize(("text", "said"), [
    ("After the edit 2 packages pass (evt:7).", False), ("Ran `go test ./...` after the edit (evt:7).", False),
    ("The failure at evt:3 was fixed.", False), ("Nothing failed (evt:7).", False), ("没有失败（evt:7）。", False),
    ("go test ./... still fails (evt:7).", True), ("The last run (evt:7) is unresolved.", True),
    ("The discount test does not pass yet (evt:7).", True), ("压测命中率 0.71，未达标（evt:3）。", True),
    ("最后一次运行（evt:7）仍然失败，未解决。", True), ("It has not been fixed (evt:7); 2 errors remain.", True),
    ("`make lint` exited with code 2 (evt:5).", True), ("`make lint` exited with code 0 (evt:5).", False),
    ("The push was rejected (evt:5).", True), ("Nothing was rejected (evt:5).", False), ("退出码为 1（evt:5）。", True)])
def test_a_citation_names_a_failure_only_where_it_says_it_failed(text: str, said: bool) -> None:
    assert says_failed(text.casefold()) is said


@pytest.mark.parametrize(("output", "none"), [
    (GO_CART_NONE, True), (PY_NONE, True), (CARGO_NONE, True), (JEST_NONE, True), ("Ran 0 tests in 0.000s\n\nOK", True),
    ("ok  \tshop.io/cart\t0.011s\n?   \tshop.io/cmd\t[no test files]", False), ("3 passed in 0.10s", False),
    ("running 3 tests\ntest result: ok. 3 passed; 0 failed\n\nDoc-tests cart\nrunning 0 tests\n"
     "test result: ok. 0 passed; 0 failed", False),
    ("PASS src/cart.test.js\nTests:       4 passed, 4 total", False), ("", False)])
def test_a_run_that_ran_no_test_is_told_from_one_that_ran_some(output: str, none: bool) -> None:
    assert ran_no_tests(output) is none


def test_number_words_are_read_only_where_they_count_packages_or_tests() -> None:
    assert digits("both packages pass (evt:7).") == "all 2 packages pass (evt:7)."
    assert digits("all three tests pass") == "all 3 tests pass"
    assert digits("两个包都通过了") == "2 个包都通过了"
    for untouched in ("one of the fixes landed", "两个方案都可以", "both sides agree"):
        assert digits(untouched) == untouched
    assert clauses_with_cites("the first run had 4 packages passing; the last (evt:7) fails", frozenset({3, 7})) == [
        ("the first run had 4 packages passing", frozenset()), (" the last (evt:7) fails", frozenset({7}))]


def test_a_count_citing_a_run_that_ran_no_test_is_judged_against_none_passing() -> None:
    """"3 tests pass (evt:7)" over a run that printed "no tests ran" (an earlier run printed 3 passed): the
    run it cites passed nothing; uncited, or citing the earlier run, the count agrees as before."""
    from inspector.domain.said_output_numbers import ToolRun, output_misstated

    runs = [ToolRun(3, "pytest tests/test_cart.py", "...\n3 passed in 0.10s"), ToolRun(7, "pytest tests/test_cart.py", PY_NONE)]
    [m] = output_misstated("3 tests pass (evt:7).", runs)
    assert m.words == ("3 passed",) and "the run it cites printed" in m.said and "no tests ran" in m.said
    assert not output_misstated("3 tests pass (evt:3).", runs) and not output_misstated("3 tests pass.", runs)
    jest = [ToolRun(3, "npx jest", "PASS a.test.js\nTests:       3 passed, 3 total"), ToolRun(7, "npx jest", JEST_NONE)]
    assert output_misstated("All 3 tests pass (evt:7).", jest)


def test_a_citation_repeated_thousands_of_times_is_read_to_a_bound_and_never_cleared_by_it() -> None:
    """A text citing the failing run thousands of times in sentences that say nothing of it names nothing;
    past the bound the rest is not read, so the failure stays unnamed (✗), never named by the repetition."""
    from inspector.domain.said import Said
    from inspector.domain.said_failures import mentioned_anywhere

    flood = Said.of("go test ./... passed evt:7 " * 5000)
    assert mentioned_anywhere(flood, ["evt:7", "go test ./..."], ("go test ./...",)) is None
    told = Said.of("go test ./... passed evt:7 " * 50 + "Then go test ./... fails again (evt:7).")
    assert mentioned_anywhere(told, ["evt:7", "go test ./..."], ("go test ./...",)) is not None
