"""The goal proposed from a first request keeps what the request asks.

Cut at 280 characters with nothing marked, the real 7662d755ef9f goal ended "…can you help
me understand how this happend? again in" (the folder it named cut off), and a long pasted
context ending "Now say hello." (the Anthropic compaction recording's request) became a
goal that was all context and no request.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.domain.facts import extract
from inspector.domain.logevents import LogEvent

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"


def _goal(text: str) -> str:
    (goal,) = [f.value for f in extract([LogEvent(1, "user_message", "user", text)]) if f.kind == "goal"]
    return goal


def test_a_request_of_a_few_hundred_characters_is_the_goal_whole() -> None:
    text = ("let's go back to current code, I did another try and now I have multiple session in the metadata but "
            "also 4 commits on entire/sessions with the same checkpoint basically done at the same time, can you help "
            "me understand how this happend? again in /Users/soph/Work/entire/test/gemini_test")
    assert _goal(text) == text


def test_a_long_pasted_context_keeps_its_head_and_the_request_at_its_end() -> None:
    text = "Remember this context: " + "The quick brown fox jumps over the lazy dog. " * 300 + "Now say hello."
    goal = _goal(text)
    assert goal.startswith("Remember this context: The quick brown fox") and goal.endswith(" … Now say hello.")
    assert len(goal) <= 600


def test_one_endless_sentence_is_marked_as_cut() -> None:
    goal = _goal("fix " + "the thing and " * 100 + "done")
    assert goal.endswith(" …") and len(goal) <= 600


def test_the_real_first_request_keeps_its_folder() -> None:
    source = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    first = next(r for r in map(json.loads, source.read_text(encoding="utf-8").splitlines())
                 if r.get("type") == "user" and isinstance(r["message"]["content"], str))
    assert _goal(first["message"]["content"]).endswith("again in /Users/soph/Work/entire/test/gemini_test")
