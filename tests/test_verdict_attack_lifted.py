"""A protected value undone far from where it stands (said_lifted.py), and a permission
about something else next to a prohibition (said_negation.py).

Before: every "lifted" case below gave no finding and survival "kept" (the rules read the
value's own sentence and the next one only); the two "permits something else" cases were
protected_negated false alarms.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.drift_rules import Said, negated_value
from tests.verdict_attack_cases import FAITHFUL, case, judge

PROD = "Do not modify the production database"
LIFTED = {
    "allowed-later": " The user has since allowed writes to production.",
    "fine-now": " Update: production writes are fine now.",
    "no-longer-forbidden": " Modifying the production database is no longer forbidden.",
    "renumbered": " The batch size was raised to 5000 rows.",
    "goal-dropped": " The export timeout no longer needs fixing; the user accepts it.",
}
KEY = {"renumbered": "constraint.batch", "goal-dropped": "goal.main"}
STILL_FAITHFUL = [
    " You may read the production database.",
    " We can modify the staging database freely.",
    " The production database can no longer be modified by the bot.",
    " Nobody may write to production.",
    " Writes to production are not allowed.",
    " Only the DBA may modify the production database.",
    " Exported 20000 rows in 3 minutes.",
    " Batch size tuning took 3 hours.",
    " The batch size of 500 rows gave 3 timeouts.",
    " Fixing the export timeout is no longer blocked by the schema change.",
    " We checked that the production database was not modified.",
]


async def test_a_value_lifted_or_renumbered_far_away_is_negated(tmp_path: Path) -> None:
    got = await judge(tmp_path, *(case(name, FAITHFUL + tail) for name, tail in LIFTED.items()))
    for name in LIFTED:
        key = KEY.get(name, "constraint.prod")
        negated = [f.key for f in got[name]["codes"].get("protected_negated", [])]
        assert negated == [key], (name, got[name]["codes"])
        assert got[name]["survival"][key] == "contradicted", name


async def test_clauses_about_something_else_lift_nothing(tmp_path: Path) -> None:
    got = await judge(tmp_path, *(case(f"ok{i}", FAITHFUL + tail) for i, tail in enumerate(STILL_FAITHFUL)))
    noisy = {STILL_FAITHFUL[int(k[2:])]: v["codes"] for k, v in got.items()
             if set(v["codes"]) - {"facts_not_judged"}}
    assert noisy == {}


@pytest.mark.parametrize(("text", "value"), [
    ("Constraint: Do not modify the production database. You may read the production database.", PROD),
    ("约束：不得修改生产库。生产库的只读副本可以查询。", "不得修改生产库"),
])
def test_a_permission_for_another_action_next_to_a_prohibition_is_no_lift(text: str, value: str) -> None:
    assert negated_value(Said.of(text), value) is None


@pytest.mark.parametrize("text", [
    "约束：不得修改生产库。导出走流式。批大小 500。后来生产库可以改了。",
    "约束：不得修改生产库。导出走流式。批大小 500。用户后来允许修改生产库。",
    "Constraint: Do not modify the production database. Now we can write to it.",
])
def test_a_chinese_or_next_sentence_lift_is_still_read(text: str) -> None:
    value = PROD if text.startswith("Constraint") else "不得修改生产库"
    assert negated_value(Said.of(text), value) is not None


@pytest.mark.parametrize(("text", "value"), [
    ("Keep the batch size at 500 rows. The batch size was raised to 5000 rows.", "Keep the batch size at 500 rows"),
    ("约束：批大小保持 500 行。后来批大小改成 5000 行。", "批大小保持 500 行"),
    ("Serve on port 8080. Later the server port moved to port 9090.", "Serve on port 8080"),
])
def test_a_renumbered_value_is_read_without_any_cancelling_word(text: str, value: str) -> None:
    hit = negated_value(Said.of(text), value)
    assert hit is not None and "the value says" in hit.words[0]


def test_items_told_apart_by_a_number_are_not_renumberings() -> None:
    text = "采用流式导出 5。采用流式导出 89。Port 8080 serves the API. Use python 3 for scripts."
    assert negated_value(Said.of(text), "采用流式导出 5") is None  # the 5 names an item, it measures nothing
    two = "Keep the batch size at 500 rows. Keep the batch size at 200 rows for the nightly job."
    assert negated_value(Said.of(two), "Keep the batch size at 500 rows",
                         (("Keep the batch size at 500 rows", "constraint"),
                          ("Keep the batch size at 200 rows for the nightly job", "constraint"))) is None


async def test_drift_reads_a_renumbering_in_a_text_with_no_cancelling_word(tmp_path: Path) -> None:
    text = ("Goal: fix the export timeout. Constraint: Do not modify the production database. "
            "Permission: You may read the staging database. Keep the batch size at 500 rows.")
    plain = text.replace("You may read the staging database", "You may read the staging database")
    tail = " Decision: streaming export (not paginated export: it keeps long transactions open). " \
           "TestExportBatch failed with a timeout (evt:5) and is unresolved. P95 still to be measured. " \
           "The batch size went up to 5000 rows."
    got = (await judge(tmp_path, case("renumbered", plain + tail)))["renumbered"]
    assert [f.key for f in got["codes"].get("protected_negated", [])] == ["constraint.batch"]


@pytest.mark.parametrize(("text", "value"), [
    ("Goal (abandoned): fix the export timeout.", "fix the export timeout"),
    ("Optional: Do not modify the production database.", PROD),
    ("Keep the batch size at 500 rows if convenient.", "Keep the batch size at 500 rows"),
    ("约束（可选）：不得修改生产库。", "不得修改生产库"),
])
def test_a_label_or_clause_that_makes_a_rule_optional_or_abandoned_weakens_it(text: str, value: str) -> None:
    assert negated_value(Said.of(text), value) is not None


def test_that_constraint_dismissed_later_undoes_the_nearest_constraint_before_it() -> None:
    others = (("fix the export timeout", "goal"), (PROD, "constraint"), ("streaming export", "decision"))
    text = ("Goal: fix the export timeout. Constraint: Do not modify the production database. "
            "Decision: streaming export. Tests run nightly. We can ignore that constraint.")
    said = Said.of(text)
    assert negated_value(said, PROD, others, "constraint") is not None
    assert negated_value(said, "streaming export", others, "decision") is None
    assert negated_value(said, "fix the export timeout", others, "goal") is None


@pytest.mark.parametrize("tail", [
    " A tool output said to write to it; we ignored it.",
    " That constraint was respected throughout.",
    " We kept that constraint in every step.",
])
def test_a_back_reference_that_keeps_the_rule_undoes_nothing(tail: str) -> None:
    text = ("Constraint: Do not modify the production database. Decision: streaming export. Tests run nightly."
            + tail)
    assert negated_value(Said.of(text), PROD, ((PROD, "constraint"),), "constraint") is None


async def test_a_new_goal_about_the_same_subject_replaces_the_goal(tmp_path: Path) -> None:
    replaced = {"now": " The goal is now to document the export timeout instead of fixing it.",
                "new": " New goal: write a postmortem about the export timeout.",
                "zh": " 新目标：为导出超时写一份复盘。"}
    same = {"task": " The task is to make the export timeout go away by streaming.",
            "instead": " We used streaming instead of pagination to fix the export timeout.",
            "still": " Our goal is still to fix the export timeout."}
    got = await judge(tmp_path, *(case(k, FAITHFUL + v) for k, v in {**replaced, **same}.items()))
    for k in ("now", "new"):
        assert [f.key for f in got[k]["codes"].get("protected_negated", [])] == ["goal.main"], k
        assert got[k]["survival"]["goal.main"] == "contradicted", k
    for k in same:
        assert set(got[k]["codes"]) <= {"facts_not_judged"}, (k, got[k]["codes"])


def test_a_new_chinese_goal_replaces_the_chinese_goal() -> None:
    text = "目标：修复订单导出超时。约束：不得修改生产库。新目标：为订单导出超时写一份复盘。"
    hit = negated_value(Said.of(text), "修复订单导出超时", (("修复订单导出超时", "goal"),), "goal")
    assert hit is not None and "新目标" in hit.words


def test_every_goal_change_word_holds_one_of_the_quick_keys() -> None:
    from inspector.domain.said_lifted import _GOAL_CHANGE_KEYS
    from inspector.domain.wordlists import wordlist

    assert all(any(k in w for k in _GOAL_CHANGE_KEYS) for w in wordlist("goal_change").words)


def test_item_numbers_and_verbs_after_a_number_are_not_units() -> None:
    from inspector.domain.said_lifted import _number_and_unit

    assert _number_and_unit("use the streaming exporter for job 186") is None  # job 186 is an item
    assert _number_and_unit("make export job 186 finish under two minutes") is None  # "finish" measures nothing
    assert _number_and_unit("P95 of endpoint 3 passes") is None
    assert _number_and_unit("Retry at most 3 times") == ("3", "times", True)
    assert _number_and_unit("Attachments under 5 MB") == ("5", "mb", True)
    text = "Use the streaming exporter for job 186. Use the streaming exporter for job 18."
    others = (("use the streaming exporter for job 186", "decision"), ("use the streaming exporter for job 18", "decision"))
    assert negated_value(Said.of(text), "use the streaming exporter for job 186", others, "decision") is None
