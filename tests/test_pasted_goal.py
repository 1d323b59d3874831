"""A pasted log is not the goal (verdict-thirteen, ee8f793b): the user's words up to the paste and its telling
line are; a summary retelling that line rewords the goal ("?"), one that drops the failure loses it (✗)."""

from __future__ import annotations

from inspector.domain.drift import GenerationText, StateFact, find_drift
from inspector.domain.facts_text import first_chunk

PASTED = ("I just tried to make a release with the .github/workflows/release.yml through go release and did run "
          "into this issue:  • sign & notarize macOS binaries\n    • signing                binary=dist/cli/entire\n"
          "      • took: 20m2s\n  ⨯ release failed after 22m5s                       error=notarize: macos: notarize "
          "dist/cli/entire: context deadline exceeded\nError: The process 'goreleaser' failed with exit code 1\n")
GOAL = ("I just tried to make a release with the .github/workflows/release.yml through go release and did run into "
        "this issue: ⨯ release failed after 22m5s")


def test_the_goal_is_the_ask_and_the_pasted_failure_line_not_the_log() -> None:
    assert first_chunk(PASTED) == GOAL
    only_log = "Traceback (most recent call last):\n  File \"a.py\", line 3\nValueError: bad"
    assert first_chunk(only_log) == " ".join(only_log.split())  # a message made only of a log keeps its head
    assert first_chunk("Fix the export timeout.\nIt is slow.") == "Fix the export timeout. It is slow."


def _codes(text: str) -> set[str]:
    gen = GenerationText(1, "recursive", text, (), ("evt:1",), (), (1, 2))
    return {f.code for f in find_drift(gen, [StateFact("goal.main", "goal", GOAL, "active", ("evt:1",), "user")])}


def test_a_summary_retelling_the_failure_rewords_the_goal_and_one_dropping_it_loses_it() -> None:
    assert _codes("The user pasted a failed release: notarization timed out (release failed after 22m5s).") \
        == {"goal_reworded"}
    assert "protected_missing" in _codes("Raised the notarize timeout to 45m in .goreleaser.yaml.")
    assert "protected_missing" in _codes("The release failed after 30m: notarization timed out.")  # another number
