"""`check` as a CI gate on drift: the demo's drifted summaries fail it, a reviewer's fixes pass it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

NEW_CODES = {"open_issue_claimed_done", "decision_reversed", "untrusted_in_summary"}


def _drift(store: str) -> tuple[int, dict[str, set[str]]]:
    out = CliRunner().invoke(cli, ["check", store, "--only", "drift", "--json"])
    doc = json.loads(out.stdout)
    assert all(s["checks_run"] == ["drift"] for s in doc["sessions"])
    return out.exit_code, {s["session"]: {d["code"] for d in s["drift"]} for s in doc["sessions"]}


def test_check_lists_the_new_findings_and_passes_after_the_reviewer_fixes_them(sample_store: Path) -> None:
    store = str(sample_store)
    code, found = _drift(store)
    assert code == 1 and NEW_CODES <= set().union(*found.values())
    run = CliRunner().invoke
    # s-export: the good candidate becomes the summary in use; s-injected: a generation rebuilt from the log.
    assert run(cli, ["accept", store, "cand-good", "--reviewer", "lin"]).exit_code == 0
    for session, codes in found.items():
        if codes and session != "s-export":
            assert run(cli, ["rebuild", store, "--session", session, "--reviewer", "sam"]).exit_code == 0
    code, found = _drift(store)
    assert (code, {s: c for s, c in found.items() if c}) == (0, {})
    assert run(cli, ["verify", store]).exit_code == 0


def test_check_refuses_an_unknown_session_or_check(sample_store: Path) -> None:
    run = CliRunner().invoke
    assert run(cli, ["check", str(sample_store), "--session", "nope"]).exit_code == 3
    assert run(cli, ["check", str(sample_store), "--only", "vibes"]).exit_code == 2


def test_each_drift_line_of_check_says_what_drifted(sample_store: Path) -> None:
    """A reviewer reading `check` in a CI log sees the finding's sentence, not a bare code and a
    key that may be absent ("drift source_outside_range [None]" before)."""
    out = CliRunner().invoke(cli, ["check", str(sample_store), "--only", "drift"])
    doc = json.loads(CliRunner().invoke(cli, ["check", str(sample_store), "--only", "drift", "--json"]).stdout)
    findings = [d for s in doc["sessions"] for d in s["drift"]]
    assert findings and out.exit_code == 1
    lines = [line for line in out.stdout.splitlines() if line.lstrip().startswith("drift ")]
    assert len(lines) == len(findings) and "None" not in out.stdout
    for line, finding in zip(lines, findings, strict=True):
        assert finding["code"] in line and finding["message"] in line
