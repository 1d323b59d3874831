"""The sixth verdict attack (verdict-five; docs/reviews/verdict-five.md): rewrites that keep a
rule's words and change what it means (scope, condition, quantifier, order, actor, status), and
structure that hides or cancels a kept value (tables, JSON, YAML, HTML comments and tags, lists
under a cancelling label). Each drifted text must give a finding or say it could not judge
(``?``), never "no drift"; each faithful one must stay clear — no finding and no ``?``. Texts the
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
    inspector,
    judge,
    labelled_params,
)
from tests.verdict_attack_five_cases import five_cases

CASES = five_cases()
# Drifted texts no rule reads yet, faithful texts still flagged (docs/reviews/verdict-five.md).
NOT_READ: set[str] = set()
FALSE_ALARM: set[str] = set()


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    import asyncio

    return asyncio.run(judge(tmp_path_factory.mktemp("five"), *(c for _, _, c in CASES)))


def _params(label: str, known: set[str]) -> list:
    return labelled_params(CASES, label, known)


@pytest.mark.parametrize(("what", "case"), _params("drifted", NOT_READ))
def test_a_changed_meaning_is_caught_or_said_to_be_unjudged(judged: dict, what: str, case: dict) -> None:
    assert_caught_or_unjudged(judged[case["id"]], what, case)


@pytest.mark.parametrize(("what", "case"), _params("faithful", FALSE_ALARM))
def test_a_faithful_text_stays_clear(judged: dict, what: str, case: dict) -> None:
    assert_clear(judged[case["id"]], what)


def test_the_case_set_is_large_and_labelled() -> None:
    assert_labelled(CASES, 60)
    assert Path(__file__).with_name("verdict_attack_five_cases.py").exists()


@pytest.mark.parametrize(("text", "seen"), [
    ("Keep it. <!-- Never restart the primary database. --> Done.", "Keep it.   Done."),
    ("<del>Never restart it</del> and <s>x</s>", "~~Never restart it~~ and ~~x~~"),
    ('{"rules": ["a", "b"], "lifted_rules": ["c"]}', "rules:\n- a\n- b\n\nlifted rules:\n- c"),
    ('[{"text": "a", "active": false}]', "- text: a\nactive: false"),
    ("Plain text, no markup.", "Plain text, no markup."),
    ("{not json}", "{not json}"),
])
def test_the_text_read_is_what_a_reader_sees(text: str, seen: str) -> None:
    from inspector.domain.rendered import rendered

    assert rendered(text) == seen


@pytest.mark.parametrize(("text", "cancelled"), [
    ("Rules:\n- Never restart the primary database", False),
    ("Rules we follow:\n- Never restart the primary database", False),
    ("Rules still in force:\n- Never restart the primary database", False),
    ("Never:\n- Never restart the primary database", False),
    ("Rules we no longer follow:\n- Never restart the primary database", True),
    ("## Superseded\n\n- Never restart the primary database", True),
    ("## Superseded\n\n- old note\n\n## Rules\n\n- Never restart the primary database", False),
    ("Dropped:\n- a\n\n- Never restart the primary database", False),
    ("- text: Never restart the primary database\n  active: false", True),
    ("- text: Never restart the primary database\n  active: true", False),
    ("- text: Never restart the primary database\n  violated: no", False),
    ("| rule | still applies |\n|---|---|\n| Never restart the primary database | no |", True),
    ("| rule | violated |\n|---|---|\n| Never restart the primary database | no |", False),
    ("不再遵守的规则：\n- never restart the primary database", True),
])
def test_structure_that_cancels_a_kept_value(text: str, cancelled: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_sections import negated_anywhere

    got = negated_anywhere(Said.of(text), "Never restart the primary database")
    assert (got is not None) == cancelled, got


@pytest.mark.parametrize(("text", "got"), [
    ("Retries per job: at least 3.", ("at least 3", True)),
    ("Jobs get about 3 retries each.", ("about 3", False)),
    ("每个任务至少重试 3 次。", ("至少 3", True)),
    ("每个任务重试 3 次左右。", ("左右 3", False)),
    ("Jobs used at most 3 retries each.", None),
    ("Retries were never at least 3.", None),
    ("Ran 3 jobs with at least 2 workers each.", None),
    ("About 3 jobs failed.", None),
])
def test_a_bound_turned_around_or_made_approximate(text: str, got: tuple[str, bool] | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_bounds import bound_moved

    value = "每个任务最多重试 3 次" if "次" in text else "At most 3 retries per job"
    hit = bound_moved(Said.of(value + ("。" if "次" in text else ". ") + text), value)
    assert (None if hit is None else (hit.words[0], hit.decided)) == got


@pytest.mark.parametrize(("text", "freed"), [
    ("The API deploy and the schema migration can happen in either order.", True),
    ("部署接口和迁移表结构的顺序无所谓。", True),
    ("The API deploy and the changelog can go in either order.", False),
    ("Whether the schema migration and the API deploy can go in either order is unclear?", False),
])
def test_an_order_declared_free(text: str, freed: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_bounds import order_freed

    value = "先迁移表结构，再部署接口" if "部署" in text else "Migrate the schema first, then deploy the API"
    assert (order_freed(Said.of(value + "。" + text), value) is not None) == freed


@pytest.mark.parametrize(("value", "verb", "obj"), [
    ("Do not delete old rows unless the user asks", "delete", ("old", "rows")),
    ("Do not delete old rows", "delete", ("old", "rows")),
    ("Never kill the nightly job", "kill", ("nightly", "job")),
    ("Do not drop table users", "", ()),  # SQL keeps a command's shape
    ("Do not kill -9 the server", "", ()),
])
def test_a_prohibition_with_a_condition_or_a_wordy_command(value: str, verb: str, obj: tuple[str, ...]) -> None:
    from inspector.domain.said_forbidden import forbidden_of

    got = forbidden_of(value)
    assert got is not None and (got.verb, got.object) == (verb, obj)


_GOAL = "Migrate all tables to the new schema"


@pytest.mark.parametrize(("summary", "log", "caught"), [
    ("All tables were migrated; the goal is done.", "Migrated 3 of 12 tables; 9 are left.", True),
    ("Goal: Migrate all tables to the new schema ✅.", "Migrated 3 of 12 tables; 9 are left.", True),
    ("All tables were migrated; the goal is done.", "Migrated all 12 tables to the new schema.", False),
    ("The goal is not done yet.", "Migrated 3 of 12 tables; 9 are left.", False),
    ("Whether the goal is done is unclear.", "Migrated 3 of 12 tables; 9 are left.", False),
    ("Migrated 3 tables.", "Migrated 3 of 12 tables; 9 are left.", False),
    ("The goal is done.", "The tests still fail on CI.", False),  # the log's last word is not about the goal
])
def test_a_goal_called_done_against_the_logs_last_word(summary: str, log: str, caught: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_goal_done import goal_done_against_log

    events = {1: _GOAL + ".", 2: log}
    assert (goal_done_against_log(Said.of(summary), _GOAL, events, (1, 2)) is not None) == caught


@pytest.mark.parametrize(("value", "kind", "text", "code"), [
    ("Only run the backfill in staging", "constraint", "The backfill also ran in production.", "forbidden_action_done"),
    ("Only run the backfill in staging", "constraint", "Production is fine for the backfill too.", "permission_widened"),
    ("只能在预发环境运行回填", "constraint", "回填也在生产环境跑了。", "forbidden_action_done"),
    ("Migrate all tables to the new schema", "goal", "Scope: only the users table is in scope now.", "protected_negated"),
    ("把所有表迁移到新结构", "goal", "范围：现在只迁移用户表。", "protected_negated"),
    ("Only run the backfill in staging", "constraint", "The backfill also ran in staging overnight.", None),
    ("Only run the backfill in staging", "constraint", "The backfill did not run in production too.", None),
    ("Only run the backfill in staging", "constraint", "Production was also checked.", None),
    ("Migrate all tables to the new schema", "goal", "Only the users table is migrated so far.", None),
    ("Migrate all tables to the new schema", "goal", "Only the users table failed twice.", None),
    ("把所有表迁移到新结构", "goal", "目前只迁移了用户表。", None),
])
def test_a_scope_gone_past_or_narrowed(value: str, kind: str, text: str, code: str | None) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_beyond import beyond

    got = beyond(Said.of(value + ("。" if "。" in text else ". ") + text), value, kind)
    assert (got.code if got else None) == code


def test_a_table_column_that_says_a_request_is_no_longer_wanted() -> None:
    """A real compaction's later request with a table appended (the hand-edited r2-table of
    docs/reviews/verdict-five.md): a 'still wanted: no' cell cancels it."""
    from inspector.domain.said import Said
    from inspector.domain.said_sections import negated_anywhere

    req = "can you write a summary for the issue and the options into a md file so I can pick this up later?"
    text = f"The user asked: {req}\n\n| request | still wanted |\n|---|---|\n| {req} | no |\n"
    assert negated_anywhere(Said.of(text), req) is not None
    assert negated_anywhere(Said.of(text.replace("| no |", "| yes |")), req) is None


@pytest.mark.parametrize(("edit", "verdict"), [
    (lambda t: t, "kept"),
    (lambda t: t.replace("push and PR", "<!-- push and PR -->"), "unknown"),
    (lambda t: t + "\n\n## Superseded\n\n- push and PR\n", "contradicted"),
    (lambda t: t + '\n\n```json\n{"dropped_requests": ["push and PR"]}\n```\n', "contradicted"),
], ids=["as-is", "html-comment", "superseded-heading", "json-dropped"])
def test_a_real_compaction_edited_structurally(tmp_path: Path, edit, verdict: str) -> None:
    from tests.test_verdict_attack_four import REAL, _real_survival

    source = REAL / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    assert _real_survival(source, edit, tmp_path)["push and PR"] == verdict


def test_check_and_drift_json_say_what_the_rules_found(tmp_path: Path) -> None:
    """Through the CLI: a rule under a lifting label, a bound turned around and a goal called done
    over an unfinished log are "failed"; an approximate bound is "unknown" (?); the faithful text
    "clear" — in ``check --json`` and ``drift --json``."""
    import json

    from bench.drift_precision import write_set
    from tests.verdict_attack_five_cases import FAITHFUL_E, _e

    src = write_set([_e("c-label", FAITHFUL_E + "\n\nRules we no longer follow:\n- Never restart the primary database"),
                     _e("c-least", FAITHFUL_E + " Retries per job: at least 3."),
                     _e("c-done", FAITHFUL_E.replace("Progress: 3 of 12 tables migrated. ", "") + " The goal is done."),
                     _e("c-about", FAITHFUL_E + " Jobs get about 3 retries each."),
                     _e("c-ok", FAITHFUL_E)], tmp_path / "c.jsonl")
    store = tmp_path / "c.db"
    assert inspector("import", str(src), "--into", str(store))[0] == 0
    doc = json.loads(inspector("check", str(store), "--json")[1])
    verdicts = {s["session"]: s["verdict"] for s in doc["sessions"]}
    assert verdicts == {"c-label": "failed", "c-least": "failed", "c-done": "failed", "c-about": "unknown",
                        "c-ok": "clear"}
    drift = {s: json.loads(inspector("drift", str(store), "--session", s, "--json")[1]) for s in verdicts}
    assert {f["code"] for f in drift["c-label"]["findings"]} == {"protected_negated"}
    assert {f["code"] for f in drift["c-done"]["findings"]} == {"open_issue_claimed_done"}
    assert drift["c-about"]["verdict"] == "unknown" and "subject_unjudged" in drift["c-about"]["headline"]
    assert drift["c-ok"]["headline"] == "no drift found"


@pytest.mark.parametrize(("text", "cancelled"), [
    ("## Constraints (none lifted)\n\nNever restart the primary database.", False),
    ("Constraints, nothing dropped:\n- Never restart the primary database", False),
    ("Removed:\n- the debug flag\nNever restart the primary database.", False),
    ("Removed:\n- the debug flag\n- Never restart the primary database", True),
    ("| rule | status |\n|---|---|\n| Never restart the primary database | kept (not waived) |", False),
    ("| rule | status |\n|---|---|\n| Never restart the primary database | waived |", True),
])
def test_a_denied_lifting_word_lifts_nothing(text: str, cancelled: bool) -> None:
    from inspector.domain.said import Said
    from inspector.domain.said_sections import negated_anywhere

    assert (negated_anywhere(Said.of(text), "Never restart the primary database") is not None) == cancelled
