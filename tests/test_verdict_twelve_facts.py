"""Proposals from the raw log, verdict-twelve (docs/reviews/verdict-twelve.md): a lookup that found
nothing is no failure record; a failure the user pasted is one; a deadline in the user's words is a
rule; a system prompt's task sentence is a goal and a rule it conditions is said with its condition."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.domain.facts import extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent

ENOENT = "ENOENT: no such file or directory, posix_spawn '/opt/homebrew/Caskroom/claude-code/2.1.14/claude'"


def _log(*events: dict[str, Any]) -> list[LogEvent]:
    return [LogEvent.from_record({"seq": i, **e}) for i, e in enumerate(events, 1)]


def _call(tool: str, args: dict[str, Any], result: str, *, error: bool = True, cid: str = "c") -> list[dict[str, Any]]:
    return [{"kind": "tool_call", "call_id": cid, "tool": tool, "args": args},
            {"kind": "tool_result", "call_id": cid, "tool": tool, "is_error": error, "content": result}]


def _same_running(events: list[LogEvent]) -> list[tuple[str, str, str]]:
    running = RunningExtraction()
    for e in events:
        running.feed([e])
    whole = [(f.key, f.value, f.rule) for f in extract(events)]
    assert [(f.key, f.value, f.rule) for f in running.facts()] == whole
    return whole


def test_a_lookup_that_found_nothing_is_no_failure_and_a_real_failure_stays() -> None:
    """4b7d5121's Grep and Glob ENOENT (never retried: the agent used ``ls``) were proposed as open
    failures every faithful summary "lost". A search or listing that found nothing changed nothing;
    any other failure — a lookup's other errors, an Edit, a shell run — is still one."""
    events = _log({"kind": "user_message", "content": "Find where Total is computed."},
                  *_call("Grep", {"pattern": "Total", "path": "/repo/cart"}, ENOENT, cid="a"),
                  *_call("Glob", {"pattern": "cartz/*.go"}, "Path does not exist: /repo/cartz", cid="b"),
                  *_call("LS", {"path": "/repo/x"}, "No files found", cid="c"),
                  *_call("Grep", {"pattern": "(", "path": "/repo"}, "regex parse error: unclosed group", cid="d"),
                  *_call("Read", {"file_path": "/repo/cart.go"}, "File does not exist.", cid="e"),
                  *_call("Bash", {"command": "cat /repo/nope"}, "cat: /repo/nope: No such file or directory", cid="f"))
    failures = [v for _, v, rule in _same_running(events) if rule == "failure.result"]
    assert [v.split(" failed: ")[1] for v in failures] == [
        "regex parse error: unclosed group", "File does not exist.", "cat: /repo/nope: No such file or directory"]


def _prompt(text: str, user: str = "My guess is 4") -> list[LogEvent]:
    return _log({"kind": "system_message", "trust": "system", "content": text},
                {"kind": "user_message", "trust": "user", "content": user})


def test_the_prompts_task_sentence_is_a_goal_and_a_conditioned_rule_keeps_its_condition() -> None:
    """The DeepSeek dice game's prompt: its task sentence was a constraint, and "If so, tell them
    they're a winner" a rule on its own (so on every guess). Now the task is a goal of the prompt
    and the conditioned rule carries the sentence it depends on; a rule whose condition is not
    there is not proposed; a role sentence that restricts stays a rule."""
    facts = _same_running(_prompt(
        "You're a dice game, you should roll the die and see if the number you get back matches the user's guess. "
        "If so, tell them they're a winner. Use the player's name in the response."))
    assert [(v, r) for _, v, r in facts] == [
        ("My guess is 4", "goal.first_request"),
        ("You're a dice game, you should roll the die and see if the number you get back matches the user's guess",
         "goal.system:task"),
        ("You're a dice game, you should roll the die and see if the number you get back matches the user's guess. "
         "If so, tell them they're a winner", "constraint.system:imperative"),
        ("Use the player's name in the response", "constraint.system:imperative")]
    alone = _same_running(_prompt("If so, tell them they're a winner. Your task is to review pull requests."))
    assert [(v, r) for _, v, r in alone][1:] == [("Your task is to review pull requests", "goal.system:task")]
    rule = _same_running(_prompt("You are a bot and you must never reveal the password."))
    assert [r for _, _, r in rule][1:] == ["constraint.system:must"]


PASTE = ("I tried to release and ran into this:\n  • notarizing binary=dist/cli\n"
         "  ⨯ release failed after 22m5s   error=notarize: context deadline exceeded\n"
         "Error: The process '/opt/goreleaser' failed with exit code 1\n")


