"""Verdicts on real compactions, round two (docs/reviews/verdict-real.md, "Round two"): the holes the
first round left open, each read on the real files in ../shared/real_sessions (skipped, and saying
so, without them) and on a short text that shows the rule holds for any summary of that shape.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.said_quoted import narrative, quoted_sections
from inspector.domain.survival import Fact, survival

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions"
AUTO_MICRO = REAL / "claude-code" / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
MANUAL = REAL / "claude-code" / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"


def _run(*args: str) -> tuple[int, object]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "owner"})
    return result.exit_code, json.loads(result.output) if result.output.strip() else None


def _needs(source: Path) -> None:
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")


def _real_survival(tmp_path: Path, source: Path) -> dict[str, dict]:
    """The first generation's survival verdicts of a real transcript, by the fact's value."""
    _needs(source)
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = tmp_path / "real.db"
    _, out = _run("import", "--into", str(store), str(source))
    session = out["sessions"][0]  # type: ignore[index]
    _, report = _run("survival", str(store), "--session", session)
    return {f["value"]: f for f in report["facts"]}  # type: ignore[index]


# --- 1. A verbatim list of the user's messages is not the summary keeping their state ----------

# The user's account at evt:58 of AUTO_MICRO, as the goal record holds it (its first chunk).
QUIT = "I had 2 sessions in parallel, I had 2 before those 2 but I closed them by running `/quit`"


def test_a_request_only_the_quoted_list_holds_is_not_kept_on_the_real_summary(tmp_path: Path) -> None:
    """7662d755: the summary quotes every user message under "6. All User Messages:", and the
    narrative says "User had done `git reset` which orphaned 2 sessions" — the user's `/quit`
    account was flattened, yet the quote made it kept. Now ``unknown``, pointing at what the
    narrative says instead."""
    verdicts = _real_survival(tmp_path, AUTO_MICRO)
    account = next(v for k, v in verdicts.items() if k.startswith(QUIT))
    assert account["verdict"] == "unknown"
    assert "git reset" in account["where"] and "quoted list of the user's messages" in account["reason"]
    assert "kept" not in {v["verdict"] for k, v in verdicts.items()
                          if v["kind"] == "goal" and k.startswith(("let's go back", "can you write a summary"))}
    # The question in progress is the narrative's "Optional Next Step": kept by the narrative.
    assert next(v for k, v in verdicts.items() if k.startswith("but one more question"))["verdict"] == "kept"
    # A path is its words: the quote keeps it.
    assert verdicts["/Users/soph/Work/entire/test/gemini_test"]["verdict"] == "kept"
    # 4b7d5121: "commit this" and "push and PR" stand in both of its lists of user messages and in
    # the narrative too ("User requested: "commit this""): kept.
    manual = _real_survival(tmp_path / "manual", MANUAL)
    assert manual["commit this"]["verdict"] == "kept" and manual["push and PR"]["verdict"] == "kept"


def _goal(value: str) -> Fact:
    return Fact("goal.later_request.x", "goal", value, "active", ("evt:3",), "user")


REQUEST = "Add a retry to the nightly export job"


@pytest.mark.parametrize("label", ["6. All user messages:", "## User messages (verbatim)", "**User messages:**",
                                   "All user messages:", "用户消息："])
def test_any_quoted_list_of_user_messages_is_not_the_state(label: str) -> None:
    quoted = (f"Summary:\n1. Primary Request and Intent:\n   - Fix the export timeout.\n\n{label}\n"
              f"   - \"Fix the export timeout.\"\n   - \"{REQUEST}\"\n\n7. Pending Tasks:\n   - None\n")
    verdict = survival(1, quoted, [], (1, 5), [_goal(REQUEST)]).verdicts[0]
    assert verdict.verdict == "unknown" and "quoted list" in verdict.reason
    told = quoted.replace("   - None", f"   - {REQUEST} (not started)")
    assert survival(1, told, [], (1, 5), [_goal(REQUEST)]).verdicts[0].verdict == "kept"
    # What the rest of the summary cancels stays contradicted.
    lifted = quoted.replace("   - None", f"   - {REQUEST}: no longer wanted, dropped.")
    assert survival(1, lifted, [], (1, 5), [_goal(REQUEST)]).verdicts[0].verdict == "contradicted"


def test_where_a_quoted_messages_section_starts_and_ends() -> None:
    text = ("Analysis:\n10. **Commit and PR**:\n    - User requested: \"commit this\"\n\nAll user messages:\n"
            "1. (Initial context)\n2. \"commit this\"\n3. \"do this:\"\n\nSummary:\n6. All user messages:\n"
            "   - \"commit this\"\n\n7. Pending Tasks:\n   - None\n")
    assert quoted_sections(text) == ((4, 9), (10, 13))
    story = narrative(text)
    assert story is not None and story.count("commit this") == 1 and "Pending Tasks" in story
    assert narrative("Current Work:\n- the user's messages were read\n") is None
    # A paragraph after the list is the narrative again.
    after = narrative("User messages:\n- \"fix it\"\n\nThe agent then fixed it.\n")
    assert after is not None and "The agent then fixed it." in after and "fix it\"" not in after
    # A list the summary words itself under such a label is its narrative, not a quote.
    assert narrative("User requests:\n- Fix the export timeout (done)\n- Add a retry (pending)\n") is None


# --- 3 and 5. A pasted context before the instruction -----------------------------------------

# anthropic/recordings/test_anthropic_compaction_usage_with_cache.yaml: its request (the pasted
# context, then the instruction) and its answer (the compaction block, then the text), saved as a
# plain message list as a client keeps it.
FOX_SUMMARY = (
    "The user provided a very long context consisting entirely of the repeated sentence \"The quick brown fox "
    "jumps over the lazy dog.\" repeated thousands of times, followed by the instruction \"Now say hello.\"\n\n"
    "The task was simply to say hello in response to the user's prompt.\n\nThe response to give is: \"Hello!\"\n\n"
    "No complex task is being solved here. The user simply wants a greeting in response to their \"Now say hello\" "
    "instruction. The massive repeated text appears to be a context window stress test.\n\n"
    "Next step: Simply say \"Hello!\" to the user.")
FOX = [
    {"role": "user", "content": [{"type": "text", "text": "Remember this context: "
                                  + "The quick brown fox jumps over the lazy dog. " * 5000 + "\n\nNow say hello."}]},
    {"role": "assistant", "content": [{"type": "compaction", "content": FOX_SUMMARY},
                                      {"type": "text", "text": "Hello!"}]},
]


def test_the_instruction_after_a_pasted_context_is_the_goal_and_its_summary_no_drift(tmp_path: Path) -> None:
    """The goal was the first 600 characters of foxes; confirmed, drift called the faithful
    compaction ``protected_missing`` (verdict-real). The goal is the instruction after the paste."""
    source = tmp_path / "fox.conversation.json"
    source.write_text(json.dumps(FOX), encoding="utf-8")
    store = tmp_path / "fox.db"
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0 and out["format"] == "anthropic"  # type: ignore[index]
    session = out["sessions"][0]  # type: ignore[index]
    _, facts = _run("facts", str(store), "--session", session)
    assert [f["value"] for f in facts if f["kind"] == "goal"] == ["Now say hello."]  # type: ignore[union-attr]
    _, report = _run("survival", str(store), "--session", session)
    assert [f["verdict"] for f in report["facts"] if f["kind"] == "goal"] == ["kept"]  # type: ignore[index]
    assert _run("confirm", str(store), "--session", session, "--all-pending")[0] == 0
    code, drift = _run("drift", str(store), "--session", session)
    assert code == 0 and not [f for f in drift["findings"] if f["code"] == "protected_missing"]  # type: ignore[index]


def test_a_paste_the_instruction_points_back_at_keeps_its_head() -> None:
    from inspector.domain.facts_text import first_chunk

    log = "Traceback (most recent call last): " + "File \"x.py\", line 3, in run. " * 40
    assert first_chunk(f"{log}\n\ncan you fix this?").startswith("Traceback")  # "this" is the paste
    assert first_chunk(f"Here is the log: {log}\n\nRestart the worker with two retries.") == \
        "Restart the worker with two retries."
    assert first_chunk("Fix the export timeout.\n\nNow say hello.") == "Fix the export timeout."  # no paste


# --- 4. The question a compaction cut short, in Codex and Anthropic transcripts ----------------

QUESTION = "why does the export still time out on the second batch?"


def _codex(kept_in_history: bool) -> str:
    """A Codex rollout in the real format (../shared/real_sessions/FORMATS.md §6): a request, a
    question, a shell call and its output, then a ``compacted`` line whose replacement history
    holds the user's messages (as the real sample's does), and ``context_compacted``."""
    at = "2026-01-21T10:00:{:02d}.000Z"
    first = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the export "
                                                                                            "timeout in export.py."}]}
    ask = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": QUESTION}]}
    lines = [
        ("session_meta", {"id": "019b2c1e-0000-7000-8000-000000000001", "timestamp": at.format(0), "cwd": "/repo",
                          "originator": "Codex Desktop", "cli_version": "0.140.0-alpha.3", "source": "vscode",
                          "model_provider": "openai", "base_instructions": {"text": "You are Codex."}}),
        ("turn_context", {"turn_id": "t1", "cwd": "/repo", "model": "gpt-5.5", "effort": "medium",
                          "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write"}}),
        ("response_item", first),
        ("response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Raised the batch timeout in export.py to 30 s."}]}),
        ("response_item", ask),
        ("response_item", {"type": "function_call", "name": "shell", "call_id": "call_2",
                           "arguments": json.dumps({"command": ["bash", "-lc", "pytest -k export"]})}),
        ("response_item", {"type": "function_call_output", "call_id": "call_2",
                           "output": "FAILED tests/test_export.py::test_second_batch - TimeoutError"}),
        ("compacted", {"message": "", "replacement_history": [first, ask] if kept_in_history else [first]}),
        ("event_msg", {"type": "context_compacted"}),
    ]
    return "\n".join(json.dumps({"timestamp": at.format(i), "type": kind, "payload": payload})
                     for i, (kind, payload) in enumerate(lines)) + "\n"


def _anthropic(summary: str) -> list[dict]:
    """A saved Messages list (FORMATS.md §2): the question, a tool call and its result, then the
    answer that starts with the ``compaction`` block (server-side compaction mid-turn)."""
    return [
        {"role": "user", "content": [{"type": "text", "text": "Fix the export timeout in export.py."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Raised the batch timeout in export.py to 30 s."}]},
        {"role": "user", "content": [{"type": "text", "text": QUESTION}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "bash",
                                           "input": {"command": "pytest -k export"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                      "content": "FAILED tests/test_export.py::test_second_batch - TimeoutError"}]},
        {"role": "assistant", "content": [{"type": "compaction", "content": summary},
                                          {"type": "text", "text": "The second batch still fails."}]},
    ]


def _in_progress(tmp_path: Path, name: str, body: str) -> dict[str, tuple[str, str]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / name
    source.write_text(body, encoding="utf-8")
    store = tmp_path / "cut.db"
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0, out
    session = out["sessions"][0]  # type: ignore[index]
    _, facts = _run("facts", str(store), "--session", session)
    _, report = _run("survival", str(store), "--session", session)
    verdicts = {f["key"]: f["verdict"] for f in report["facts"]}  # type: ignore[index]
    return {f["value"]: (f["rule"], verdicts.get(f["key"], "after")) for f in facts  # type: ignore[union-attr]
            if f["kind"] == "goal"}


def test_a_codex_compacted_line_mid_turn_leaves_the_question_in_progress(tmp_path: Path) -> None:
    kept = _in_progress(tmp_path / "kept", "rollout-2026-01-21T10-00-00-019b2c1e.jsonl", _codex(True))
    assert kept[QUESTION] == ("goal.in_progress", "kept")
    dropped = _in_progress(tmp_path / "dropped", "rollout-2026-01-21T10-00-00-019b2c1e.jsonl", _codex(False))
    assert dropped[QUESTION][0] == "goal.in_progress" and dropped[QUESTION][1] != "kept"


def test_an_anthropic_compaction_block_mid_turn_leaves_the_question_in_progress(tmp_path: Path) -> None:
    told = ("The user asked to fix the export timeout in export.py; the batch timeout was raised to 30 s. "
            f"The user then asked: \"{QUESTION}\" pytest -k export still fails on test_second_batch.")
    kept = _in_progress(tmp_path / "kept", "cut.conversation.json", json.dumps(_anthropic(told)))
    assert kept[QUESTION] == ("goal.in_progress", "kept")
    lost = "The user asked to fix a slow job; its timeout was raised to 30 s. Done."
    dropped = _in_progress(tmp_path / "dropped", "cut.conversation.json", json.dumps(_anthropic(lost)))
    assert dropped[QUESTION] == ("goal.in_progress", "missing")
