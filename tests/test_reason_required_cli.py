"""The CLI asks for what the app's dialogs ask for (review-15).

The correction, summary-correction and review dialogs refuse an empty reason ("A correction
needs a reason."), but ``correct --reason ''``, ``correct-summary --reason '  '`` and ``reject
--reason ''`` wrote their act ("rejected cand-x: "), and ``correct --value ''`` filed the goal
"" as a pending proposal. Now each is a refusal with a code, exit 3, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


def _cases(tmp_path: Path) -> dict[str, list[str]]:
    text = tmp_path / "t.txt"
    text.write_text("a corrected summary\n", encoding="utf-8")
    return {
        "correct-reason": ["correct", "--session", "s-export", "--key", "goal.main", "--value", "x", "--reason", ""],
        "correct-value": ["correct", "--session", "s-export", "--key", "goal.main", "--value", "  ", "--reason", "r"],
        "correct-summary": ["correct-summary", "--session", "s-export", "--generation", "3", "--text-file", str(text),
                            "--reason", "  "],
        "reject": ["reject", "cand-good", "--session", "s-export", "--reason", ""],
    }


@pytest.mark.parametrize("case", ["correct-reason", "correct-value", "correct-summary", "reject"])
def test_an_empty_reason_or_value_writes_nothing(sample_store: Path, tmp_path: Path, case: str) -> None:
    args = _cases(tmp_path)[case]
    before = sample_store.read_bytes()
    out = CliRunner().invoke(cli, [args[0], str(sample_store), *args[1:], "--reviewer", "lin", "--json"])
    assert out.exit_code == 3, out.output
    code = json.loads(out.stdout)["error"]["code"]
    assert code == ("value_required" if case == "correct-value" else "reason_required")
    assert sample_store.read_bytes() == before
