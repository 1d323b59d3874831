"""The tenth verdict attack (verdict-nine; docs/reviews/verdict-six.md "Round nine"): amounts in
other units in a plain clause, Chinese counts per period, failures said in words about a deploy, a
condition cancelled without the word, bounds and comparisons flipped, scopes widened, rules moved to
another subject, list items dropped, permissions to the wrong party, dates changed, hedges. Each
drifted text must give a finding or say it could not judge (``?``), never "no drift"; each faithful
one must stay clear — no finding and no ``?`` (one restating an amount in equal units may say
``?``, never ✗). Texts the rules still do not read are listed in ``NOT_READ`` (a strict xfail:
reading one makes the test say so), faithful texts still flagged in ``FALSE_ALARM``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.verdict_attack_cases import (
    assert_caught_or_unjudged,
    assert_clear,
    assert_labelled,
    blocking,
    judge,
    labelled_params,
)
from tests.verdict_attack_nine_cases import EQUAL_UNITS, nine_cases

CASES = nine_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-six.md).
NOT_READ: set[str] = {"w-d1", "w-d2", "w-d3", "k-d1", "k-d2", "b-d3", "q-d3", "s-d1", "s-d2", "s-d3", "m-d2",
                         "l-d4", "p-d3", "t-d1", "h-d2", "h-d5"}
FALSE_ALARM: set[str] = {"fa-f1", "fa-f2", "q-f2", "t-f1", "t-f3"}


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("nine"), *(c for _, _, c in CASES)))


def _params(label: str, known: set[str]) -> list:
    return labelled_params([x for x in CASES if x[2]["id"] not in EQUAL_UNITS], label, known)


@pytest.mark.parametrize(("what", "case"), _params("drifted", NOT_READ))
def test_a_changed_fact_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    assert_caught_or_unjudged(judged[case["id"]], what, case)


@pytest.mark.parametrize(("what", "case"), _params("faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


@pytest.mark.parametrize("cid", sorted(EQUAL_UNITS))
def test_an_amount_in_equal_units_is_never_a_finding(judged: dict, cid: str) -> None:
    got = judged[cid]
    assert blocking(got) == [], (cid, blocking(got))
    assert not set(got["survival"].values()) & {"missing", "contradicted"}, (cid, got["survival"])


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 60)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 30 and labels.count("faithful") >= 30
    assert any(c["lang"] == "zh" for _, _, c in CASES) and any(c["lang"] == "en" for _, _, c in CASES)
    assert Path(__file__).with_name("verdict_attack_nine_cases.py").exists()