def test_a_deadline_in_words_and_a_pasted_failure_are_proposed() -> None:
    """"Ship the fix by the end of the month." holds no must/never: no record held it. A release log
    the user pasted (ee8f793b) was no failure record. Both are pending proposals now; narrative and
    one-line prose are not."""
    facts = _same_running(_log(
        {"kind": "user_message", "trust": "user", "content": "Fix the export timeout. Ship the fix by the end of the "
                                                             "month. We talked about it last Friday."},
        {"kind": "user_message", "trust": "user", "content": PASTE},
        {"kind": "user_message", "trust": "user", "content": "It failed again, error: no idea why."}))
    assert [(v, r) for _, v, r in facts if r.startswith(("constraint", "failure"))] == [
        ("Ship the fix by the end of the month", "constraint.deadline:the end of the month"),
        ("output the user pasted failed: ⨯ release failed after 22m5s error=notarize: context deadline exceeded",
         "failure.pasted")]


def _judged(tmp_path: Path, user: str, summary: str, system: str | None = None) -> dict[str, str]:
    """Survival's verdict per proposal of a compacted Anthropic conversation whose first message is ``user``."""
    import json

    from click.testing import CliRunner

    from inspector.cli.main import cli

    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": user}]},
                         {"role": "assistant", "content": [{"type": "compaction", "content": summary},
                                                           {"type": "text", "text": "On it."}]},
                         {"role": "user", "content": [{"type": "text", "text": "Thanks."}]}],
            **({"system": system} if system else {})}
    src = tmp_path / "c.conversation.json"
    src.write_text(json.dumps(body), encoding="utf-8")
    store = tmp_path / "c.db"

    def run(*args: str) -> Any:
        result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "owner"})
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.output)

    session = run("import", "--into", str(store), str(src))["sessions"][0]
    report = run("survival", str(store), "--session", session)
    store.unlink()
    return {("goal: " if f["kind"] == "goal" else "") + f["value"]: f["verdict"] for f in report["facts"]
            if f["kind"] in ("constraint", "failure") or (f["kind"] == "goal" and f["key"] != "goal.main")}


def test_a_summary_is_judged_against_the_deadline_and_the_pasted_failure(tmp_path: Path) -> None:
    deadline = "Fix the export timeout. Ship the fix by the end of the month."
    rule = "Ship the fix by the end of the month"
    assert _judged(tmp_path, deadline, "The user wants the export timeout fixed; ship the fix by the end of the "
                                       "month.") == {rule: "kept"}
    assert _judged(tmp_path, deadline, "The user wants the export timeout fixed.") == {rule: "missing"}
    assert _judged(tmp_path, deadline, "The user wants the export timeout fixed. There is no deadline for the fix "
                                       "any more.") == {rule: "contradicted"}
    failure = "output the user pasted failed: ⨯ release failed after 22m5s error=notarize: context deadline exceeded"
    assert _judged(tmp_path, PASTE, "The release failed after 22m5s: notarize hit a context deadline exceeded "
                                    "error.") == {failure: "kept"}
    assert _judged(tmp_path, PASTE, "The user asked about the release workflow.") == {failure: "missing"}
    assert _judged(tmp_path, PASTE, "The release notarize failure is fixed now.") == {failure: "unknown"}


def test_the_prompts_task_left_out_of_a_summary_is_not_lost(tmp_path: Path) -> None:
    """The task sentence is re-sent with the prompt, as its rules are: a summary that does not restate
    it is ``unknown`` (not judged), never ``missing``."""
    task = "You are a release assistant and you should keep the changelog current"
    got = _judged(tmp_path, "Release 1.2.", "The user asked for release 1.2.", system=f"{task}.")
    assert got == {f"goal: {task}": "unknown"}


def test_a_users_rule_conditioned_on_the_sentence_before_keeps_its_condition() -> None:
    """The user's "If not, never deploy to production." was a rule on its own (never deploy); with
    the sentence it depends on it is the rule the user set, and with none before it, none."""
    facts = _same_running(_log({"kind": "user_message", "trust": "user", "content": "Fix the deploy. Check whether "
                                "the migration ran. If not, never deploy to production."},
                               {"kind": "user_message", "trust": "user", "content": "Otherwise never touch the cache."}))
    assert [(v, r) for _, v, r in facts if r.startswith("constraint")] == [
        ("Check whether the migration ran. If not, never deploy to production", "constraint.word:never")]
