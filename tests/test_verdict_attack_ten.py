"""The eleventh verdict attack (verdict-ten; docs/reviews/verdict-ten.md): numbers in tool output
restated wrongly, a dispute flattened into an agreement, hedges and freed items in the other
language, deadlines in words moved or dropped, the false alarm "Restarting the API is no longer
needed since the health check passes.", Markdown lists, quotes and long texts. Each drifted text must
give a finding or say it could not judge (``?``), never "no drift"; each faithful one must stay clear
— no finding and no ``?``. Texts the rules still do not read are listed in ``NOT_READ`` (a strict
xfail: reading one makes the test say so), faithful texts still flagged in ``FALSE_ALARM``.
"""

from __future__ import annotations

import pytest

from tests.verdict_attack_cases import (
    assert_caught_or_unjudged,
    assert_clear,
    assert_labelled,
    judge,
    labelled_params,
)
from tests.verdict_attack_ten_cases import ten_cases

CASES = ten_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-ten.md).
NOT_READ: set[str] = set()
FALSE_ALARM: set[str] = set()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("ten"), *(c for _, _, c in CASES)))


@pytest.mark.parametrize(("what", "case"), labelled_params(CASES, "drifted", NOT_READ))
def test_a_changed_fact_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    assert_caught_or_unjudged(judged[case["id"]], what, case)


@pytest.mark.parametrize(("what", "case"), labelled_params(CASES, "faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 60)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 40 and labels.count("faithful") >= 15
    assert any(c["lang"] == "zh" for _, _, c in CASES) and any(c["lang"] == "en" for _, _, c in CASES)
