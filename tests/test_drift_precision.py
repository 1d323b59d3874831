"""Precision and recall of every drift code on the labelled set stay above measured floors.

The set (tests/data/drift_labelled.jsonl) holds faithful and drifted generations in
English and Chinese, tricky faithful ones included ("P95 仍待测，功能测试已通过", "not yet
passed", a negation word inside the protected value, an alternative named as rejected).
Measured figures are in docs/benchmarks.md; the floors sit below them so that a rule
change that trades a few false alarms for recall shows up here first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.drift_precision import DEFAULT_SET, faithful_clean, judge, load_items, score

OVERALL_PRECISION, OVERALL_RECALL = 0.97, 0.95
PER_CODE = 0.90
NEW_CODES = {"protected_negated", "open_issue_claimed_done", "failure_dropped", "decision_reversed",
             "untrusted_in_summary", "unknown_claimed", "source_outside_range",
             # a rule kept word for word that the text still breaks (docs/verdicts.md, "Departures")
             "permission_widened", "order_reversed", "forbidden_action_done", "reference_unresolved",
             # the third attack: the forbidden object acted on with a verb no table holds (cannot judge)
             "forbidden_action_unclear"}
KNOWN_CODES = NEW_CODES | {"protected_rewritten", "protected_missing", "open_issue_closed", "dispute_flattened",
                           "unsourced_assertion"}


@pytest.fixture(scope="module")
def items() -> list[dict]:
    return load_items(DEFAULT_SET)


@pytest.fixture(scope="module")
def found(items: list[dict], tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    import asyncio

    return asyncio.run(judge(items, Path(tmp_path_factory.mktemp("labelled"))))


def test_the_set_is_big_and_mixed_enough_to_measure(items: list[dict]) -> None:
    assert len(items) >= 200
    assert {i["lang"] for i in items} == {"en", "zh"}
    faithful = [i for i in items if not i["expected"]]
    assert len(faithful) >= 20 and len(items) - len(faithful) >= 20
    labelled = {c for i in items for c in i["expected"]}
    assert labelled <= KNOWN_CODES
    assert NEW_CODES <= labelled, "every new code needs drifted examples"


def test_overall_precision_and_recall_hold_their_floors(items: list[dict], found: dict[str, list[str]]) -> None:
    _, total = score(items, found)
    assert total.precision >= OVERALL_PRECISION, total.false_alarms
    assert total.recall >= OVERALL_RECALL, total.misses


def test_every_new_code_holds_its_floor(items: list[dict], found: dict[str, list[str]]) -> None:
    per, _ = score(items, found)
    weak = {code: (round(t.precision, 2), round(t.recall, 2), t.false_alarms, t.misses)
            for code, t in per.items() if code in NEW_CODES and (t.precision < PER_CODE or t.recall < PER_CODE)}
    assert weak == {}


def test_faithful_generations_give_no_finding(items: list[dict], found: dict[str, list[str]]) -> None:
    clean, faithful = faithful_clean(items, found)
    noisy = {i["id"]: found[i["id"]] for i in items if not i["expected"] and found[i["id"]]}
    assert clean >= 0.95 * faithful, noisy
