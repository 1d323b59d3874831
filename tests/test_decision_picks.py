"""A reply that picks several of the offered options decides each of them.

In the real Claude Code transcript ``995ebed6e4`` the assistant lists four places to add
``logging.WithAgent`` and the user answers "Implement 1,2 and 3." (line 153). Only "1" was
read: the decision was option 1 and options 2 and 3 — which the user had just chosen — were
recorded as the alternatives set aside. A protected record that says the opposite of what
the person said is worse than none.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.facts import extract
from inspector.domain.logevents import LogEvent
from inspector.services.importing import import_file

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"
OFFER = ("Here's where we should add it:\n\n**1. `hook_registry.go:153`** - Best place\n"
         "**2. `hooks_claudecode_handlers.go`** - Multiple handlers\n**3. `hooks_git_cmd.go:31`** - Git hooks\n"
         "**4. `strategy/` files** - optional\n\nWould you like me to implement these changes?")


def _decisions(reply: str, offer: str = OFFER) -> list[tuple[str, list[str]]]:
    facts = extract([LogEvent(1, "user_message", "user", "add the agent name to logging"),
                      LogEvent(2, "assistant_message", "model", offer),
                      LogEvent(3, "user_message", "user", reply)])
    return [(f.value, f.alternatives) for f in facts if f.kind == "decision"]


def test_three_picked_options_are_three_decisions_and_only_the_fourth_is_set_aside() -> None:
    decisions = _decisions("Implement 1,2 and 3.")
    assert [value for value, _ in decisions] == [
        "`hook_registry.go:153` - Best place", "`hooks_claudecode_handlers.go` - Multiple handlers",
        "`hooks_git_cmd.go:31` - Git hooks"]
    assert all(alternatives == ["`strategy/` files - optional"] for _, alternatives in decisions)


@pytest.mark.parametrize(("reply", "picked"), [
    ("go with 1 and 3", [1, 3]),
    ("do 2 & 4", [2, 4]),
    ("Let's do option 1, option 2", [1, 2]),
    ("1 and 2 first", [1, 2]),
    ("go with 2", [2]),
    ("go with 2.", [2]),
])
def test_lists_of_numbers(reply: str, picked: list[int]) -> None:
    labels = {"`hook_registry.go:153` - Best place": 1, "`hooks_claudecode_handlers.go` - Multiple handlers": 2,
              "`hooks_git_cmd.go:31` - Git hooks": 3, "`strategy/` files - optional": 4}
    assert [labels[value] for value, _ in _decisions(reply)] == picked


def test_a_letter_in_a_sentence_is_not_a_second_pick() -> None:
    offer = "Option A: stream the export; Option B: paginate it; Option C: raise the timeout."
    assert [v for v, _ in _decisions("go with B and a small refactor", offer)] == ["paginate it"]
    assert [v for v, _ in _decisions("go with A and C", offer)] == ["stream the export", "raise the timeout"]


def test_chinese_lists_of_options() -> None:
    offer = "方案一：流式导出；方案二：分页导出；方案三：调大超时。"
    assert [v for v, _ in _decisions("选方案一和三", offer)] == ["流式导出", "调大超时"]


def test_the_real_reply_in_995ebed6e4(tmp_path: Path) -> None:
    source = REAL / "995ebed6e4-2__two_records_on_one_line_v2.1.7.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = tmp_path / "s.db"
    report = asyncio.run(import_file(source, store, actor="tester"))
    result = CliRunner().invoke(cli, ["facts", str(store), "--session", report.sessions[0], "--json"])
    decisions = [(p["value"], p["alternatives"]) for p in json.loads(result.output) if p["kind"] == "decision"]
    assert len(decisions) == 3 and all(value.startswith(("`hook_registry", "`hooks_claudecode", "`hooks_git_cmd"))
                                       for value, _ in decisions)
    assert all(alternatives == ["`strategy/` files - These are strategy operations, agent context is optional."]
               for _, alternatives in decisions)
