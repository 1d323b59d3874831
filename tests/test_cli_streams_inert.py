"""Streamed CLI output (follow's JSON lines, regress's progress) shows content without handing a terminal anything to obey."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.terminal_safe import is_terminal_safe
from tests.conftest import event_record, session_record

HOSTILE = "8-bit CSI \x9b2J, OSC \x9d0;title\x9c, RLO \u202eexe.txt, zero\u200bwidth, line\u2028sep, ESC \x1b]52;c;eA==\x07"


def test_follow_lines_keep_exact_strings_and_carry_no_raw_control(tmp_path: Path) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    lines = [{"type": "header", "format": "sif/1"}, session_record(), event_record(1, content=HOSTILE)]
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    result = CliRunner().invoke(cli, ["follow", str(src), "--into", str(db), "--once", "--reviewer", "t"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert is_terminal_safe(out.replace("\n", "")), "a C1 control, bidi override or invisible character printed raw"
    assert json.loads(out.splitlines()[0])["content"] == HOSTILE


def test_regress_progress_lines_show_a_hostile_session_id_inert(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[1] / "sample_sessions" / "regress" / "01_prod_db_constraint.jsonl"
    evil = "reg-\x1b]0;PWNED\x07-\x9b2J-\u202e"
    case = tmp_path / f"case{evil}.jsonl"  # a case is named by its file (a folder someone else wrote)
    case.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["regress", str(case), "--summarizer", "keep-all"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "case" in result.stderr and "generation" in result.stderr
    assert "\x1b" not in result.stderr and is_terminal_safe(result.stderr.replace("\n", ""))
