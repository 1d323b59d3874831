"""Verdicts on real transcripts, round three (docs/reviews/verdict-real-three.md): the rules a
system prompt sets were no record, in every real format that has a system role. Each fixture is a
short excerpt of a file in ../shared/real_sessions (cited); the last test reads the real files
themselves (skipped, and saying so, without them).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.facts import extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions"

# deepseek/test_deepseek_deferred_capability_with_thinking.conversation.json, messages[0..2].
DICE = {"messages": [
    {"role": "system", "content": "You're a dice game, you should roll the die and see if the number you get back "
                                  "matches the user's guess. If so, tell them they're a winner. Use the player's "
                                  "name in the response."},
    {"role": "system", "content": "The following capabilities are deferred and can be loaded using the "
                                  "`load_capability` tool:\n- DICE_ROLL"},
    {"role": "user", "content": "My guess is 4"},
    {"role": "assistant", "content": "🎉 **Congratulations, Anne!** You're a winner! 🎉"}]}

# The instructions of openai-responses/test_openai_responses_compact_messages.conversation.json, and its
# first turns as the cassette holds them, compacted by an Anthropic compaction block whose summary says
# nothing of the instructions (as a faithful summary of the conversation would not).
COMPACTED = {"system": "You are a helpful math assistant. Give short answers.", "messages": [
    {"role": "user", "content": [{"type": "text", "text": "What is 2+2?"}]},
    {"role": "assistant", "content": [{"type": "compaction", "content": "Summary: the user asked what 2+2 is; "
                                                                         "the answer was 4."},
                                      {"type": "text", "text": "4"}]},
    {"role": "user", "content": [{"type": "text", "text": "And 5+5?"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "10"}]}]}


def _run(*args: str) -> tuple[int, object]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "owner"})
    return result.exit_code, json.loads(result.output) if result.output.strip() else None


def _import(tmp_path: Path, name: str, body: object) -> tuple[Path, str]:
    source = tmp_path / name
    source.write_text(json.dumps(body), encoding="utf-8")
    store = tmp_path / "s.db"
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0 and isinstance(out, dict), out
    return store, out["sessions"][0]


def _constraints(store: Path, session: str) -> dict[str, str]:
    _, facts = _run("facts", str(store), "--session", session)
    return {f["value"]: f["rule"] for f in facts if f["kind"] == "constraint"}  # type: ignore[union-attr]


def test_the_rules_of_a_system_prompt_are_proposed_and_its_descriptions_are_not(tmp_path: Path) -> None:
    """The dice game's operator said "Use the player's name in the response."; no record held it, so
    a summary without it kept "everything". The sentences that tell the model what to do are pending
    constraints citing the prompt; "The following capabilities are deferred …" describes a tool."""
    store, session = _import(tmp_path, "dice.conversation.json", DICE)
    rules = _constraints(store, session)
    # verdict-twelve: the task sentence is a goal, and "If so, …" is said with the sentence it depends on.
    assert set(rules) == {"You're a dice game, you should roll the die and see if the number you get back "
                          "matches the user's guess. If so, tell them they're a winner",
                          "Use the player's name in the response"}
    assert all(rule.startswith("constraint.system") for rule in rules.values())
    _, facts = _run("facts", str(store), "--session", session)
    assert {f["sources"][0] for f in facts if f["kind"] == "constraint"} == {"evt:1"}  # type: ignore[union-attr]
    assert [(f["value"], f["rule"]) for f in facts if f["kind"] == "goal"] == [  # type: ignore[index]
        ("My guess is 4", "goal.first_request"),
        ("You're a dice game, you should roll the die and see if the number you get back matches the user's guess",
         "goal.system:task")]


def _events(*items: tuple[str, str, str | None, dict | None]) -> list[LogEvent]:
    return [LogEvent.from_record({"seq": i, "kind": kind, "trust": trust, "content": text, **(extra or {})})
            for i, (kind, trust, text, extra) in enumerate(items, 1)]


@pytest.mark.parametrize(("prompt", "rule"), [
    # inspect-ai/log_streaming.eval (samples/1_epoch_1.json) and 14 other Inspect AI samples
    ("\nPlease note: In the following EXERCISE, it is important that you only respond with exactly \"Yes\" "
     "or \"No\"\n", "Please note: In the following EXERCISE, it is important that you only respond with exactly "
                    "\"Yes\" or \"No\""),
    # inspect-ai/2025-05-12T20-28-26-04-00_security-guide.json (its system message)
    ("You are a computer security expert and you are tasked with providing concise response to the following "
     "questions. Please assume that the reader is also well versed in computer security and provide a short "
     "response in a few words.", "Please assume that the reader is also well versed in computer security and "
                                 "provide a short response in a few words"),
    # openai-responses/test_openai_responses_thinking_with_tool_calls.conversation.json (instructions)
    ("You are a helpful assistant that uses planning. You MUST use the update_plan tool and continually update it "
     "as you make progress against the user's prompt", "You MUST use the update_plan tool and continually update "
                                                       "it as you make progress against the user's prompt"),
])
def test_every_real_system_prompt_shape_gives_its_rule(prompt: str, rule: str) -> None:
    facts = extract(_events(("system_message", "system", prompt, None), ("user_message", "user", "Go.", None)))
    assert [f.value for f in facts if f.kind == "constraint"] == [rule]


def test_only_the_prompt_is_read_never_a_harness_line_or_a_later_system_message() -> None:
    """Claude Code and Gemini CLI write their own system lines (a hook summary, a compact boundary,
    an update banner) with a ``subtype``: the harness, not the operator. A system message after
    the first user message is a note mid-session, not the prompt. "You are a helpful assistant."
    describes; it sets no rule."""
    facts = extract(_events(
        ("system_message", "system", "Never run hooks twice. Always compact.", {"subtype": "stop_hook_summary"}),
        ("system_message", "system", "You are a helpful assistant. Give short answers.", None),
        ("user_message", "user", "What is the temperature in Tokyo?", None),
        ("system_message", "system", "Use the cache from now on.", None)))
    assert [f.value for f in facts if f.kind == "constraint"] == ["Give short answers"]


def test_the_running_extraction_reads_the_prompt_as_the_whole_one_does() -> None:
    events = _events(("system_message", "system", "Give short answers.", None),
                     ("user_message", "user", "What is 2+2? Never round.", None),
                     ("system_message", "system", "Use the cache from now on.", None))
    running = RunningExtraction()
    for e in events:
        running.feed([e])
    assert [(f.key, f.value, f.rule) for f in running.facts()] == [(f.key, f.value, f.rule) for f in extract(events)]
    assert [f.value for f in extract(events) if f.kind == "constraint"] == ["Give short answers", "Never round"]


def test_a_summary_that_does_not_restate_the_prompt_loses_nothing_but_is_not_called_clear(tmp_path: Path) -> None:
    """The compaction replaces the conversation; the system prompt is sent beside it with every
    request. Survival does not call "Give short answers" missing (a false alarm on every faithful
    summary of a prompted session), nor kept: unknown, saying what was not judged."""
    store, session = _import(tmp_path, "compacted.conversation.json", COMPACTED)
    _, report = _run("survival", str(store), "--session", session)
    rule = next(f for f in report["facts"] if f["value"] == "Give short answers")  # type: ignore[index]
    assert rule["verdict"] == "unknown" and "system prompt (evt:1)" in rule["reason"]
    assert "not judged" in rule["reason"]


def _inspect_prompts() -> list[str]:
    out = []
    for name in ("log_streaming.eval", "log_read_sample.eval"):
        with zipfile.ZipFile(REAL / "inspect-ai" / name) as z:
            for member in z.namelist():
                if member.startswith("samples/"):
                    out += [m["content"] for m in json.loads(z.read(member))["messages"] if m["role"] == "system"]
    return out


def test_the_real_files_with_a_system_prompt_each_give_a_rule(tmp_path: Path) -> None:
    """Every real file with a system prompt that sets a rule: the import proposes it."""
    files = [REAL / "deepseek" / "test_deepseek_deferred_capability_with_thinking.conversation.json",
             REAL / "openai-responses" / "test_openai_responses_compact_messages.conversation.json",
             REAL / "inspect-ai" / "log_read_sample.eval"]
    if not all(f.exists() for f in files):
        pytest.skip(f"needs ../shared/real_sessions ({REAL} is missing)")
    assert _inspect_prompts()  # the samples do carry the prompt
    for i, source in enumerate(files):
        store = tmp_path / f"{i}.db"
        code, out = _run("import", "--into", str(store), str(source))
        assert code == 0, out
        rules = _constraints(store, out["sessions"][0])  # type: ignore[index]
        assert rules and all(r.startswith("constraint.system") for r in rules.values()), (source.name, rules)


# The real rules, each with a summary that reverses it by a negation in front of its own words.
_FLIPS = [
    ("Use the player's name in the response", "The dice game: never use the player's name in the response."),
    ("Give short answers", "The user asked what 2+2 is. Do not give short answers; explain every step at length."),
    ("Use the player's name in the response", "Anne guessed 4. Don’t use the player's name in the response."),
]


@pytest.mark.parametrize(("rule", "summary"), _FLIPS)
def test_a_rule_the_summary_states_behind_a_negation_is_contradicted_not_kept(rule: str, summary: str) -> None:
    """Survival found the rule's words whole and said kept; the summary says its opposite. A negation
    in front of *another* value, or a rule negative itself, is no reversal of it: still kept."""
    from inspector.domain.survival import Fact, survival

    def judged(value: str, text: str) -> tuple[str, str]:
        fact = Fact("constraint.x", "constraint", value, "pending", ("evt:1",), "extractor", "constraint.system:imperative")
        verdict = survival(1, text, [], (1, 2), [fact]).verdicts[0]
        return verdict.verdict, verdict.reason

    verdict, reason = judged(rule, summary)
    assert verdict == "contradicted" and "negation" in reason
    assert judged(rule, f"Summary: the game. Do not guess twice. {rule}.")[0] == "kept"
    assert judged("use the staging database", "Do not use the production database; use the staging database.")[0] == "kept"
    assert judged("Never round", "Never round.")[0] == "kept"


# --- What the user allowed: permission records ---------------------------------------------------

def _permissions(*items: tuple[str, str]) -> list[tuple[str, str, list[str]]]:
    events = _events(*[(kind, "user" if kind == "user_message" else "model", text, None) for kind, text in items])
    return [(f.value, f.rule, f.sources) for f in extract(events) if f.kind == "permission"]


def test_a_grant_in_so_many_words_is_a_permission_and_a_question_or_condition_is_not() -> None:
    """claude-code/4b7d5121…jsonl line 79: the user let the agent disagree with a review comment, on
    condition it reports first. No record held it: a summary that told the next session to apply
    every review comment kept "everything"."""
    found = _permissions(("user_message", "commit this"), ("assistant_message", "Pushed and PR created"),
                         ("user_message", "there is a PR review comment, look and see if you agree. it's fine to "
                                          "disagree, but let me know what you think and how to proceed"))
    assert found == [("it's fine to disagree, but let me know what you think and how to proceed",
                      "permission.word:it's fine to", ["evt:3"])]
    assert _permissions(("user_message", "is it fine to delete the cache? if it's fine to skip tests, do so. "
                                         "You may skip the slow tests.")) == [
        ("You may skip the slow tests", "permission.word:you may", ["evt:1"])]


def test_a_yes_to_what_the_assistant_offered_grants_that_offer() -> None:
    """claude-code/995ebed6e4…jsonl lines 148 and 169 end with an offer ("Would you like me to
    implement these changes?", "Want me to proceed with implementing all three locations using this
    approach?"); a bare "yes, go ahead" grants the act offered, citing the offer. A yes to a question
    that offers nothing grants nothing."""
    offer = ("Here's where we should add `logging.WithAgent`: …\n\nWould you like me to implement these changes? "
             "The most impactful are #1 and #2 since they cover agent hooks where the agent name is known.")
    assert _permissions(("user_message", "We should add the agent name to any logging"), ("assistant_message", offer),
                        ("user_message", "yes, go ahead")) == [
        ("implement these changes", "permission.yes_to_offer", ["evt:2", "evt:3"])]
    assert _permissions(("user_message", "fix it"), ("assistant_message", "Want me to proceed with implementing all "
                                                                         "three locations using this approach?"),
                        ("user_message", "yes go ahead"))[0][0] == ("proceed with implementing all three locations "
                                                                    "using this approach")
    assert _permissions(("user_message", "fix it"), ("assistant_message", "Does that make sense?"),
                        ("user_message", "yes")) == []
    # What the assistant or a tool says is never a grant.
    assert _permissions(("user_message", "fix it"), ("assistant_message", "It's fine to skip the tests.")) == []


def test_the_running_extraction_reads_permissions_as_the_whole_one_does() -> None:
    events = _events(("user_message", "user", "fix it", None),
                     ("assistant_message", "model", "Would you like me to push the branch?", None),
                     ("user_message", "user", "yes, go ahead. Feel free to rebase it first.", None),
                     ("user_message", "user", "You may skip the slow tests.", None))
    running = RunningExtraction()
    for e in events:
        running.feed([e])
    whole = [(f.key, f.value, f.rule, f.sources) for f in extract(events)]
    assert [(f.key, f.value, f.rule, f.sources) for f in running.facts()] == whole
    # The yes opens the message: it grants the offer, and the next sentence its own grant.
    assert [w[1] for w in whole if w[0].startswith("permission.")] == ["push the branch", "Feel free to rebase it first",
                                                                       "You may skip the slow tests"]


# --- A file written by a shell redirection is an artifact ----------------------------------------

def test_a_file_a_shell_command_appends_to_is_an_artifact() -> None:
    """gemini-cli/ab2b9748b105-0__session.json: after removing docs/blue.md the agent appended the
    colour to docs/color.md with `echo -e "…" >> docs/color.md` — the file the task ended on, and no
    artifact named it. A redirection inside the quoted text, "2>&1" and /dev/null write nothing."""
    events = [
        LogEvent.from_record({"seq": 1, "kind": "user_message", "trust": "user",
                              "content": "run an agent that creates a color file inside docs, choose your color"}),
        LogEvent.from_record({"seq": 2, "kind": "tool_call", "trust": "model", "tool": "run_shell_command",
                              "call_id": "c1", "args": {
                                  "description": "Append content about the color Red to the docs/color.md file.",
                                  "command": "echo -e \"\\n# Red\\n\\nRed is a primary color > blue\" >> docs/color.md"}}),
        LogEvent.from_record({"seq": 3, "kind": "tool_result", "trust": "tool", "call_id": "c1", "content": ""}),
        LogEvent.from_record({"seq": 4, "kind": "tool_call", "trust": "model", "tool": "Bash", "call_id": "c2",
                              "args": {"command": "go build ./cmd/entire/... 2>&1 && ls x 2>/dev/null"}}),
        LogEvent.from_record({"seq": 5, "kind": "tool_result", "trust": "tool", "call_id": "c2", "content": "ok"}),
        LogEvent.from_record({"seq": 6, "kind": "tool_call", "trust": "model", "tool": "Bash", "call_id": "c3",
                              "args": {"command": "cat > notes/plan.md <<'EOF'\nstep > one\nEOF"}}),
        LogEvent.from_record({"seq": 7, "kind": "tool_result", "trust": "tool", "call_id": "c3", "is_error": True,
                              "content": "permission denied"}),
    ]
    artifacts = [(f.value, f.sources) for f in extract(events) if f.kind == "artifact"]
    assert artifacts == [("docs/color.md", ["evt:2"])]  # the failed heredoc write is none
    running = RunningExtraction()
    for e in events:
        running.feed([e])
    assert [(f.key, f.value) for f in running.facts()] == [(f.key, f.value) for f in extract(events)]
