"""Verdicts on real compactions (docs/reviews/verdict-real.md): each case is a short excerpt of a
real transcript or recording in ../shared/real_sessions, where the tool's reading of the real
text was wrong — a summary it never read, a greeting proposed as the goal, an effect in the
world (a pushed branch, an opened pull request) that no record carried.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

# The last request of anthropic/recordings/test_anthropic_compaction_round_trip.yaml (its
# ``parsed_body.messages``) and the answer, saved as a plain message list, as a client keeps it.
ROUND_TRIP = [
    {"role": "user", "content": [{"type": "text", "text": "Hello!"}]},
    {"role": "assistant", "content": [{"type": "compaction", "content": "Summary: user said hello."},
                                      {"type": "text", "text": "Hello! How can I help?"}]},
    {"role": "user", "content": [{"type": "text", "text": "What did I say earlier?"},
                                 {"type": "text", "text": "What did I say earlier?"}]},
    {"role": "assistant", "content": [{"type": "text",
                                       "text": "According to the conversation summary, you said \"hello\" earlier."}]},
]


def _run(*args: str) -> tuple[int, object]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "owner"})
    return result.exit_code, json.loads(result.output) if result.output.strip() else None


def _import(tmp_path: Path, name: str, body: object) -> tuple[Path, dict]:
    source = tmp_path / name
    source.write_text(json.dumps(body), encoding="utf-8")
    store = tmp_path / "s.db"
    code, out = _run("import", "--into", str(store), str(source))
    assert code == 0 and isinstance(out, dict), out
    return store, out


def test_a_saved_anthropic_list_with_a_compaction_block_is_read_as_anthropic(tmp_path: Path) -> None:
    """Text and compaction blocks only (no tool_use, no thinking): read as OpenAI chat, the
    compaction was no summary at all, and ``check`` said clear over a compacted session."""
    store, out = _import(tmp_path, "round_trip.conversation.json", ROUND_TRIP)
    assert out["format"] == "anthropic" and out["added"].get("summary") == 1
    session = out["sessions"][0]
    code, drift = _run("drift", str(store), "--session", session)
    assert isinstance(drift, dict) and drift["generation"] == 1


def test_a_greeting_is_no_goal_and_its_summary_is_no_drift(tmp_path: Path) -> None:
    """"Hello!" was proposed as the goal; once confirmed, drift called the faithful "Summary: user
    said hello." ``protected_missing``. The first request is the next message."""
    store, out = _import(tmp_path, "round_trip.conversation.json", ROUND_TRIP)
    session = out["sessions"][0]
    _, facts = _run("facts", str(store), "--session", session)
    goals = [f["value"] for f in facts if f["kind"] == "goal"]  # type: ignore[union-attr]
    assert goals == ["What did I say earlier?"]
    code, _ = _run("confirm", str(store), "--session", session, "--all-pending")
    assert code == 0
    code, drift = _run("drift", str(store), "--session", session)
    assert code == 0 and not [f for f in drift["findings"] if f["severity"] == "finding"]  # type: ignore[index]


def test_what_a_greeting_is() -> None:
    from inspector.domain.later_requests import greeting

    assert all(map(greeting, ["Hello!", "hi there", "Good morning.", "你好", "Hey everyone"]))
    # a greeting that names the assistant is still only a greeting (review-15 item 9; flow-eight)
    assert not any(map(greeting, ["hello, can you fix the build?", "Hey, deploy it", "good", "Hi Claude, fix it",
                                  "Hello! Never touch the prod database."]))


