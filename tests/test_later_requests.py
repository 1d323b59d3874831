"""A user's later request is a pending goal record a summary is judged against (fresh-eyes F13).

Only the first request was a goal, so after a compaction a later one ("push and PR", "can you
also add a single retry?") was no protected record and a summary that dropped it was judged
✓. Acknowledgements and questions that ask for an answer are not requests: no record, no
false alarm.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.domain.facts import extract
from inspector.domain.later_requests import is_request
from inspector.domain.logevents import LogEvent
from inspector.services.checking import check_store
from inspector.services.importing import import_file
from inspector.services.survival import survival_report
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"

REQUESTS = ["push and PR", "commit this", "can you also add a single retry?", "yes, push it",
            "the issue is still that this would not surface to the user, could we do that similar to when the "
            "check of an active session fails?",
            "ok, I couldn't replicate the 4 session issue, but I still got 2 commits, so maybe we should focus on that",
            "能不能再加一个重试？", "Tell me where we should add the agent into context."]
NOT_REQUESTS = ["thanks", "ok", "yes", "Thank you!", "got it, thanks", "no, then it's good", "好的", "Great, thanks!",
                "would 1 have helped in this scenario? ", "Why is this working for claude, or is it not?",
                "how can we know which agent is active ?", "What was that?", "这是什么？",
                "but one more question, we are also deleting shadow branches, so how could it still be there? because "
                "creating the branch with the same name again undeletes the old one?"]


@pytest.mark.parametrize("text", REQUESTS)
def test_a_later_request_is_a_request(text: str) -> None:
    assert is_request(text)


@pytest.mark.parametrize("text", NOT_REQUESTS)
def test_an_acknowledgement_or_a_question_is_not(text: str) -> None:
    assert not is_request(text)


def test_a_later_request_is_a_pending_goal_record_citing_its_event() -> None:
    events = [LogEvent(1, "user_message", "user", "fix the flaky export test"),
              LogEvent(2, "assistant_message", "model", "Done."),
              LogEvent(3, "user_message", "user", "thanks"),
              LogEvent(4, "user_message", "user", "can you also add a single retry?"),
              LogEvent(5, "user_message", "user", "why did it fail?"),
              LogEvent(6, "user_message", "user", "can you also add a single retry?")]
    goals = [f for f in extract(events) if f.kind == "goal"]
    assert [(f.key.split(".")[0:2], f.value, f.sources, f.rule) for f in goals] == [
        (["goal", "main"], "fix the flaky export test", ["evt:1"], "goal.first_request"),
        (["goal", "later_request"], "can you also add a single retry?", ["evt:4", "evt:6"], "goal.later_request")]
    assert goals[1].state_record("s")["status"] == "pending"


def _transcript(path: Path, summary: str) -> Path:
    def line(uuid: str, role: str, content: str, **more: object) -> dict[str, object]:
        return {"type": role, "sessionId": "s-later", "uuid": uuid, "timestamp": f"2026-01-07T11:47:{len(uuid):02d}.000Z",
                "message": {"role": role, "content": content}, **more}
    rows = [line("u1", "user", "fix the flaky export test in export_test.go"),
            line("a1", "assistant", "Fixed the flaky export test."),
            line("u2", "user", "thanks"),
            line("u3", "user", "can you also add a single retry?"),
            line("a2", "assistant", "Adding it now."),
            {"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "sessionId": "s-later",
             "uuid": "b1", "timestamp": "2026-01-07T11:48:00.000Z", "compactMetadata": {"trigger": "auto"}},
            line("s1", "user", "This session is being continued from a previous conversation that ran out of "
                 "context. " + summary, isCompactSummary=True)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _check(source: Path, store: Path) -> tuple[str, list[dict[str, str]]]:
    asyncio.run(import_file(source, store, actor="tester"))

    async def run() -> tuple[str, list[dict[str, str]]]:
        async with await open_store(store) as opened:
            (result,) = await check_store(opened)
            return result.verdict, result.warnings

    return asyncio.run(run())


def test_a_compaction_that_drops_a_later_request_is_not_a_green(tmp_path: Path) -> None:
    source = _transcript(tmp_path / "s.jsonl", "The user asked to fix the flaky export test in export_test.go; "
                         "it is fixed.")
    verdict, warnings = _check(source, tmp_path / "s.db")
    assert verdict == "unknown" and [w["code"] for w in warnings] == ["facts_lost"]


def test_a_compaction_that_keeps_the_later_request_stays_clear(tmp_path: Path) -> None:
    source = _transcript(tmp_path / "s.jsonl", "The user asked to fix the flaky export test in export_test.go; "
                         "it is fixed. Then: can you also add a single retry? (in progress)")
    verdict, warnings = _check(source, tmp_path / "s.db")
    assert verdict == "clear" and warnings == []


def _survival(source: Path, store: Path) -> dict[str, tuple[str, str]]:
    asyncio.run(import_file(source, store, actor="tester"))

    async def run() -> dict[str, tuple[str, str]]:
        async with await open_store(store) as opened:
            session = (await opened.db.execute_fetchall("SELECT id FROM sessions"))[0][0]
            report = await survival_report(opened, session)
            return {v.fact.value: (v.verdict, v.fact.key) for v in report.verdicts if v.fact.kind == "goal"}

    return asyncio.run(run())


def test_the_real_manual_compaction_is_judged_against_push_and_pr(tmp_path: Path) -> None:
    source = REAL / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    kept = _survival(source, tmp_path / "kept.db")
    assert kept["push and PR"][0] == "kept" and kept["push and PR"][1].startswith("goal.later_request.")
    # The same transcript with the request cut out of its compaction summary: the drop is seen.
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = [line.replace("push and PR", "(omitted)") if '"isCompactSummary": true' in line
           or '"isCompactSummary":true' in line else line for line in lines]
    assert cut != lines
    dropped = tmp_path / "dropped.jsonl"
    dropped.write_text("".join(cut), encoding="utf-8")
    # "unknown": the summary still says "push" and "PR" elsewhere; either way not kept, so check is "?".
    assert _survival(dropped, tmp_path / "dropped.db")["push and PR"][0] in ("missing", "unknown")
