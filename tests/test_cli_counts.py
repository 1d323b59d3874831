"""Import and export say their counts in words, and a problem without a line says no line.

``import`` printed "207 event, 2 material, 1 session, 8 state", and each problem of a file
read whole (an Inspect AI log: no lines) as "⚠ orphan_result (line None): …".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.counts import counted, counts_text
from inspector.cli.main import cli

REPO = Path(__file__).resolve().parent.parent
REAL = REPO.parent / "shared" / "real_sessions"


def test_counted_words() -> None:
    assert counts_text([("event", 207), ("material", 1), ("state", 8), ("summary", 2)]) == \
        "207 events, 1 material, 8 state records, 2 summaries"
    assert counted(1, "summary") == "1 summary" and counted(1_200, "event") == "1,200 events"
    assert counted(2, "deletion_request") == "2 deletion requests"


def test_import_and_export_say_plurals(tmp_path: Path) -> None:
    store, out = tmp_path / "s.db", tmp_path / "s.sif"
    result = CliRunner().invoke(cli, ["import", str(REPO / "sample_sessions" / "01_export_timeout.jsonl"),
                                      "--into", str(store), "--reviewer", "t"])
    assert result.exit_code == 0 and " events" in result.output and " event," not in result.output
    result = CliRunner().invoke(cli, ["export", str(store), "-o", str(out)])
    assert result.exit_code == 0 and " events" in result.output and " event," not in result.output


def test_a_problem_with_no_line_names_none(tmp_path: Path) -> None:
    source = REAL / "inspect-ai" / "log_tool_call_error.json"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(tmp_path / "s.db"), "--reviewer", "t"])
    assert result.exit_code == 0 and "⚠ orphan_result: event 1 is a tool result" in result.output
    assert "None" not in result.output


def test_a_json_document_cut_short_says_where_and_why(tmp_path: Path) -> None:
    source = tmp_path / "cut.conversation.json"
    source.write_text('{"kind": "anthropic", "messages": [{"role": "user", "content": "hel', encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(source), "--into", str(tmp_path / "s.db"), "--reviewer", "t"])
    assert result.exit_code == 3 and not (tmp_path / "s.db").exists()
    assert "is not valid JSON at column 64: unterminated string (the file ends before the document does" in result.output
    broken = tmp_path / "broken.conversation.json"
    broken.write_text('{"kind": "anthropic", "messages": [}', encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(broken), "--into", str(tmp_path / "s.db"), "--reviewer", "t"])
    assert result.exit_code == 3 and "is not valid JSON at column 36: expecting value" in result.output
    assert "cut short" not in result.output


def test_drift_says_where_a_record_outside_the_range_comes_from(tmp_path: Path) -> None:
    source = REAL / "claude-code" / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = tmp_path / "s.db"
    assert CliRunner().invoke(cli, ["import", str(source), "--into", str(store), "--reviewer", "t"]).exit_code == 0
    out = CliRunner().invoke(cli, ["drift", str(store), "--session", "0cf3db51-1c73-43bb-8d05-dc02739514a5"]).output
    assert "“commit this” verbatim in evt:4" in out
    assert ("“Run tests to verify the fix” in no event of the generation's range word for word "
            "(the record cites evt:115, evt:153, evt:202)") in out
    assert "no event in range" not in out