# From the real manual compaction (claude-code/4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl,
# lines 4-62): "commit this", then "push and PR"; the outputs are quoted as git and gh printed them.
_PUBLISHED = [
    ("user_message", None, None, "commit this"),
    ("tool_call", "c1", {"command": "git commit -m \"$(cat <<'EOF'\nfeat(manual-commit): detect mid-session commits "
                         "via live transcript analysis\nEOF\n)\""}, None),
    ("tool_result", "c1", None, "[alex/ent-112-checkpoint-id-reuse-bug 6d61daa] feat(manual-commit): detect "
                                "mid-session commits via live transcript analysis\n 17 files changed, 486 insertions(+)"),
    ("user_message", None, None, "push and PR"),
    ("tool_call", "c2", {"command": "git push -u origin alex/ent-112-checkpoint-id-reuse-bug"}, None),
    ("tool_result", "c2", None, "branch 'alex/ent-112-checkpoint-id-reuse-bug' set up to track "
                                "'origin/alex/ent-112-checkpoint-id-reuse-bug'.\n[entire] Pushing session logs to origin..."),
    ("tool_call", "c3", {"command": "gh pr view 85 --json url"}, None),
    ("tool_result", "c3", None, "{\"url\":\"https://github.com/entireio/cli/pull/84\"}"),
    ("tool_call", "c4", {"command": "gh pr create --title \"fix(manual-commit): prevent checkpoint ID reuse bugs "
                         "(ENT-112)\" --body \"…\""}, None),
    ("tool_result", "c4", None, "https://github.com/entireio/cli/pull/85"),
    ("assistant_message", None, None, "Pushed and PR created: https://github.com/entireio/cli/pull/85"),
]


def _sif(summary: str) -> str:
    rows: list[dict[str, object]] = [
        {"type": "header", "format": "sif/1"},
        {"type": "session", "id": "s1", "title": "commit this", "created_at": "2026-01-22T01:41:10Z",
         "adapter": "anthropic", "owner": "owner", "goal_revision": 1}]
    for seq, (kind, call, args, content) in enumerate(_PUBLISHED, 1):
        row: dict[str, object] = {"type": "event", "session": "s1", "seq": seq, "kind": kind,
                                  "at": f"2026-01-22T01:41:{seq:02d}Z",
                                  "trust": {"user_message": "user", "tool_result": "tool"}.get(kind, "model")}
        if content is not None:
            row["content"] = content
        if call:
            row.update({"call_id": call, "tool": "Bash"})
        if args:
            row["args"] = args
        rows.append(row)
    rows.append({"type": "summary", "session": "s1", "generation": 1, "kind": "recursive", "text": summary,
                 "covers": [1, len(_PUBLISHED)], "sources": ["evt:1"]})
    return "\n".join(json.dumps(r) for r in rows) + "\n"


def _survival(tmp_path: Path, summary: str) -> dict[str, str]:
    source = tmp_path / "published.jsonl"
    source.write_text(_sif(summary), encoding="utf-8")
    store = tmp_path / "p.db"
    code, _ = _run("import", "--into", str(store), str(source))
    assert code == 0
    code, _ = _run("facts", str(store), "--session", "s1", "--write")
    assert code == 0
    _, report = _run("survival", str(store), "--session", "s1")
    return {f["value"]: f["verdict"] for f in report["facts"]}  # type: ignore[index]


def test_a_commit_a_pushed_branch_and_an_opened_pull_request_are_proposed(tmp_path: Path) -> None:
    kept = ("The user asked to commit this, then to push and PR. Committed 6d61daa, pushed branch "
            "alex/ent-112-checkpoint-id-reuse-bug, created PR https://github.com/entireio/cli/pull/85.")
    verdicts = _survival(tmp_path, kept)
    assert verdicts["6d61daa"] == "kept"
    assert verdicts["alex/ent-112-checkpoint-id-reuse-bug"] == "kept"
    assert verdicts["https://github.com/entireio/cli/pull/85"] == "kept"
    assert "https://github.com/entireio/cli/pull/84" not in verdicts  # what gh pr view printed is no effect of it


def test_a_summary_that_drops_the_opened_pull_request_is_not_all_kept(tmp_path: Path) -> None:
    """The real summary kept "Created PR: https://github.com/entireio/cli/pull/85"; with it cut, every
    verdict said kept — a later turn could open the pull request a second time."""
    dropped = "The user asked to commit this, then to push and PR. The work is done; nothing is pending."
    verdicts = _survival(tmp_path, dropped)
    assert verdicts["https://github.com/entireio/cli/pull/85"] == "missing"
    assert verdicts["6d61daa"] == "missing"


REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"
AUTO_MICRO = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
MANUAL = REAL / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
# The user's question at line 134 of AUTO_MICRO; the agent was still reading session files (a tool
# result, line 154) when the compaction came (line 155).
QUESTION = ("but one more question, we are also deleting shadow branches, so how could it still be there? "
            "because creating the branch with the same name again undeletes the old one?")


