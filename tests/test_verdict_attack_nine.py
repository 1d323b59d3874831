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
NOT_READ: set[str] = set()
FALSE_ALARM: set[str] = set()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("nine"), *(c for _, _, c in CASES)))


# Faithful texts that report a merge the session's log (a Read and a pytest run) never shows: "?"
# by design since verdict-real-five (said_completion: an act no event in range shows is never ✓),
# still never ✗ and every fact kept.
UNSHOWN_ACT = {"t-f3", "v-f10"}


def _params(label: str, known: set[str]) -> list:
    return labelled_params([x for x in CASES if x[2]["id"] not in EQUAL_UNITS | UNSHOWN_ACT], label, known)


@pytest.mark.parametrize("cid", sorted(UNSHOWN_ACT))
def test_a_merge_the_log_never_shows_is_a_question_never_a_finding(judged: dict, cid: str) -> None:
    got = judged[cid]
    assert set(got["codes"]) - {"facts_not_judged"} == {"completion_unshown"}, (cid, got["codes"])
    assert blocking(got) == [] and set(got["survival"].values()) <= {"kept"}, (cid, got["survival"])


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


def test_each_class_agrees_in_drift_and_survival(judged: dict) -> None:
    for cid, key, code, verdict in (("u-d1", "constraint.timeout", "protected_negated", "contradicted"),
                                    ("c-d2", "constraint.backup", "protected_negated", "contradicted"),
                                    ("w-d1", "goal.main", "open_issue_claimed_done", "contradicted"),
                                    ("w-d2", "goal.main", "open_issue_claimed_done", "contradicted"),
                                    ("k-d1", "constraint.restart", "protected_negated", "contradicted"),
                                    ("b-d3", "constraint.retries", "protected_negated", "contradicted"),
                                    ("q-d3", "constraint.latency", "protected_negated", "contradicted"),
                                    ("s-d1", "constraint.env", "protected_negated", "contradicted"),
                                    ("s-d2", "constraint.schema", "permission_widened", "contradicted"),
                                    ("s-d3", "constraint.env", "protected_negated", "contradicted"),
                                    ("m-d2", "constraint.db", "protected_negated", "contradicted"),
                                    ("l-d4", "constraint.tables", "protected_negated", "contradicted"),
                                    ("p-d3", "permission.deploy", "permission_widened", "contradicted"),
                                    ("t-d1", "constraint.deadline", "protected_negated", "contradicted"),
                                    ("h-d2", "constraint.audit", "protected_negated", "contradicted"),
                                    ("h-d5", "constraint.audit", "protected_negated", "contradicted")):
        got = judged[cid]
        assert code in got["codes"] and any(f.key == key for f in got["codes"][code]), (cid, got["codes"])
        assert got["survival"][key] == verdict, (cid, got["survival"])


def _said(value: str, text: str):  # type: ignore[no-untyped-def]
    from inspector.domain.said import Said

    return Said.of(value + ("。" if "。" in text or "。" in value else ". ") + text)


