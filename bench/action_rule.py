"""How long the rules check takes over many tool calls (docs/benchmarks.md, Session 19: action-rule).

``python -m bench.action_rule [--calls N]`` builds N Bash calls (each command line distinct, as real
ones are) and lays the 20 rules of scripts/action_rule_survey.py over them, then prints, in one run,
the time to split every command line once and the time of the whole check, and their ratio: the
check reads each line once for all rules, so it stays a small multiple of splitting alone.
"""

from __future__ import annotations

import argparse
import random
import time

from inspector.domain.action_against_rule import acts_against_rules
from inspector.domain.logevents import LogEvent
from inspector.domain.shell_words import simple_commands
from inspector.domain.survival import Fact
from scripts.action_rule_survey import RULES

COMMANDS = ("git status", "ls -la", "go test ./... 2>&1 | tail -30", "cd x && git log --oneline -5",
            "grep -rn 'rm -rf' .", "mise run test && mise run lint", "cat <<'EOF' > f\ngit push origin main\nEOF",
            "git push origin feature", "rm -rf build", "bash -lc 'npm publish --dry-run'")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=10_000)
    calls = parser.parse_args().calls
    rng = random.Random(2)
    lines = [f"{rng.choice(COMMANDS)} # {i}" for i in range(calls)]
    events: list[LogEvent] = []
    for i, line in enumerate(lines):
        events.append(LogEvent(2 + 2 * i, "tool_call", "model", None, "Bash", f"c{i}", {"command": line},
                               at="2025-05-02T10:00:00Z"))
        events.append(LogEvent(3 + 2 * i, "tool_result", "tool", "ok", "Bash", f"c{i}"))
    facts = [Fact(f"constraint.r{i}", "constraint", r, "active", ("evt:1",), "user") for i, r in enumerate(RULES)]
    t = time.perf_counter()
    for line in lines:
        simple_commands(line)
    split = time.perf_counter() - t
    t = time.perf_counter()
    found = acts_against_rules(facts, events)
    whole = time.perf_counter() - t
    print(f"{calls:,} calls × {len(facts)} rules: split once {split:.2f} s, the check {whole:.2f} s "
          f"({whole / split:.1f}× splitting; {whole / (calls * len(facts)) * 1e6:.1f} µs per call and rule), "
          f"{len(found.hits):,} hits")


if __name__ == "__main__":
    main()