def _real_goals(tmp_path: Path, source: Path, cut: str | None = None) -> dict[str, tuple[str, str]]:
    """Each goal's value -> (rule, survival verdict) of ``source`` imported, ``cut`` removed from
    its compaction summary first."""
    import pytest

    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    if cut is not None:
        for i, line in enumerate(lines):
            record = json.loads(line) if line.startswith("{") and '"isCompactSummary"' in line else None
            if record and record.get("isCompactSummary"):
                assert cut in record["message"]["content"]
                record["message"]["content"] = record["message"]["content"].replace(cut, "")
                lines[i] = json.dumps(record) + "\n"
    tmp_path.mkdir(parents=True, exist_ok=True)
    copy = tmp_path / source.name
    copy.write_text("".join(lines), encoding="utf-8")
    store = tmp_path / "real.db"
    _, out = _run("import", "--into", str(store), str(copy))
    session = out["sessions"][0]  # type: ignore[index]
    _, facts = _run("facts", str(store), "--session", session)
    _, report = _run("survival", str(store), "--session", session)
    verdicts = {f["key"]: f["verdict"] for f in report["facts"]}  # type: ignore[index]
    return {f["value"]: (f["rule"], verdicts.get(f["key"], "after")) for f in facts  # type: ignore[union-attr]
            if f["kind"] == "goal"}


def test_the_question_a_compaction_cut_short_is_a_goal_and_its_drop_is_seen(tmp_path: Path) -> None:
    """A question asks for an answer, so it was no later request; but this one was being answered
    when the compaction came. The real summary kept it (its "Optional Next Step"); a summary without
    it was judged as keeping every goal."""
    kept = _real_goals(tmp_path / "kept", AUTO_MICRO)
    assert kept[QUESTION] == ("goal.in_progress", "kept")
    dropped = _real_goals(tmp_path / "dropped", AUTO_MICRO, cut=QUESTION)
    # Most of its words stand elsewhere in the summary (shadow branches, deleting): not judged, never kept.
    assert dropped[QUESTION] == ("goal.in_progress", "unknown")


def test_a_turn_that_ended_before_the_compaction_leaves_no_question_in_progress(tmp_path: Path) -> None:
    goals = _real_goals(tmp_path, MANUAL)
    assert not [rule for rule, _ in goals.values() if rule == "goal.in_progress"]


def test_a_dry_run_publishes_nothing() -> None:
    from inspector.domain.facts_published import published
    from inspector.domain.logevents import LogEvent

    def pair(command: str, output: str) -> list[LogEvent]:
        return [LogEvent(1, "tool_call", "model", None, "Bash", "c1", {"command": command}),
                LogEvent(2, "tool_result", "tool", output, "Bash", "c1")]

    pushed = "To github.com:entireio/cli.git\n * [new branch]      alex/ent-112 -> alex/ent-112"
    assert [p.value for p in published(pair("git push -u origin alex/ent-112", pushed))] == ["alex/ent-112"]
    assert published(pair("git push --dry-run -u origin alex/ent-112", pushed)) == []


def test_only_a_question_can_be_in_progress() -> None:
    """"ok" or "do 1 and 3" before the tools ran names nothing a summary could keep."""
    from inspector.domain.facts_goals import IN_PROGRESS, GoalReading, read_replies
    from inspector.domain.logevents import LogEvent

    def cut_short(reply: str) -> list[str]:
        reading = GoalReading()
        read_replies([LogEvent(1, "user_message", "user", "Fix the export timeout."),
                      LogEvent(2, "assistant_message", "model", "Should I also add a retry?"),
                      LogEvent(3, "user_message", "user", reply),
                      LogEvent(4, "tool_call", "model", None, "Bash", "c1", {"command": "pytest"}),
                      LogEvent(5, "system_message", "system", "Conversation compacted",
                               extra={"subtype": "compact_boundary"})], reading)
        return [p.value for p in reading.proposals if p.rule == IN_PROGRESS]

    assert cut_short("ok") == [] and cut_short("do 1 and 3") == []
    assert cut_short("why does the export time out at all?") == ["why does the export time out at all?"]
