"""``drift --strict`` and ``survival --strict``: the meaning and JSON shape of ``check --strict`` (flow-19).

A CI gate on one generation could fail only on ✗: a summary survival could not judge in full ("?")
passed, and the gate had to parse ``--json`` itself. With ``--strict`` the "?" exits 1 too, and the
document says so as check's does: a top-level ``"ok"`` (false exactly when it exits 1) and
``"strict": true``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import event_record, session_record, write_sif

REAL_CC = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
AUTO = REAL_CC / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
AUTO_SESSION = "198393f2-22db-477b-ac77-1825bea883ae"


def _json(*args: str) -> tuple[int, dict[str, Any]]:
    done = CliRunner().invoke(cli, [*args, "--json"])
    return done.exit_code, json.loads(done.stdout)


@pytest.mark.parametrize(("generation", "verdict"), [(1, "clear"), (2, "unknown"), (3, "failed")])
def test_survival_strict_fails_a_generation_not_judged_in_full(sample_store: Path, generation: int,
                                                                verdict: str) -> None:
    """The demo's s-export: generation 1 keeps every fact, 2 leaves one not restated and one not judged
    (check's ?), 3 loses two (✗)."""
    args = ("survival", str(sample_store), "--session", "s-export", "--generation", str(generation))
    plain_code, plain = _json(*args)
    strict_code, strict = _json(*args, "--strict")
    assert plain["verdict"] == strict["verdict"] == verdict
    assert plain_code == (1 if verdict == "failed" else 0) and plain["ok"] is (verdict != "failed")
    assert "strict" not in plain and strict["strict"] is True
    assert strict_code == (0 if verdict == "clear" else 1) and strict["ok"] is (verdict == "clear")
    assert strict["tally"] == plain["tally"]  # the report itself is the same
    text = CliRunner().invoke(cli, [*args, "--strict"])
    assert text.exit_code == strict_code
    said = text.output.rstrip().endswith("--strict: exit 1, 1 generation not judged in full")
    assert said is (verdict == "unknown"), text.output


def test_drift_strict_fails_a_clear_or_failed_generation_as_before(sample_store: Path) -> None:
    for generation, code in (("1", 0), ("3", 1)):
        args = ("drift", str(sample_store), "--session", "s-export", "--generation", generation)
        assert _json(*args)[0] == _json(*args, "--strict")[0] == code
        doc = _json(*args, "--strict")[1]
        assert doc["ok"] is (code == 0) and doc["strict"] is True


def test_drift_strict_fails_a_generation_drift_could_not_judge_in_full(imported_copy: Any) -> None:
    """A real Claude Code auto-compaction whose summary names what the log cannot confirm: drift says
    "unknown" and exits 0; with --strict it exits 1, and says why on its last line."""
    if not AUTO.exists():
        pytest.skip("the real transcripts (../shared/real_sessions) are not beside the project")
    store = imported_copy(AUTO)
    args = ("drift", str(store), "--session", AUTO_SESSION)
    code, plain = _json(*args)
    assert code == 0 and plain["verdict"] == "unknown" and plain["ok"] is True and "strict" not in plain
    code, strict = _json(*args, "--strict")
    assert code == 1 and strict["verdict"] == "unknown" and strict["ok"] is False and strict["strict"] is True
    text = CliRunner().invoke(cli, [*args, "--strict"])
    assert text.exit_code == 1 and text.output.rstrip().endswith("--strict: exit 1, 1 generation not judged in full")


def test_a_session_with_no_summary_passes_strict(tmp_path: Path) -> None:
    """Nothing to judge is no "?": check says clear for it, so do the two commands."""
    source = write_sif(tmp_path / "plain.jsonl", [session_record(), event_record(1)])
    store = tmp_path / "plain.db"
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store)]).exit_code == 0
    for command in ("drift", "survival"):
        code, doc = _json(command, str(store), "--session", "s1", "--strict")
        assert code == 0 and doc["ok"] is True and doc["verdict"] == "clear", (command, doc)


@pytest.mark.parametrize("command", ["drift", "survival"])
@pytest.mark.parametrize("bad", [("--session", "nope"), ("--session", "s-export", "--generation", "9")])
def test_strict_on_bad_input_exits_3_with_an_error_and_no_verdict(sample_store: Path, command: str,
                                                                  bad: tuple[str, ...]) -> None:
    code, doc = _json(command, str(sample_store), *bad, "--strict")
    assert code == 3 and set(doc) == {"error"}, doc
    assert doc["error"]["code"] == "not_found"

