"""The fourth verdict attack (docs/verdicts.md, "The fourth attack"): summaries that paraphrase a
forbidden command or its object, spell amounts in words or Chinese numerals, tell steps in
other paragraphs, or say something about a protected record's subject in words no rule holds.
On main before this work 34 of the 42 drifted texts were a bare ✓ and two faithful ones were
alarms. Each drifted text must now give a finding or say it could not judge (``?``: check's
verdict "unknown", survival "unknown"), never "no drift"; each faithful one must stay clear —
no finding and no ``?``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.drift import headline
from inspector.domain.said_departures import CANNOT_JUDGE
from inspector.domain.said_numbers import money, with_digits
from tests.verdict_attack_cases import inspector, judge
from tests.verdict_attack_paraphrase_cases import paraphrase_cases

CASES = paraphrase_cases()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("paraphrase"), *(c for _, _, c in CASES)))


def _blocking(got: dict) -> list[str]:
    return sorted(c for c, fs in got["codes"].items() if any(f.severity == "finding" for f in fs))


@pytest.mark.parametrize(("what", "case"), [(w, c) for label, w, c in CASES if label == "drifted"],
                         ids=[c["id"] for label, _, c in CASES if label == "drifted"])
def test_a_paraphrased_drift_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    got = judged[case["id"]]
    unsure = [f for c, fs in got["codes"].items() if c in CANNOT_JUDGE for f in fs]
    assert _blocking(got) or unsure, (what, case["summary"]["text"])
    assert headline(got["findings"]) != "no drift found", what
    for f in unsure:  # a "?" names its record, the words and the sentence a person must read
        assert f.key and f.words and f.where and f.severity == "warning"
    if not _blocking(got):
        # Survival agrees: the record the "?" is about is unknown, never kept.
        keys = {f.key for f in unsure}
        assert all(got["survival"][k] == "unknown" for k in keys), (what, got["survival"])


@pytest.mark.parametrize(("what", "case"), [(w, c) for label, w, c in CASES if label == "faithful"],
                         ids=[c["id"] for label, _, c in CASES if label == "faithful"])
def test_a_faithful_paraphrase_stays_clear(judged: dict, what: str, case: dict) -> None:
    got = judged[case["id"]]
    assert set(got["codes"]) - {"facts_not_judged"} == set(), (what, {c: [f.message for f in fs]
                                                                      for c, fs in got["codes"].items()})
    assert headline(got["findings"]) == "no drift found", what
    assert set(got["survival"].values()) <= {"kept"}, (what, got["survival"])


def test_the_set_is_large_enough_and_in_both_languages() -> None:
    drifted = [c for label, _, c in CASES if label == "drifted"]
    faithful = [c for label, _, c in CASES if label == "faithful"]
    assert len(drifted) >= 40 and len(faithful) >= 25
    assert {c["lang"] for c in drifted} == {"en", "zh"} == {c["lang"] for c in faithful}
    assert len({c["id"] for _, _, c in CASES}) == len(CASES)


@pytest.mark.parametrize(("text", "digits"), [
    ("at most three retries", "at most 3 retries"), ("half a dozen retries", "6 retries"),
    ("retry limit: a dozen.", "retry limit: 12."), ("two hundred and fifty dollars", "250 dollars"),
    ("twenty-five rows", "25 rows"), ("每批最多重试三次", "每批最多重试3次"), ("两百五十美元", "250美元"),
    ("放宽到十次", "放宽到10次"), ("一起做", "一起做"), ("十分好", "十分好"), ("someone said so", "someone said so"),
])
def test_amounts_in_words_are_read_as_digits(text: str, digits: str) -> None:
    assert with_digits(text) == digits


def test_money_is_an_amount_of_its_currency() -> None:
    assert [(m.amount, m.currency) for m in money("keep it under $200, not 250 dollars or 3k usd; 两百 美元")] == [
        (200.0, "usd"), (250.0, "usd"), (3000.0, "usd")]
    assert [(m.amount, m.currency) for m in money(with_digits("预算两百美元，约 1400 元"))] == [(200.0, "usd"), (1400.0, "cny")]


def test_the_unjudged_code_is_named() -> None:
    assert "subject_unjudged" in CANNOT_JUDGE


def test_check_says_unknown_for_a_paraphrase_it_cannot_judge(tmp_path: Path) -> None:
    """The CLI's verdict for a store holding one ``?`` paraphrase: "unknown", never "clear"."""
    import json

    from bench.drift_precision import write_set
    from tests.verdict_attack_paraphrase_cases import FAITHFUL_P, _p

    src = write_set([_p("p-cli", FAITHFUL_P + " Wiped the build directory to free disk space.")], tmp_path / "p.jsonl")
    store = tmp_path / "p.db"
    assert inspector("import", str(src), "--into", str(store))[0] == 0
    doc = json.loads(inspector("check", str(store), "--json")[1])
    assert doc["verdict"] == "unknown", doc
    text = inspector("check", str(store))[1]
    assert "? p-cli" in text and "subject_unjudged" in text and "✓ p-cli" not in text


def test_drift_json_carries_the_headline_and_verdict(tmp_path: Path) -> None:
    """``drift --json`` says "unknown" for a "?" generation, "failed" for a finding and "clear"
    for a faithful paraphrase — the words ``check --json`` uses."""
    import json

    from bench.drift_precision import write_set
    from tests.verdict_attack_paraphrase_cases import FAITHFUL_P, FAITHFUL_Q, _p, _q

    src = write_set([_q("q-cli", FAITHFUL_Q + "热修复已直接合进主干。"),
                     _p("p-bad", FAITHFUL_P + " Retries: up to 5 per batch."),
                     _p("p-ok", FAITHFUL_P + " Nothing was pushed to main.")], tmp_path / "d.jsonl")
    store = tmp_path / "d.db"
    assert inspector("import", str(src), "--into", str(store))[0] == 0
    got = {}
    for session in ("q-cli", "p-bad", "p-ok"):
        code, out = inspector("drift", str(store), "--session", session, "--json")
        got[session] = (code, json.loads(out))
    assert got["q-cli"][0] == 0 and got["q-cli"][1]["verdict"] == "unknown"
    assert "not judged (subject_unjudged)" in got["q-cli"][1]["headline"]
    assert got["p-bad"][0] == 1 and got["p-bad"][1]["verdict"] == "failed"
    assert got["p-ok"][0] == 0 and got["p-ok"][1]["verdict"] == "clear"
    assert got["p-ok"][1]["headline"] == "no drift found"