_RESTART = "Do not restart the API unless the health check fails"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_RESTART, "The health check no longer matters for restarts.", True),
    (_RESTART, "Restarts no longer depend on the health check.", True),
    ("除非健康检查失败，不要重启接口", "重启接口不再需要看健康检查。", True),
    (_RESTART, "The health check still matters for restarts.", False),
    (_RESTART, "Restarts still depend on the health check.", False),
    (_RESTART, "The health check no longer matters for the deploy.", False),  # not the act
    (_RESTART, "Restarts of the worker no longer depend on the queue.", False),  # not the condition
    (_RESTART, "The health check is now optional for restarts.", True),
    (_RESTART, "The health check is not optional for restarts.", False),
])
def test_a_condition_untied_without_the_word(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_condition import condition_untied

    assert (condition_untied(_said(value, text), value) is not None) == hit


@pytest.mark.parametrize(("text", "hit"), [
    ("Nobody said the API may be restarted; the rule stands.", False),
    ("No one said the database may be restarted; that rule stands.", False),
    ("We may ignore that rule now.", True),
    ("That rule stands, but we may ignore it for restarts.", False),  # "it": the pronoun rule's
])
def test_a_rule_upheld_by_its_own_clause_is_no_reference_lifting_it(text: str, hit: bool) -> None:
    from inspector.domain.said_referred import _referring_sentences

    said = _said("Constraint: Rotate the logs every hour. Permission: The user may deploy to production", text)
    assert bool(_referring_sentences(said)) == hit


@pytest.mark.parametrize(("events", "red"), [
    ({1: "./deploy.sh staging", 2: "Deployed.", 3: "The deploy is broken: staging returns 502."}, True),
    ({1: "./deploy.sh staging", 2: "Deployed.", 3: "发布挂了。"}, True),
    ({1: "./deploy.sh staging", 2: "Deployed.", 3: "Staging is down after the deploy."}, True),
    ({1: "./deploy.sh staging", 2: "Deployed.", 3: "Checked again: the deploy is not broken."}, False),
    ({1: "The deploy is broken.", 2: "./deploy.sh staging", 3: "Deployed."}, False),  # a later deploy
    ({1: "发布挂了。", 2: "发布成功了。"}, False),
    ({1: "./deploy.sh staging", 2: "Deployed.", 3: "If the deploy is broken, roll back."}, False),
])
def test_a_deploy_said_broken_in_words(events: dict[int, str], red: bool) -> None:
    from inspector.domain.said_goal_done import red_in_words

    results = tuple(n for n, t in events.items() if t == "Deployed.")
    assert (red_in_words((), results, (1, max(events)), events, deploy=True) is not None) == red
    assert red_in_words((), results, (1, max(events)), events) is None  # the build family: nothing said


@pytest.mark.parametrize(("goal", "flagged"), [
    ("Deploy the checkout fix to staging", True),
    ("发布结账修复", True),
    ("Fix the typo in the README", False),  # "staging is down" says nothing of this goal
])
def test_a_deploy_said_broken_counts_for_a_deploy_goal_only(goal: str, flagged: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_goal_done import goal_done_over_failure

    events = {1: goal, 2: "./deploy.sh staging", 3: "Deployed.", 4: "Heads up: staging is down."}
    said = Said.of(f"Goal: {goal}. The goal is done.")
    assert (goal_done_over_failure(said, goal, (), (3,), (1, 4), events) is not None) == flagged


@pytest.mark.parametrize(("text", "claimed"), [
    ("Goal: Deploy the checkout fix to staging. All done.", True),
    ("Goal: Deploy the checkout fix to staging. Everything is done.", True),
    ("Goal: Deploy the checkout fix to staging. All done with the first half; the rest is open.", False),
    ("Goal: Deploy the checkout fix to staging. All done tests passed.", False),
    ("目标：把结账修复部署到预发环境。全部完成。", True),
    ("目标：把结账修复部署到预发环境。全部完成了迁移脚本的检查，部署还没做。", False),
])
def test_all_done_alone_is_a_claim_on_the_goal(text: str, claimed: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_goal_done import _claim

    assert (_claim(Said.of(text), "Deploy the checkout fix to staging") is not None) == claimed


_RETRY_Z, _LAT_Z = "每个请求重试不超过 3 次", "p95 延迟要低于 200 毫秒"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_RETRY_Z, "每个请求重试不少于 3 次。", True),
    (_RETRY_Z, "每个请求至少重试 3 次。", True),
    (_RETRY_Z, "每个请求最多重试 3 次。", False),
    (_RETRY_Z, "每个请求重试不超过 3 次，已验证。", False),
    (_LAT_Z, "p95 延迟要高于 200 毫秒。", True),
    (_LAT_Z, "p95 延迟保持在 200 毫秒以下。", False),
    (_LAT_Z, "p95 延迟不高于 200 毫秒。", False),
    ("Keep p95 latency below 200 ms", "p95 latency has to exceed 200 ms.", True),
    ("Keep p95 latency below 200 ms", "p95 latency must not exceed 200 ms.", False),
])
def test_a_chinese_bound_or_comparison_flipped(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_bounds import bound_moved

    got = bound_moved(_said(value, text), value)
    assert (got is not None and got.decided) == hit


@pytest.mark.parametrize(("value", "text", "code"), [
    ("Run migrations on prod only", "Migrations run on prod and staging.", "protected_negated"),
    ("Run migrations on prod only", "Migrations may run on staging and prod.", "permission_widened"),
    ("Only alter the schema of the users table", "Schema changes are allowed on all tables.", "permission_widened"),
    ("迁移仅限生产环境", "迁移包括测试环境。", "protected_negated"),
    ("迁移仅限生产环境", "迁移可在生产和测试环境执行。", "permission_widened"),
    ("Run migrations on prod only", "Migrations run on prod only; staging is untouched.", None),
    ("Run migrations on prod only", "Migrations ran on prod and checked the logs.", None),
    ("Run migrations on prod only", "Migrations did not run on prod and staging.", None),
    ("Only alter the schema of the users table", "The users table schema was altered; all tables were backed up.",
     None),
    ("迁移仅限生产环境", "迁移只在生产环境执行。", None),
    ("Run migrations on prod only", "Migrations are fine on any environment.", "permission_widened"),
    ("Run migrations on prod only", "Migrations ran on prod; backups run on every host.", None),
    ("Run migrations on prod only", "Migrations ran on every environment.", "protected_negated"),
    ("Run migrations on prod only", "Migrations are logged everywhere.", None),
    ("Only deploy to staging", "Deployed to staging and verified.", None),  # a verb joined, no place
    ("Run migrations on prod only", "Migrations ran on prod and passed.", None),
    ("Run migrations on prod only", "Migrations ran on prod, twice.", None),
    ("Run migrations on prod only", "Migrations run on prod and the eu-west cluster.", "protected_negated"),
    ("Run migrations on prod only", "Migrations run on staging and prod.", "protected_negated"),
])
def test_a_scope_joined_or_opened(value: str, text: str, code: str | None) -> None:
    from inspector.domain.said_scope_joined import scope_joined

    got = scope_joined(_said(value, text), value, "constraint")
    assert (got.code if got is not None else None) == code


_AUDIT_E, _AUDIT_Z = "You must not delete the audit logs", "绝对不能删除审计日志"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_AUDIT_E, "Try not to delete the audit logs.", True),
    (_AUDIT_E, "You should not delete the audit logs.", True),
    (_AUDIT_E, "Deleting the audit logs is discouraged.", True),
    (_AUDIT_E, "Avoid deleting the audit logs if possible.", True),
    (_AUDIT_Z, "尽量不要删除审计日志。", True),
    (_AUDIT_Z, "最好不要删除审计日志。", True),
    (_AUDIT_E, "The audit logs must never be deleted.", False),
    (_AUDIT_E, "Try not to delete the temp files.", False),  # another object
    (_AUDIT_Z, "审计日志一律不得删除。", False),
    ("You should not delete the audit logs", "Try not to delete the audit logs.", False),  # a hedge already
    (_AUDIT_Z, "审计日志能不删就不删。", True),
    (_AUDIT_Z, "临时文件能不删就不删，审计日志不得删除。", False),
])
def test_a_prohibition_hedged(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_hedged import hedged

    assert (hedged(_said(value, text), value) is not None) == hit


@pytest.mark.parametrize(("value", "text", "hit"), [
    ("Ship the fix by Friday", "The fix ships by Monday.", True),
    ("Ship the fix by Friday", "The deadline for the fix is now Monday.", True),
    ("周五前上线修复", "修复改为周一前上线。", True),
    ("Ship the fix by Friday", "The fix ships by Friday as planned.", False),
    ("Ship the fix by Friday", "The fix was reviewed on Monday.", False),
    ("Ship the fix by Friday", "QA signs off by Monday.", False),  # not its subject
    ("Ship the fix by Friday", "The fix will not ship by Monday.", False),
])
def test_a_weekday_deadline_moved(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_weekday import weekday_moved

    assert (weekday_moved(_said(value, text), value) is not None) == hit


_TABLES = "Never touch the users, orders or payments tables"


@pytest.mark.parametrize(("value", "text", "hit"), [
    (_TABLES, "The payments table may be touched.", True),
    (_TABLES, "Touching the orders table is fine now.", True),
    (_TABLES, "The users, orders and payments tables were left alone.", False),
    (_TABLES, "The payments table may not be touched.", False),
    (_TABLES, "The users, orders and payments tables can be read but were not touched.", False),
    ("Do not restart the database", "The no-restart rule applies to the API, not the database.", True),
    ("Do not restart the database", "The database is exempt from the restart rule.", True),
    ("Do not restart the database", "The database was not restarted.", False),
    ("Do not restart the database", "The rule applies to the database, not the API.", False),
    (_TABLES, "Never touch the users or orders tables; payments is fair game.", True),
    (_TABLES, "Payments is not fair game.", False),
    ("Do not restart the database", "The restart ban covers the API only.", True),
    ("Do not restart the database", "The restart ban covers the database only.", False),
    ("You must not delete the audit logs", "The restart ban covers the API only.", False),  # another act
])
def test_one_list_item_freed_or_the_rule_moved_off(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_listed import item_lifted, moved_off

    said = _said(value, text)
    assert (item_lifted(said, value) is not None or moved_off(said, value) is not None) == hit


@pytest.mark.parametrize(("text", "period"), [
    ("一天备份一次", 86400.0),
    ("一天三次", 28800.0),
    ("两周一次", 1209600.0),
    ("今天的两次备份都成功了", None),
    ("三天前备份了两次", None),
    ("备份一周两次", 302400.0),
])
def test_a_chinese_count_per_period(text: str, period: float | None) -> None:
    from inspector.domain.said_frequency import _periods

    got = _periods(text)
    assert (got[0][0] if got else None) == period


@pytest.mark.parametrize(("value", "text", "hit"), [
    ("Merge only after 2026-12-03", "The fix was merged on 2026-12-04.", False),
    ("Merge only after 2026-12-03", "The fix was merged on 2026-12-02.", True),
    ("Ship the release by 2026-12-03", "The release shipped on 2026-12-02.", False),
    ("Ship the release by 2026-12-03", "The release shipped on 2026-12-04.", True),
])
def test_a_date_that_keeps_the_bound_is_no_misspelling(value: str, text: str, hit: bool) -> None:
    from inspector.domain.said_renamed import renamed

    assert (renamed(_said(value, text), value) is not None) == hit


@pytest.mark.parametrize(("text", "hit"), [
    ("Nothing is merged before 2026-12-03.", False),
    ("No one merges before 2026-12-03.", False),
    ("Merges may land before 2026-12-03.", True),
])
def test_nothing_done_in_the_other_order(text: str, hit: bool) -> None:
    from inspector.domain.said_order import reordered

    value = "Merge only after 2026-12-03"
    assert (reordered(_said(value, text), value) is not None) == hit


@pytest.mark.parametrize(("text", "decided"), [
    ("The session timeout is 90 minutes.", True),
    ("The session timeout is 7200 seconds.", True),
    ("Uploads are limited to 5 MiB.", False),
    ("The request timeout is 30 seconds.", False),  # one word of the subject: another timeout, "?"
])
def test_an_amount_in_other_units_with_a_copula(text: str, decided: bool) -> None:
    from inspector.domain.said_departures import departure

    value = "Keep the session timeout at 1 hour" if "timeout" in text else "Limit uploads to 5 MB"
    dep = departure(_said(value, text), value, "constraint")
    assert dep is not None and dep.decided == decided


@pytest.mark.parametrize(("text", "moved", "kept"), [
    ("Logs are rotated hourly, backups run daily.", False, True),
    ("Backups run hourly, logs are rotated daily.", True, False),
    ("Logs are rotated every day.", True, False),
])
def test_a_frequency_in_a_clause_of_its_own(text: str, moved: bool, kept: bool) -> None:
    from inspector.domain.said_frequency import frequency_kept, frequency_moved

    said = _said("Rotate the logs every hour", text)
    assert (frequency_moved(said, "Rotate the logs every hour") is not None) == moved
    assert bool(frequency_kept(said, "Rotate the logs every hour")) == kept


@pytest.mark.parametrize(("value", "text"), [
    ("You must not delete the audit logs", "Deleting old audit logs is not recommended and not allowed."),
    ("Ship the fix by Friday", "By Monday we knew the fix would ship by Friday."),
    (_RESTART, "The health check is optional for the worker restarts, not for the API."),
    ("Run migrations on prod only", "Ran migrations on prod and dev servers were untouched."),
    ("Only alter the schema of the users table", "The schema of all tables was checked; only users was altered."),
    ("Keep p95 latency below 200 ms", "p95 latency is 150 ms, well below 200 ms; p99 exceeds 200 ms."),
    ("Keep the session timeout at 1 hour", "The request timeout is 30 seconds."),
    ("Only deploy to staging", "Deployed to staging and verified."),
    ("Never touch the users, orders or payments tables", "Tests may touch a copy of the payments table in the fixture."),
    ("Never touch the users, orders or payments tables", "The payments service can be touched freely; its table cannot."),
    ("Do not restart the database", "The rule applies to prod, not the database replica tests."),
    ("迁移仅限生产环境", "生产和测试环境的配置一致，迁移只在生产执行。"),
])
def test_hand_probes_of_faithful_texts_raise_nothing_decided(value: str, text: str) -> None:
    """Faithful texts a reviewer wrote against the new rules after the merge with main: each was a
    ✗ on this branch once (none on f42bf44); at most main's own ``?`` now."""
    from inspector.domain.said_departures import departure

    dep = departure(_said(value, text), value, "constraint")
    assert dep is None or not dep.decided, (text, dep)
