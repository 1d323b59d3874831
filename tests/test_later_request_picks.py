"""A later request is what the user asked, not what they quoted back; a pick of options is one.

Two defects of ``goal.later_request`` (found on the real 7662d755 and 995ebed6 transcripts):

* a user message that pastes back an assistant's line ("2. User committed: Condensation
  happened, …" from the assistant's numbered list, or a "> 1. Run the migration" quote) became
  a pending goal whose text was the assistant's own words;
* "Implement 1,2 and 3." / "do 1 and 3" / "go with option B" — a pick of the options the
  assistant just listed — was no goal at all, so a summary that dropped the work the person
  chose was judged against nothing. It is now a pending goal naming the picked items, resolved
  against the assistant's list ("1. X; 3. Z"), citing both the list and the pick.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.domain.facts import ProposedFact, extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent
from inspector.services.importing import import_file
from inspector.services.log_reads import log_events
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"


def user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def assistant(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "assistant_message", "model", text)


def later(facts: list[ProposedFact]) -> list[tuple[str, list[str]]]:
    return [(f.value, f.sources) for f in facts if f.key.startswith("goal.later_request.")]


EXPLAINED = ("Here's what actually happened:\n\n"
             "1. **Before reset**: Sessions 34157bc5 and ae4b7c68 existed with checkpoints on the shadow branch\n\n"
             "2. **User committed**: Condensation happened, which should have deleted the shadow branch, but the "
             "session state files remained in `.git/entire-sessions/`\n\n"
             "3. **User did `git reset --hard`**: This moved HEAD back")


def test_a_pasted_back_numbered_item_of_the_assistant_is_not_a_request() -> None:
    facts = extract([
        user(1, "why do I get 4 sessions condensed?"),
        assistant(2, EXPLAINED),
        assistant(3, "Let me update the ISSUE file."),
        user(4, " 2. User committed: Condensation happened, which should have deleted the shadow branch, but the "
             "session state files remained in .git/entire-sessions/\n\nI'm quite sure this happened, branches got "
             "deleted, if not I'll retry this now and make sure it's"),
    ])
    assert later(facts) == []


@pytest.mark.parametrize("quoted", ["> 1. Run the migration", "> 1. Run the migration\n> 2. Drop the old table"])
def test_a_quoted_line_is_not_a_request_but_a_request_beside_it_is(quoted: str) -> None:
    start = [user(1, "migrate the orders table"), assistant(2, "Plan:\n1. Run the migration\n2. Drop the old table")]
    assert later(extract([*start, user(3, quoted)])) == []
    assert later(extract([*start, user(3, f"{quoted}\n\nthis one failed last time")])) == []
    assert later(extract([*start, user(3, f"{quoted}\n\ncan you run it with --dry-run first?")])) == [
        ("can you run it with --dry-run first?", ["evt:3"])]


OFFER = ("Three places could carry the agent name:\n"
         "1. `hook_registry.go:153` - Best place, `agentName` is already available\n"
         "2. `hooks_claudecode_handlers.go` - Multiple handlers\n"
         "3. `hooks_git_cmd.go:31` - Git hooks don't have agent context directly\n"
         "Which should I implement?")


@pytest.mark.parametrize(("reply", "value"), [
    ("Implement 1,2 and 3.", "1. `hook_registry.go:153` - Best place, `agentName` is already available; "
     "2. `hooks_claudecode_handlers.go` - Multiple handlers; 3. `hooks_git_cmd.go:31` - Git hooks don't have agent "
     "context directly"),
    ("do 1 and 3", "1. `hook_registry.go:153` - Best place, `agentName` is already available; "
     "3. `hooks_git_cmd.go:31` - Git hooks don't have agent context directly"),
])
def test_a_pick_of_numbered_options_is_a_pending_goal_naming_the_picked_items(reply: str, value: str) -> None:
    facts = extract([user(1, "add the agent name to any logging"), assistant(2, OFFER), user(3, reply)])
    assert later(facts) == [(value, ["evt:2", "evt:3"])]
    (goal,) = [f for f in facts if f.key.startswith("goal.later_request.")]
    assert goal.rule == "goal.later_request" and goal.state_record("s")["status"] == "pending"
    assert [d.sources for d in facts if d.kind == "decision"]  # still a decision each, as before
    # With no list before it, a pick names nothing a summary could keep: no record is invented.
    assert later(extract([user(1, "add the agent name to any logging"), assistant(2, "Done."), user(3, reply)])) == []


def test_a_pick_of_a_lettered_option_names_it_by_its_letter() -> None:
    facts = extract([user(1, "the cache is slow"),
                     assistant(2, "Should we use option A (Redis) or option B (local cache)?"),
                     user(3, "go with option B")])
    assert later(facts) == [("B. local cache", ["evt:2", "evt:3"])]


def test_a_followed_session_cut_anywhere_gives_the_same_goals() -> None:
    events = [user(1, "add the agent name to any logging"), assistant(2, EXPLAINED), assistant(3, OFFER),
              user(4, "2. User committed: Condensation happened, which should have deleted the shadow branch"),
              assistant(5, OFFER), user(6, "do 1 and 3"), user(7, "> 1. Run the migration\n\nplease also log it")]
    whole = [f.state_record("s") for f in extract(events)]
    assert [v for v, _ in later(extract(events))] == [
        "1. `hook_registry.go:153` - Best place, `agentName` is already available; "
        "3. `hooks_git_cmd.go:31` - Git hooks don't have agent context directly", "please also log it"]
    for cut in range(1, len(events)):
        running = RunningExtraction.of(events[:cut])
        running.feed(events[cut:])
        assert [f.state_record("s") for f in running.facts()] == whole


def _real_goals(path: Path, store: Path) -> list[tuple[str, list[str]]]:
    async def read() -> list[ProposedFact]:
        report = await import_file(path, store, actor="t")
        async with await open_store(store) as opened:
            return extract(await log_events(opened.db, report.sessions[0]))

    return later(asyncio.run(read()))


@pytest.mark.skipif(not REAL.is_dir(), reason=f"needs the real transcripts in {REAL}")
def test_the_real_transcripts(tmp_path: Path) -> None:
    pasted = _real_goals(REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl", tmp_path / "a.db")
    assert not [v for v, _ in pasted if "User committed" in v]  # evt:168 quotes the assistant's item 2 of evt:151
    assert [v for v, _ in pasted if v.startswith("ok, I couldn't replicate")]  # a request beside it stays one
    picked = _real_goals(REAL / "995ebed6e4-2__two_records_on_one_line_v2.1.7.jsonl", tmp_path / "b.db")
    (pick,) = [(v, s) for v, s in picked if s[-1] == "evt:136"]  # "Implement 1,2 and 3."
    assert pick[0].startswith("1. `hook_registry.go:153`") and "; 2. " in pick[0] and "; 3. " in pick[0]
    assert len(pick[1]) == 2 and pick[1][0] != "evt:136"  # the assistant's list, then the pick
