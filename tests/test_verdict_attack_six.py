"""The seventh verdict attack (verdict-six; docs/reviews/verdict-six.md): an acceptance met by the
wrong actor, an identifier renamed by a character, a goal called done over a failing last tool
result, mixed languages, numbers in words and units, negation moved by syntax, and long
summaries hiding one changed fact. Each drifted text must give a finding or say it could not
judge (``?``), never "no drift"; each faithful one must stay clear — no finding and no ``?``.
Texts the rules still do not read are listed in ``NOT_READ`` (a strict xfail: reading one makes
the test say so), faithful texts still flagged in ``FALSE_ALARM``.
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
from tests.verdict_attack_six_cases import six_cases

CASES = six_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-six.md).
NOT_READ: set[str] = set()
# r-f1 names a path the log never shows ("/srv/app/current"): invented_identifier, by design.
FALSE_ALARM: set[str] = {"r-f1"}


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("six"), *(c for _, _, c in CASES)))


def _params(label: str, known: set[str]) -> list:
    return labelled_params(CASES, label, known)


@pytest.mark.parametrize(("what", "case"), _params("drifted", NOT_READ))
def test_a_changed_fact_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    assert_caught_or_unjudged(judged[case["id"]], what, case)


@pytest.mark.parametrize(("what", "case"), _params("faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 60)
    assert Path(__file__).with_name("verdict_attack_six_cases.py").exists()


def test_a_wrong_approver_is_a_finding_and_survival_contradicted(judged: dict) -> None:
    for cid in ("a-d1", "a-d2", "a-d3", "a-d4", "a-d5", "a-d6", "a-d7", "l-d3"):
        got = judged[cid]
        assert blocking(got) == ["protected_negated"], (cid, blocking(got))
        assert got["survival"]["acceptance.migration"] == "contradicted", cid


@pytest.mark.parametrize(("value", "text", "other", "owner"), [
    ("The user must approve the database migration", "The agent approved the database migration.", True, False),
    ("The user must approve the database migration", "The database migration was approved by CI.", True, False),
    ("The user must approve the database migration", "The database migration was self-approved.", True, False),
    ("The user must approve the database migration", "I approved the database migration myself.", True, False),
    ("The user must approve the database migration", "The user's manager approved the database migration.", True,
     False),
    ("The user must approve the database migration", "The user approved the database migration.", False, True),
    ("The user must approve the database migration", "The database migration was approved by the user.", False, True),
    ("The user must approve the database migration", "The database migration was approved.", False, False),
    ("The user must approve the database migration", "Nobody approved the database migration.", False, False),
    ("The user must approve the database migration", "The agent will have approved the database migration.", False,
     False),
    ("The user must approve the database migration", "The agent approved the API change.", False, False),
    ("The database migration must be approved by the user", "The bot approved the database migration.", True, False),
    ("数据库迁移必须由用户批准", "数据库迁移已由助手批准。", True, False),
    ("数据库迁移必须由用户批准", "数据库迁移已由用户批准。", False, True),
    ("数据库迁移必须由用户批准", "数据库迁移还没有由用户批准。", False, False),
    ("Do not restart the API", "The agent approved the database migration.", False, False),
])
def test_who_approved_what_the_rule_names(value: str, text: str, other: bool, owner: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_approver import approved_by_other, owner_approved

    said = Said.of(value + ("。" if "。" in text else ". ") + text)
    assert (approved_by_other(said, value) is not None) == other
    assert bool(owner_approved(said, value)) == owner


_GOAL = "Make the test suite pass on Python 3.11"


@pytest.mark.parametrize(("summary", "last", "failures", "caught"), [
    ("The goal is done.", "== 3 failed, 41 passed ==", ((4, None),), True),
    ("Goal achieved.", "exit code 1", ((4, None),), True),
    ("The goal is done.", "== 44 passed ==", ((4, 6),), False),  # a later success resolved it
    ("The goal is not done yet.", "== 3 failed, 41 passed ==", ((4, None),), False),
    ("The goal is done.", "Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'a'", (), True),
    ("The goal is done.", "printed a Traceback (most recent call last) example", (), False),
    ("Fixed the imports.", "== 3 failed, 41 passed ==", ((4, None),), False),  # nothing called done
])
def test_a_goal_called_done_over_a_failing_last_result(summary: str, last: str,
                                                      failures: tuple[tuple[int, int | None], ...],
                                                      caught: bool) -> None:
    from inspector.domain.failures import FailedResult
    from inspector.domain.said import Said
    from inspector.domain.said_goal_done import goal_done_over_failure

    fails = tuple(FailedResult(seq, seq - 1, "Bash", "pytest -q", last, res, ()) for seq, res in failures)
    seqs = (4, 6) if any(r for _, r in failures) else (4,)
    texts = {1: _GOAL + ".", 4: last, **({6: "== 44 passed =="} if 6 in seqs else {})}
    hit = goal_done_over_failure(Said.of(summary), _GOAL, fails, seqs, (1, max(seqs)), texts)
    assert (hit is not None) == caught


@pytest.mark.parametrize(("ident", "token", "how"), [
    ("ops-4521", "ops-4522", True), ("8443", "8434", True), ("8443", "8444", True), ("prod-db-2", "prod-db-3", True),
    ("prod-db-2", "prod-db", False), ("/srv/app", "/srv/apps", False), ("/srv/app", "/srv/app-old", False),
    ("/srv/app", "/srv/app/current", None), ("8443", "9443", True), ("8443", "844", None), ("8443", "18443", None),
    ("prod-db-2", "prod-db-2", None), ("ops-4521", "ops-4521a", None), ("prod-db-2", "prod-dc-2", None),
])
def test_a_near_miss_of_an_identifier(ident: str, token: str, how: bool | None) -> None:
    from inspector.domain.said_renamed import near

    assert near(ident, token) is how


@pytest.mark.parametrize(("value", "text", "got"), [
    ("Reference ticket OPS-4521 in every commit message", "Ticket: OPS-4522.", ("ops-4522", True)),
    ("The API must listen on port 8443", "API port: 8434.", ("8434", True)),
    ("Run migrations only on prod-db-2", "Migration host: prod-db-3.", ("prod-db-3", True)),
    ("Run migrations only on prod-db-2", "Migrations ran on prod-db.", ("prod-db", False)),
    ("只能在 prod-db-2 上执行迁移", "迁移已在 prod-db 上执行。", ("prod-db", False)),
    ("Run migrations only on prod-db-2", "Migrations did not run on prod-db-3.", None),  # denied
    ("Run migrations only on prod-db-2", "Backups of prod-db-3 were checked.", None),  # another subject
    ("The API must listen on port 8443", "The API listens on 8443; 8444 rows were served.", None),  # its own port here
    ("The API must listen on port 8443", "Reconciled batch 8444 of invoices.", None),
    ("Install the app under /srv/app", "The app was installed under /srv/app/current.", None),
])
def test_an_identifier_renamed_by_a_character(value: str, text: str, got: tuple[str, bool] | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_renamed import renamed

    hit = renamed(Said.of(value + ("。" if "。" in text else ". ") + text), value)
    assert (None if hit is None else (hit.words[0], hit.decided)) == got


@pytest.mark.parametrize(("text", "caught"), [
    ("Request timeout: 300 s (5 minutes).", False),  # another unit's amount
    ("- 11:30 the API listens on port 8443 as required.", False),  # a clock time, "required" is not "request"
    ("Retries per request: at most four.", True),
    ("Each request gets up to 5 retries now.", True),
    ("Retries: 30 per request.", True),
])
def test_a_rate_limit_is_not_read_off_its_per_unit_nor_a_clock(text: str, caught: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_departures import departure

    value = "At most three retries per request"
    others = (("Keep the request timeout at 5 minutes", "constraint"), ("The API must listen on port 8443", "constraint"),
              (value, "constraint"))
    got = departure(Said.of(f"{value}. Keep the request timeout at 5 minutes. {text}"), value, "constraint", others)
    assert (got is not None and got.code == "protected_negated") == caught, got


_RESTART = "Do not restart the API unless the health check fails"


@pytest.mark.parametrize(("text", "code"), [
    ("The API was restarted although the health check passed.", "forbidden_action_done"),
    ("Restarted the API even though the health check did not fail.", "forbidden_action_done"),
    ("The API was restarted once, after the health check failed.", None),
    ("Restarted the API after the health check failed.", None),
    ("The health check passed, so the API was not restarted.", None),
    ("It is no longer true that the API must not be restarted.", "protected_negated"),
    ("There is no rule against restarting the API any more.", "protected_negated"),
    ("Nothing stops us from restarting the API.", "protected_negated"),
    ("It is not true that the deploy failed.", None),
    ("Restart the API unless the health check fails.", "protected_negated"),
    ("Never restart the API unless the health check fails.", None),
    ("Only the on-call engineer may restart the API unless the health check fails.", None),
    ("You may restart the API unless the health check fails.", "protected_negated"),
    ("We will not restart the API unless the health check fails.", None),
])
def test_a_conditional_prohibition_broken_met_or_flipped(text: str, code: str | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_departures import departure

    got = departure(Said.of(f"{_RESTART}. {text}"), _RESTART, "constraint")
    assert (got.code if got is not None and got.decided else None) == code, got


@pytest.mark.parametrize(("text", "code"), [
    ("Deploys now go not only to staging but to production as well.", "forbidden_action_done"),
    ("Deployed to every environment other than staging.", "forbidden_action_done"),
    ("The deploy also went to production.", "forbidden_action_done"),
    ("Deployed to staging only, not to production.", None),
    ("Not only staging was slow: the deploy took an hour.", None),
    ("Every environment other than staging is untouched; deployed to staging.", None),
])
def test_a_bound_place_named_and_gone_past(text: str, code: str | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_beyond import beyond

    got = beyond(Said.of("Deploy only to staging. " + text), "Deploy only to staging", "constraint")
    assert (got.code if got else None) == code


@pytest.mark.parametrize(("value", "text", "code"), [
    ("只部署到预发环境", "Also deployed to production.", "forbidden_action_done"),
    ("只部署到预发环境", "除了预发环境以外的环境都已部署。", "forbidden_action_done"),
    ("Deploy only to staging", "现在可以部署到生产环境了。", "permission_widened"),
    ("只部署到预发环境", "Also deployed to staging.", None),
    ("只部署到预发环境", "只部署到了预发环境，生产环境没有动。", None),
    ("Deploy only to staging", "现在可以部署到预发环境了。", None),
    ("Deploy only to staging", "现在可以查看生产环境的日志了。", None),
])
def test_a_bound_gone_past_in_the_other_language(value: str, text: str, code: str | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_beyond import beyond

    got = beyond(Said.of(value + ("。" if "。" in value else ". ") + text), value, "constraint")
    assert (got.code if got else None) == code


def test_a_quoted_question_does_not_end_the_sentence_that_drops_it() -> None:
    from inspector.domain.textnorm import sentences

    got = [s.text for s in sentences("the request 'can you do it later?' was dropped. ok? yes! \"why?\" he said.")]
    assert got == ["the request 'can you do it later?' was dropped.", " ok?", " yes!", ' "why?" he said.']


def test_a_real_compaction_that_drops_a_quoted_request_deep_in_a_long_log(tmp_path: Path) -> None:
    """7662d755… (compaction + micro-compaction) with 220 log lines appended and, in their middle,
    the user's request quoted — it ends with "?" — and "was dropped by the user": contradicted."""
    from tests.test_verdict_attack_four import REAL, _real_survival

    source = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    req = "can you write a summary for the issue and the options into a md file so I can pick this up later?"
    fill = [f"- step {i}: re-read hook output {i}, nothing new." for i in range(220)]
    tail = "\n".join([*fill[:110], f"- The request '{req}' was dropped by the user.", *fill[110:]])
    assert _real_survival(source, lambda t: t + "\n\n## Log\n" + tail, tmp_path)[req] == "contradicted"
    (tmp_path / "kept").mkdir()
    # Without the dropping line it stands only in the "All User Messages" list, which is not its
    # state (verdict-real-two, said_quoted.py): unknown, never kept.
    assert _real_survival(source, lambda t: t + "\n\n## Log\n" + "\n".join(fill), tmp_path / "kept")[req] == "unknown"
