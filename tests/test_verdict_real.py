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
    assert not any(map(greeting, ["hello, can you fix the build?", "Hey, deploy it", "good", "Hi Claude",
                                  "Hello! Never touch the prod database."]))
