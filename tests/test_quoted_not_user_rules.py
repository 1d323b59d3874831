"""What a user quotes or pastes back is not the user's own rule, reference, decision or goal.

A user replies to the assistant by quoting it ("> 2. Never touch prod", then "why?") or by
pasting a line of its plan ("- Do not delete the staging bucket"). Only later requests used to
leave those lines out (tests/test_later_request_picks.py); the constraint, reference, decision
and restated-goal rules still read them as the user's words, so the extractor proposed protected
records from words the user never said, and drift judged summaries by them. Every rule that
reads the user's words now reads them through the one reading of "quoted or pasted"
(own_words.unquoted). The kinds the user's messages feed: goal (first request, restated, later
request), constraint, decision (a pick of the listed options) and reference; artifacts, failures
and the todo list come from tool calls, and no rule proposes a permission or acceptance.

Decided (and pinned below): what the user writes around the quote is theirs. "> Never touch
prod" then "agreed: never touch prod" is a constraint in the user's own words. "yes, keep that
rule" names no rule of its own: it once proposed none (the quoted words left for the owner to
add by hand); it is now the one rule it points back to, the quoted one, citing the assistant's
message and the user's (back_refs.py, tests/test_back_reference_rule.py) — pending, as every
proposal, and never a constraint in the words "keep that rule".
"""

from __future__ import annotations

import pytest

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent

PLAN = ("Here is the plan:\n"
        "1. Run the test suite on staging\n"
        "2. Never touch prod\n"
        "- Do not delete the staging bucket\n"
        "- Check https://status.example.com/incidents/42 and the commit 4f9e2ab1c before we start\n"
        "The goal is to migrate the billing service to the new queue.")


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def assistant(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "assistant_message", "model", text)


def after_plan(reply: str) -> list[ProposedFact]:
    return extract([user(1, "fix the billing timeouts"), assistant(2, PLAN), user(3, reply)])


def of_kind(facts: list[ProposedFact], kind: str, source: str = "evt:3") -> list[str]:
    return [f.value for f in facts if f.kind == kind and source in f.sources]


@pytest.mark.parametrize(("reply", "value"), [
    ("> 2. Never touch prod\nwhy that?", "Never touch prod"),
    ("> Never touch prod", "Never touch prod"),
    ("- Do not delete the staging bucket\nwhat about the backups in it?", "Do not delete the staging bucket"),
    ("Do not delete the staging bucket", "Do not delete the staging bucket"),  # pasted without the list mark
])
def test_a_quoted_or_pasted_rule_is_no_constraint_of_the_users(reply: str, value: str) -> None:
    assert of_kind(after_plan(reply), "constraint") == []
    # The same words written by the user (the assistant never said them) are still their constraint.
    facts = extract([user(1, "fix the billing timeouts"), assistant(2, "I'll look at the worker."),
                     user(3, f"{value}.")])
    assert of_kind(facts, "constraint") == [value]


def test_the_users_own_words_after_a_quote_are_theirs() -> None:
    # Agreeing in their own words makes it the user's rule, cited where they said it.
    facts = after_plan("> 2. Never touch prod\nagreed: never touch prod")
    assert of_kind(facts, "constraint") == ["agreed: never touch prod"]
    # "yes, keep that rule" names no rule of its own: it is the quoted one, said at evt:2, agreed to at evt:3.
    facts = after_plan("> 2. Never touch prod\nyes, keep that rule")
    assert [(f.value, f.sources) for f in facts if f.kind == "constraint"] == [("Never touch prod", ["evt:2", "evt:3"])]


@pytest.mark.parametrize("reply", [
    "> Check https://status.example.com/incidents/42 and the commit 4f9e2ab1c before we start\nok",
    "- Check https://status.example.com/incidents/42 and the commit 4f9e2ab1c before we start\nwhy?",
])
def test_a_quoted_or_pasted_reference_is_not_the_users_but_one_beside_it_is(reply: str) -> None:
    assert of_kind(after_plan(reply), "reference") == []
    facts = after_plan(f"{reply}\nsee https://wiki.example.com/prod-rules first")
    assert of_kind(facts, "reference") == ["https://wiki.example.com/prod-rules"]
    facts = after_plan("Check https://status.example.com/incidents/42 first")  # too short a line to be a paste
    assert of_kind(facts, "reference") == ["https://status.example.com/incidents/42"]


OPTIONS = "Two ways:\n1. Use Postgres for the queue\n2. Use SQLite for the queue\nWhich one?"


def test_a_quoted_option_is_no_pick_and_a_pick_beside_it_is() -> None:
    start = [user(1, "the queue is slow"), assistant(2, OPTIONS)]
    assert of_kind(extract([*start, user(3, "> 2. Use SQLite for the queue\nhmm, not sure yet")]), "decision") == []
    assert of_kind(extract([*start, user(3, "> 2. Use SQLite for the queue\n\ngo with 1")]), "decision") == [
        "Use Postgres for the queue"]
    assert of_kind(extract([*start, user(3, "go with 2")]), "decision") == ["Use SQLite for the queue"]


def goals(facts: list[ProposedFact]) -> list[tuple[str, str]]:
    return [(f.rule, f.value) for f in facts if f.kind == "goal"]


@pytest.mark.parametrize("reply", [
    "The goal is to migrate the billing service to the new queue.\nis that right?",  # pasted from the plan
    "> new task: rewrite the CLI in Go\nwhere did you get that from?",
])
def test_a_quoted_or_pasted_goal_is_no_restated_goal(reply: str) -> None:
    assert goals(after_plan(reply)) == [("goal.first_request", "fix the billing timeouts")]


def test_a_goal_the_user_restates_beside_a_quote_is_theirs() -> None:
    assert goals(after_plan("> 2. Never touch prod\nnew task: rewrite the CLI in Go")) == [
        ("goal.first_request", "fix the billing timeouts"), ("goal.restated", "new task: rewrite the CLI in Go")]


def test_a_first_request_is_its_own_words_or_the_quote_when_it_is_all_quoted() -> None:
    facts = extract([user(1, "> TypeError: billing.total is undefined\n\nfix this crash in the invoice page")])
    assert goals(facts) == [("goal.first_request", "fix this crash in the invoice page")]
    facts = extract([user(1, "> TypeError: billing.total is undefined")])
    assert goals(facts) == [("goal.first_request", "> TypeError: billing.total is undefined")]


def test_a_followed_session_cut_anywhere_reads_the_quotes_the_same() -> None:
    events = [user(1, "fix the billing timeouts"), assistant(2, PLAN), assistant(3, OPTIONS),
              user(4, "- Do not delete the staging bucket\n> 2. Use SQLite for the queue\n"
                      "> see https://status.example.com/incidents/42\nagreed: never touch prod"),
              user(5, "Do not delete the staging bucket")]
    whole = [f.state_record("s") for f in extract(events)]
    assert [(r["kind"], r["value"]) for r in whole if r["kind"] != "goal"] == [
        ("constraint", "agreed: never touch prod")]
    for cut in range(1, len(events)):
        running = RunningExtraction.of(events[:cut])
        running.feed(events[cut:])
        assert [f.state_record("s") for f in running.facts()] == whole
