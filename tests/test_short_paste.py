"""A short line pasted back from what the assistant said is its words too, not the user's.

Only a line of 24 characters or more was looked for in what the assistant said recently (a
shorter one is too likely to be the user's own: "use port 8080"), so "- Never touch prod"
pasted from the assistant's plan, with "why?" under it, was the user's constraint. A short
line is pasted when the whole of it is a whole line of a recent assistant message and it shows
it was copied: it keeps that line's list mark ("- ", "1. "), or the line beside it is pasted
too (a multi-line paste). A short line of the user's alone — "use port 8080", "never touch
prod", or one beside words of the user's own — stays theirs.
"""

from __future__ import annotations

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent

PLAN = "Plan:\n- Never touch prod\n- Keep the logs\n1. Use port 8080\nThen deploy."


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def assistant(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "assistant_message", "model", text)


def of_reply(reply: str) -> list[tuple[str, str]]:
    facts: list[ProposedFact] = extract([user(1, "fix the billing timeouts"), assistant(2, PLAN), user(3, reply)])
    return [(f.kind, f.value) for f in facts if "evt:3" in f.sources]


def test_a_short_line_pasted_with_its_list_mark_is_not_the_users() -> None:
    assert of_reply("- Never touch prod\nwhy?") == []
    assert of_reply("1. Use port 8080\nok?") == []
    assert of_reply("**- Never touch prod**") == []  # copied with its emphasis: the same line on screen


def test_short_lines_pasted_together_are_not_the_users() -> None:
    assert of_reply("Never touch prod\nKeep the logs\n\nwhat do you think") == []


def test_a_short_line_of_the_users_own_stays_theirs() -> None:
    assert of_reply("use port 8080") == [("goal", "use port 8080")]
    assert of_reply("never touch prod") == [("constraint", "never touch prod")]
    assert of_reply("never touch prod\nand run the linter first") == [
        ("goal", "never touch prod and run the linter first"), ("constraint", "never touch prod")]
    # Beside a pasted list line, a short line the assistant never said is the user's.
    assert of_reply("- Never touch prod\nnever skip the tests") == [("constraint", "never skip the tests")]


def test_a_followed_session_cut_anywhere_reads_short_pastes_the_same() -> None:
    events = [user(1, "fix the billing timeouts"), assistant(2, PLAN), user(3, "- Never touch prod\nwhy?"),
              assistant(4, "Because prod holds the customers' data."),
              user(5, "Never touch prod\nKeep the logs\nthanks"), user(6, "keep the logs")]
    whole = [f.state_record("s") for f in extract(events)]
    assert [(r["kind"], r["value"], r["sources"]) for r in whole if r["kind"] == "constraint"] == [
        ("constraint", "keep the logs", ["evt:6"])]
    for cut in range(1, len(events)):
        running = RunningExtraction.of(events[:cut])
        running.feed(events[cut:])
        assert [f.state_record("s") for f in running.facts()] == whole
