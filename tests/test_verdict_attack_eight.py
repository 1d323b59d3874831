"""The ninth verdict attack (verdict-eight; docs/reviews/verdict-six.md "Round eight"): a name
changed by letters only, "during" / "before" under an "unless" rule, approvals without "由" or
without a verb, a goal called done over a failure that is not last or said in words, a condition
cancelled in words about it, units restated, Chinese double negatives. Each drifted text must give
a finding or say it could not judge (``?``), never "no drift"; each faithful one must stay clear —
no finding and no ``?`` (one restating an amount in equal units may say ``?``, never ✗). Texts the
rules still do not read are listed in ``NOT_READ`` (a strict xfail: reading one makes the test say
so), faithful texts still flagged in ``FALSE_ALARM``.
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
from tests.verdict_attack_eight_cases import EQUAL_UNITS, eight_cases

CASES = eight_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-six.md).
NOT_READ: set[str] = set()
FALSE_ALARM: set[str] = {"x-f2"}  # a "?": "the user_table schema changed" beside "Only alter …"


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("eight"), *(c for _, _, c in CASES)))


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
    assert_labelled(CASES, 50)
    labels = [lab for lab, _, _ in CASES]
    assert labels.count("drifted") >= 25 and labels.count("faithful") >= 25
    assert any(c["lang"] == "zh" for _, _, c in CASES) and any(c["lang"] == "en" for _, _, c in CASES)
    assert Path(__file__).with_name("verdict_attack_eight_cases.py").exists()


def test_each_class_agrees_in_drift_and_survival(judged: dict) -> None:
    for cid, key, code, verdict in (("n-d2", "constraint.host", "protected_negated", "contradicted"),
                                    ("n-d7", "constraint.table", "protected_negated", "contradicted"),
                                    ("z-d3", "constraint.restart", "protected_negated", "contradicted"),
                                    ("k-d1", "constraint.restart", "protected_negated", "contradicted"),
                                    ("k-d3", "constraint.restart", "protected_negated", "contradicted"),
                                    ("a-d2", "acceptance.migration", "protected_negated", "contradicted"),
                                    ("a-d6", "acceptance.migration", "protected_negated", "contradicted"),
                                    ("a-d1", "acceptance.migration", "subject_unjudged", "unknown"),
                                    ("g-d3", "goal.main", "open_issue_claimed_done", "contradicted"),
                                    ("g-d4", "goal.main", "open_issue_claimed_done", "contradicted")):
        got = judged[cid]
        assert code in got["codes"] and any(f.key == key for f in got["codes"][code]), (cid, got["codes"])
        assert got["survival"][key] == verdict, (cid, got["survival"])


_HANDLERS = "cmd/entire/cli/hooks_claudecode_handlers.go"


@pytest.mark.parametrize(("name", "token", "off"), [
    ("prod-db-2", "prod-dc-2", True),
    ("user_table", "users_table", True),
    ("hooks_claudecode_handlers.go", "hooks_claudecode_handler.go", True),
    ("hooks_claudecode_handlers.go", "hooks_claudecode_hanlders.go", True),
    ("prod-db-2", "prod-db-3", False),  # a digit: said_renamed's
    ("prod-db-2", "prod-db-2", False),
    ("user_table", "users", False),  # not an identifier's shape
    ("hooks_claudecode_handlers.go", "hooks_claudecode_handlers_test.go", False),  # five edits
    ("user_table", "user_tables_view", False),  # six edits: another name
    ("user_table", "user_tables", False),  # a plural at the end: prose says it too
    ("health-check", "health-checks", False),  # a kebab compound of words: prose
    ("feature-flag", "feature-flow", False),
])
def test_a_letter_off(name: str, token: str, off: bool) -> None:
    from inspector.domain.said_misnamed import letter_off

    assert letter_off(name, token) == off


@pytest.mark.parametrize(("value", "text", "log", "hit"), [
    ("Run migrations only on prod-db-2", "Migrations ran on prod-dc-2.", "", True),
    ("Only alter the schema of user_table", "Altered the schema of users_table.", "", True),
    ("Only alter the schema of user_table", "Altered the schema of users_table.", "user_table users_table", False),
    (f"Fix the session hook crash in {_HANDLERS}", "The crash fix went into hooks_claudecode_handler.go.", "", True),
    (f"Fix the session hook crash in {_HANDLERS}", f"The handlers in {_HANDLERS} were fixed.", "", False),
    (f"Fix the session hook crash in {_HANDLERS}", "The crash fix is tested in hooks_claudecode_handlers_test.go.", "",
     False),
    ("Run migrations only on prod-db-2", "Migrations did not run on prod-dc-2.", "", False),
    ("Run migrations only on prod-db-2", "The prod-dc-2 rack was rebooted.", "", False),  # not its subject
    ("只能在 prod-db-2 上执行迁移", "迁移已在 prod-dc-2 上执行。", "", True),
    ("Do not restart the API unless the health-check fails", "The health-checks passed, so the API was not restarted.",
     "", False),
    ("Only alter the schema of user_table", "The user_table schema was altered; user_tables views were refreshed.", "",
     False),
])
def test_a_name_changed_by_letters_the_log_never_shows(value: str, text: str, log: str, hit: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_misnamed import log_lookup, misnamed

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (misnamed(said, value, (), log_lookup({1: value, 2: log})) is not None) == hit


_Z_RESTART, _Z_BACKUP = "除非健康检查失败，不要重启接口", "不得删除备份文件"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_Z_RESTART, "接口不是不能重启。", True),
    (_Z_RESTART, "规则并未禁止重启接口。", True),
    (_Z_RESTART, "用户没有说不许重启接口。", True),
    (_Z_RESTART, "重启接口的规则可以不必遵守。", True),
    (_Z_BACKUP, "删除备份文件并非不可以。", True),
    (_Z_BACKUP, "删除备份文件并不是不允许的。", True),
    (_Z_RESTART, "接口不能随意重启，除非健康检查失败。", False),
    (_Z_BACKUP, "没有人说可以删除备份文件。", False),
    (_Z_RESTART, "健康检查没有失败，所以没有重启接口。", False),
    (_Z_RESTART, "接口没有重启，不能随意重启。", False),
    (_Z_RESTART, "没有不得不重启接口的情况。", False),
    (_Z_BACKUP, "备份文件一直没有删除。", False),
    (_Z_RESTART, "接口并非不能重启。", True),
    (_Z_RESTART, "并不是不要重启接口，而是要等健康检查失败。", False),
    (_Z_RESTART, "不是不能重启接口，而是必须等健康检查失败。", False),
])
def test_a_chinese_double_negative(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_flipped import flipped

    assert (flipped(Said.of(value + "。" + text), value) is not None) == hit


_E_RESTART = "Do not restart the API unless the health check fails"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_E_RESTART, "The restart condition was dropped.", True),
    (_E_RESTART, "The health-check requirement no longer applies.", True),
    (_Z_RESTART, "重启条件已取消。", True),
    ("Deploy to production only if the smoke tests pass", "The deploy condition has been waived.", True),
    (_E_RESTART, "The restart condition still applies.", False),
    (_E_RESTART, "The health-check requirement was kept.", False),
    (_E_RESTART, "The restart condition was not dropped.", False),
    (_Z_RESTART, "重启条件仍然有效。", False),
    (_Z_RESTART, "重启条件没有取消。", False),
    (_E_RESTART, "A flaky lint step in CI was dropped.", False),
    (_E_RESTART, "The deploy condition was dropped.", False),
    (_E_RESTART, "The restart condition was met and the API restarted; the stale lock was removed.", False),
    (_Z_RESTART, "重启条件满足后重启了接口，旧锁已移除。", False),
])
def test_a_condition_cancelled_in_words_about_it(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_condition import condition_cancelled

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (condition_cancelled(said, value) is not None) == hit


_E_APPROVE, _Z_APPROVE = "The user must approve the database migration", "数据库迁移必须由用户批准"


@pytest.mark.parametrize(("value", "text", "other", "owner", "unsaid"), [
    (_Z_APPROVE, "助手确认了数据库迁移。", True, False, False),
    (_Z_APPROVE, "数据库迁移已确认。", False, False, True),
    (_Z_APPROVE, "数据库迁移未经审批就执行了。", True, False, False),
    (_E_APPROVE, "The database migration went ahead with approval from the bot.", True, False, False),
    (_E_APPROVE, "The database migration ran with the agent's approval.", True, False, False),
    (_E_APPROVE, "The bot merged the database migration without review.", True, False, False),
    (_E_APPROVE, "The agent merged the database migration without the user's approval.", True, False, False),
    (_E_APPROVE, "The database migration ran with the user's approval.", False, True, False),
    (_E_APPROVE, "The database migration went ahead with approval from the user.", False, True, False),
    (_Z_APPROVE, "用户确认了数据库迁移。", False, True, False),
    (_Z_APPROVE, "数据库迁移等待用户确认。", False, False, False),
    (_Z_APPROVE, "数据库迁移尚未确认。", False, False, False),
    (_Z_APPROVE, "数据库迁移不能未经审批就执行。", False, False, False),
    (_E_APPROVE, "The database migration will not run without the user's approval.", False, False, False),
    (_E_APPROVE, "The database migration must not be merged without review.", False, False, False),
    (_E_APPROVE, "Approval for the database migration must come from the user.", False, False, False),
    (_E_APPROVE, "The database migration was merged by the bot with no review.", True, False, False),
    (_E_APPROVE, "The database migration will not be merged with no review.", False, False, False),
    (_E_APPROVE, "The database migration went live on the bot's say-so.", True, False, False),
    (_E_APPROVE, "The database migration went live on the user's say-so.", False, True, False),
    (_E_APPROVE, "The agent prepared the database migration. The bot merged it without review.", True, False, False),
    (_E_APPROVE, "The agent prepared the database migration; the bot merged it without review.", True, False, False),
    (_E_APPROVE, "The agent prepared the API docs. The bot merged them without review.", False, False, False),
    (_E_APPROVE, "The database migration is ready. It will not be merged without review.", False, False, False),
])
def test_an_approval_without_a_verb_or_an_actor(value: str, text: str, other: bool, owner: bool,
                                                unsaid: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_approver import approved_by_other, approved_unsaid, owner_approved

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (approved_by_other(said, value) is not None) == other
    assert bool(owner_approved(said, value)) == owner
    assert (approved_unsaid(said, value) is not None) == unsaid


@pytest.mark.parametrize(("events", "red"), [
    ({1: "pytest -q", 2: "44 passed", 3: "CI says the build is red."}, True),
    ({1: "pytest -q", 2: "44 passed", 3: "CI 上测试挂了。"}, True),
    ({1: "The build is red.", 2: "pytest -q", 3: "44 passed"}, False),  # a later passing run
    ({1: "The build is red.", 2: "Now the build is green again."}, False),
    ({1: "pytest -q", 2: "44 passed", 3: "The build is not red any more."}, False),
    ({1: "pytest -q", 2: "44 passed", 3: "Pushed the branch."}, False),
    ({1: "pytest -q", 2: "44 passed", 3: "Make sure the build fails if a test fails."}, False),
    ({1: "pytest -q", 2: "44 passed", 3: "如果测试失败，构建也要失败。"}, False),
])
def test_a_failure_said_in_words_only(events: dict[int, str], red: bool) -> None:
    from inspector.domain.said_goal_done import red_in_words

    results = tuple(n for n, t in events.items() if t == "44 passed")
    assert (red_in_words((), results, (1, max(events)), events) is not None) == red


@pytest.mark.parametrize(("value", "text", "broken"), [
    (_E_RESTART, "The API was restarted before the health check failed.", True),
    (_Z_RESTART, "在健康检查失败之前重启了接口。", True),
    (_Z_RESTART, "健康检查失败前重启了接口。", True),
    (_E_RESTART, "The API was restarted ahead of the health check failing.", True),
    (_E_RESTART, "Restarted the API after the health check failed.", False),
    (_E_RESTART, "The API was not restarted before the health check failed.", False),
    (_Z_RESTART, "健康检查失败后重启了接口。", False),
])
def test_before_the_condition_under_an_unless_rule(value: str, text: str, broken: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_departures import departure

    dep = departure(Said.of(value + ("。" if "。" in text else ". ") + text), value, "constraint")
    assert (dep is not None and dep.code == "forbidden_action_done") == broken
    assert broken or dep is None  # the act done after the condition held: the rule met, no "?"


_E_ROTATE, _Z_ROTATE = "Rotate the logs every hour", "每小时轮换一次日志"


@pytest.mark.parametrize(("value", "text", "moved", "kept"), [
    (_E_ROTATE, "Logs are rotated every day.", True, False),
    (_Z_ROTATE, "日志每天轮换一次。", True, False),
    (_E_ROTATE, "Logs are rotated every 30 minutes.", True, False),
    (_E_ROTATE, "Logs are rotated hourly.", False, True),
    (_E_ROTATE, "Logs are rotated every 60 minutes.", False, True),
    (_Z_ROTATE, "日志每小时轮换一次。", False, True),
    (_E_ROTATE, "The logs were not rotated every day.", False, False),
    (_E_ROTATE, "Backups run daily.", False, False),
    (_Z_ROTATE, "备份每天执行。", False, False),
    (_E_ROTATE, "Checked the logs every day.", False, False),
    (_E_ROTATE, "Logs are rotated twice a day.", True, False),
    (_E_ROTATE, "Logs are rotated 24 times a day.", False, True),
    (_Z_ROTATE, "日志每天轮换 24 次。", False, True),
    (_Z_ROTATE, "日志每天轮换两次。", True, False),
])
def test_a_frequency_restated(value: str, text: str, moved: bool, kept: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_frequency import frequency_kept, frequency_moved

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (frequency_moved(said, value) is not None) == moved
    assert bool(frequency_kept(said, value)) == kept


@pytest.mark.parametrize(("added", "verdict"), [
    ("The change went into cmd/entire/cli/hooks_claudecode_handler.go.", "contradicted"),
    ("The repository error in cmd/entire/cli/hooks_claudecode_handlers.go is now returned; the change itself sits "
     "in hooks_claudecode_hanlders.go.", "contradicted"),
    # The goal stands word for word only in the summary's "All user messages" list: a quote is not
    # its state (verdict-real-two, said_quoted.py), so the right name leaves it unknown, never contradicted.
    ("The change to the handlers in cmd/entire/cli/hooks_claudecode_handlers.go returns the repository error.",
     "unknown"),
])
def test_a_real_compaction_with_a_file_name_one_letter_off(tmp_path: Path, added: str, verdict: str) -> None:
    """a6e4c2a0… (auto compaction): its goal names cmd/entire/cli/hooks_claudecode_handlers.go; a
    sentence appended to the summary names the file a letter off (the log never shows it)."""
    from tests.test_verdict_attack_four import REAL, _real_survival

    source = REAL / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    got = _real_survival(source, lambda t: t + "\n\n" + added, tmp_path)
    goal = next(v for k, v in got.items() if k.startswith("for the change in cmd/entire/cli/"))
    assert goal == verdict
