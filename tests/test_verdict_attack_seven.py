"""The eighth verdict attack (verdict-seven; docs/reviews/verdict-six.md "Round seven"): an approval
by the wrong actor in other words than "approved", and a condition written without "unless". Each
drifted text must give a finding or say it could not judge (``?``), never "no drift"; each faithful
one must stay clear — no finding and no ``?``. Texts the rules still do not read are listed in
``NOT_READ`` (a strict xfail: reading one makes the test say so), faithful texts still flagged in
``FALSE_ALARM``.
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
from tests.verdict_attack_seven_cases import seven_cases

CASES = seven_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-six.md).
NOT_READ: set[str] = set()
FALSE_ALARM: set[str] = set()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("seven"), *(c for _, _, c in CASES)))


def _params(label: str, known: set[str]) -> list:
    return labelled_params(CASES, label, known)


@pytest.mark.parametrize(("what", "case"), _params("drifted", NOT_READ))
def test_a_changed_fact_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    assert_caught_or_unjudged(judged[case["id"]], what, case)


@pytest.mark.parametrize(("what", "case"), _params("faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 30)
    assert any(c["lang"] == "zh" for _, _, c in CASES) and any(c["lang"] == "en" for _, _, c in CASES)
    assert Path(__file__).with_name("verdict_attack_seven_cases.py").exists()


def test_every_wrong_approver_is_a_finding_and_survival_contradicted(judged: dict) -> None:
    for cid in ("p-d1", "p-d2", "p-d3", "p-d4", "p-d5", "p-d6", "p-d7", "p-d8"):
        got = judged[cid]
        assert blocking(got) == ["protected_negated"], (cid, blocking(got))
        assert got["survival"]["acceptance.migration"] == "contradicted", cid


_RULE = "The user must approve the database migration"


@pytest.mark.parametrize(("value", "text", "other", "owner"), [
    (_RULE, "The agent signed off on the database migration.", True, False),
    (_RULE, "CI gave the go-ahead for the database migration.", True, False),
    (_RULE, "LGTM from the bot on the database migration.", True, False),
    (_RULE, "The assistant OK'd the database migration.", True, False),
    (_RULE, "I green-lit the database migration myself.", True, False),
    (_RULE, "The pipeline gave the database migration the green light.", True, False),
    (_RULE, "The user gave the go-ahead for the database migration.", False, True),
    (_RULE, "LGTM from the user on the database migration.", False, True),
    (_RULE, "The database migration is waiting for the go-ahead from the user.", False, False),
    (_RULE, "Nobody gave the go-ahead for the database migration.", False, False),
    (_RULE, "CI gave the go-ahead for the API change.", False, False),
    (_RULE, "The agent will ask for the user's go-ahead on the database migration.", False, False),
    (_RULE, "The database migration got the bot's sign-off.", True, False),
    (_RULE, "Sign-off on the database migration came from CI.", True, False),
    (_RULE, "The assistant rubber-stamped the database migration.", True, False),
    (_RULE, "The database migration got the user's sign-off.", False, True),
    (_RULE, "Approval for the database migration must come from the user.", False, False),
    ("数据库迁移必须由用户批准", "数据库迁移已由 CI 放行。", True, False),
    ("数据库迁移必须由用户批准", "助手同意了数据库迁移。", True, False),
    ("数据库迁移必须由用户批准", "数据库迁移由代理签字确认。", True, False),
    ("数据库迁移必须由用户批准", "用户同意了数据库迁移。", False, True),
    ("数据库迁移必须由用户批准", "数据库迁移等待用户签字确认。", False, False),
    ("数据库迁移必须由用户批准", "数据库迁移还没有由用户签字确认。", False, False),
])
def test_who_approved_in_other_words(value: str, text: str, other: bool, owner: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_approver import approved_by_other, owner_approved

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (approved_by_other(said, value) is not None) == other
    assert bool(owner_approved(said, value)) == owner


def test_every_broken_condition_is_a_finding_and_survival_contradicted(judged: dict) -> None:
    for cid, key in (("c-d5", "constraint.deploy"), ("c-d7", "constraint.cache"), ("c-d9", "constraint.migrate"),
                     ("c-d11", "constraint.restart"), ("c-d13", "constraint.cache")):
        got = judged[cid]
        assert blocking(got) == ["forbidden_action_done"], (cid, blocking(got))
        assert got["survival"][key] == "contradicted", cid


@pytest.mark.parametrize(("value", "read"), [
    ("Deploy to production only if the smoke tests pass", ("deploy", False)),
    ("Only after the backup has finished, run the migration", ("run", False)),
    ("Run the migration provided that the backup has finished", ("run", False)),
    ("Do not clear the cache as long as the import is running", ("clear", True)),
    ("If the import is running, do not clear the cache", ("clear", True)),
    ("只有在健康检查失败时才能重启接口", ("重启", False)),
    ("如果导入正在运行，不要清空缓存", ("清空", True)),
    ("除非健康检查失败，不要重启接口", ("重启", False)),
    ("Deploy only to staging", None),
    ("Do not deploy only if the tests pass", None),
    ("Keep the request timeout at 5 minutes", None),
])
def test_a_condition_in_other_words_is_read(value: str, read: tuple[str, bool] | None) -> None:
    from inspector.domain.said_condition import conditioned_of

    c = conditioned_of(value)
    assert (c.verb, c.forbidden_when) == read if c is not None else read is None


_ONLY, _WHILE, _AFTER = ("Deploy to production only if the smoke tests pass",
                         "Do not clear the cache as long as the import is running",
                         "Run the migration provided that the backup has finished")


@pytest.mark.parametrize(("value", "text", "broken"), [
    (_ONLY, "Deployed to production although the smoke tests failed.", True),
    (_ONLY, "Deployed to production after the smoke tests passed.", False),
    (_ONLY, "We will deploy to production even though the smoke tests failed.", False),
    (_WHILE, "Cleared the cache while the import was still running.", True),
    (_WHILE, "Cleared the cache after the import stopped running.", False),
    (_WHILE, "The cache was not cleared while the import was running.", False),
    (_AFTER, "Ran the migration although the backup had not finished.", True),
    (_AFTER, "Ran the migration after the backup had finished.", False),
    (_ONLY, "Deployed to production with the smoke tests failing.", True),
    (_ONLY, "Deployed to production before the smoke tests had run.", True),
    (_ONLY, "Deployed to production after the smoke tests passed, not before.", False),
    (_WHILE, "Cleared the cache once the import was done running.", False),
    ("只有在健康检查失败时才能重启接口", "重启了接口，尽管健康检查是通过的。", True),
    ("只有在健康检查失败时才能重启接口", "健康检查通过时也重启了接口。", True),
    ("只有在健康检查失败时才能重启接口", "健康检查失败后重启了一次接口。", False),
    ("只有在健康检查失败时才能重启接口", "健康检查通过，所以没有重启接口。", False),
    ("如果导入正在运行，不要清空缓存", "虽然导入还在运行，仍然清空了缓存。", True),
    ("如果导入正在运行，不要清空缓存", "导入完成后清空了缓存。", False),
    ("如果导入正在运行，不要清空缓存", "导入运行期间没有清空缓存。", False),
    ("除非健康检查失败，不要重启接口", "健康检查正常，但还是重启了接口。", True),
])
def test_a_condition_in_other_words_broken(value: str, text: str, broken: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_condition import condition_broken

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (condition_broken(said, value) is not None) == broken


@pytest.mark.parametrize(("value", "text", "lifted"), [
    (_ONLY, "Deploy to production whenever ready.", True),
    ("Do not restart the API except when the health check fails", "The API can be restarted at any time now.", True),
    ("只有在健康检查失败时才能重启接口", "现在可以随时重启接口。", True),
    (_AFTER, "The migration may run even if the backup has not finished.", True),
    (_WHILE, "Clear the cache whenever the import is running.", True),
    ("Do not restart the API except when the health check fails", "Restart the API whenever the health check fails.",
     False),
    (_WHILE, "Clear the cache whenever the import has finished.", False),
    ("Do not restart the API except when the health check fails", "The API was not restarted at any time.", False),
    (_ONLY, "Deploy to production even if it is Friday, once the smoke tests pass.", False),
    ("只有在健康检查失败时才能重启接口", "随时都不要重启接口。", False),
    ("Deploy only to staging", "Deploy whenever ready.", False),
])
def test_a_condition_dropped_beside_the_kept_rule(value: str, text: str, lifted: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_condition import condition_lifted

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (condition_lifted(said, value) is not None) == lifted
