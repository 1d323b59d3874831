"""A user's "keep that rule" names no rule: it is the rule it points back to, or no constraint.

Read on its own, "keep that rule" was proposed as a constraint whose value is "keep that rule":
a protected record no summary can keep (no summary says "keep that rule"), so survival judged
every summary by a fact the user never stated. An endorsement that names nothing but a
back-reference ("keep that rule", "stick to it", "always do that", "必须遵守这条规定") now
resolves to the one rule the message it answers holds — the lines it quoted, else the
assistant's reply since the user's previous message and that previous message — citing where
the rule was said and where the user endorsed it; when no single rule is there (none, or two),
nothing is proposed: a pending "keep that rule" would only be judged missing from every summary.
"""

from __future__ import annotations

import pytest

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent

TWO_RULES = ("Here is the plan:\n"
             "1. Run the test suite on staging\n"
             "2. Never touch prod\n"
             "- Do not delete the staging bucket\n")


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def assistant(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "assistant_message", "model", text)


def constraints(facts: list[ProposedFact]) -> list[tuple[str, list[str], str]]:
    return [(f.value, f.sources, f.rule) for f in facts if f.kind == "constraint"]


@pytest.mark.parametrize("reply", ["keep that rule", "Keep that rule.", "ok, keep that rule", "stick to it",
                                   "always do that", "make sure to follow that rule", "keep this constraint"])
def test_a_back_reference_resolves_to_the_one_rule_of_the_reply_it_answers(reply: str) -> None:
    facts = extract([user(1, "fix the billing timeouts"),
                     assistant(2, "Noted. Never touch prod. I will start with the worker."), user(3, reply)])
    (value, sources, rule), = constraints(facts)
    assert (value, sources) == ("Never touch prod", ["evt:2", "evt:3"])
    assert rule.startswith("constraint.back_reference:")


@pytest.mark.parametrize("before", [TWO_RULES, "I'll look at the worker first.", "Should I never touch prod?"])
def test_no_single_rule_to_point_at_proposes_no_constraint(before: str) -> None:
    facts = extract([user(1, "fix the billing timeouts"), assistant(2, before), user(3, "keep that rule")])
    assert [c for c in constraints(facts) if "evt:3" in c[1]] == []


def test_a_quoted_rule_is_the_one_the_back_reference_names() -> None:
    # The plan holds two rules; the user quoted one of them, then endorsed it.
    facts = extract([user(1, "fix the billing timeouts"), assistant(2, TWO_RULES),
                     user(3, "> 2. Never touch prod\nkeep that rule")])
    assert [(v, s) for v, s, _ in constraints(facts)] == [("Never touch prod", ["evt:2", "evt:3"])]
    # Two quoted rules: still ambiguous, nothing proposed.
    facts = extract([user(1, "fix the billing timeouts"), assistant(2, TWO_RULES),
                     user(3, "> 2. Never touch prod\n> - Do not delete the staging bucket\nkeep that rule")])
    assert constraints(facts) == []


def test_the_users_own_earlier_rule_is_cited_again() -> None:
    facts = extract([user(1, "fix the billing timeouts. Never touch prod."), assistant(2, "On it."),
                     user(3, "keep that rule")])
    assert [(v, s) for v, s, _ in constraints(facts)] == [("Never touch prod", ["evt:1", "evt:3"])]


def test_a_rule_that_names_something_is_the_users_words_and_one_that_names_nothing_is_not() -> None:
    start = [user(1, "fix the billing timeouts"), assistant(2, "Noted. Never touch prod.")]
    cases = {"keep it short": ("keep it short", ["evt:3"]), "keep the tests green": ("keep the tests green", ["evt:3"]),
             "always run the linter": ("always run the linter", ["evt:3"]),
             "make sure the tests pass": ("make sure the tests pass", ["evt:3"]),
             "don't do that": ("don't do that", ["evt:3"]),  # a prohibition pointing back endorses nothing: as before
             "keep it": ("Never touch prod", ["evt:2", "evt:3"])}
    for reply, expected in cases.items():
        assert [(v, s) for v, s, _ in constraints(extract([*start, user(3, reply)]))] == [expected], reply


def test_chinese_back_reference() -> None:
    start = [user(1, "修复导出超时"), assistant(2, "好的。不得修改生产库。我先看日志。")]
    assert [(v, s) for v, s, _ in constraints(extract([*start, user(3, "必须遵守这条规定")]))] == [
        ("不得修改生产库", ["evt:2", "evt:3"])]
    assert [(v, s) for v, s, _ in constraints(extract([*start, user(3, "必须用8080端口")]))] == [
        ("必须用8080端口", ["evt:3"])]


def test_a_followed_session_cut_anywhere_resolves_the_same() -> None:
    events = [user(1, "fix the billing timeouts"), assistant(2, "Noted. Never touch prod."),
              assistant(3, "I will start with the worker."), user(4, "keep that rule"),
              assistant(5, TWO_RULES), user(6, "> - Do not delete the staging bucket\nstick to it"),
              user(7, "keep it")]
    whole = [f.state_record("s") for f in extract(events)]
    assert [(r["value"], r["sources"]) for r in whole if r["kind"] == "constraint"] == [
        ("Never touch prod", ["evt:2", "evt:4"]), ("Do not delete the staging bucket", ["evt:5", "evt:6"])]
    for cut in range(1, len(events)):
        running = RunningExtraction.of(events[:cut])
        running.feed(events[cut:])
        assert [f.state_record("s") for f in running.facts()] == whole
