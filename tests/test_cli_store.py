"""The store commands through the real CLI: JSON shapes, exit codes, no tracebacks."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import SAMPLES, event_record, file_sha, session_record, write_sif


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output + (result.stderr or "")
    return result.exit_code, result.stdout, result.stderr


def test_sessions_without_a_store_lists_the_demo() -> None:
    code, out, _ = run("sessions", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) >= 6
    assert set(rows[0]) >= {"id", "title", "context_version", "goal_revision", "events"}


def test_python_dash_m_works() -> None:
    out = subprocess.run([sys.executable, "-m", "inspector", "--help"], capture_output=True, text=True, check=True)
    assert "sessions" in out.stdout and "verify" in out.stdout


def test_import_export_verify_ledger_round_trip(tmp_path: Path) -> None:
    store = str(tmp_path / "s.db")
    code, out, _ = run("import", str(SAMPLES["01_export_timeout"]), "--into", store, "--json")
    report = json.loads(out)
    assert code == 0 and report["sessions"] == ["s-export"] and report["events"] == 11
    assert {p["code"] for p in report["problems"]} == {"orphan_result"}
    code, out, _ = run("export", store, "--session", "s-export", "-o", str(tmp_path / "out.jsonl"), "--json")
    assert code == 0 and json.loads(out)["records"]["event"] == 11
    code, out, _ = run("verify", store, "--json")
    verified = json.loads(out)
    assert code == 0 and verified["ok"] and verified["entries"] == 2 and verified["first_break"] is None
    assert verified["problems"] == [] and verified["head"]["seq"] == 2 and len(verified["head"]["hash"]) == 64
    code, out, _ = run("ledger", store, "--session", "s-export", "--json")
    entries = json.loads(out)
    assert [e["kind"] for e in entries] == ["harness.compaction", "import"]
    assert all(set(e) >= {"seq", "kind", "actor", "at", "payload", "hash"} for e in entries)


def test_verify_exits_1_after_a_ledger_edit(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    run("import", str(SAMPLES["02_orders_handoff"]), "--into", str(store))
    con = sqlite3.connect(store)
    con.execute("DROP TRIGGER ledger_no_update")
    con.execute("UPDATE ledger SET actor = 'mallory' WHERE seq = 1")
    con.commit()
    con.close()
    code, out, _ = run("verify", str(store), "--json")
    assert code == 1 and json.loads(out)["first_break"]["seq"] == 1


BAD_FILES = {
    "malformed": ['{"type":"header","format":"sif/1"}', '{"type":"session",'],
    "unknown_type": ['{"type":"header","format":"sif/1"}', '{"type":"session","id":"s9"}', '{"type":"memo"}'],
    "format": ['{"type":"header","format":"sif/0"}'],
    "hash": ['{"type":"header","format":"sif/1"}', '{"type":"session","id":"s9"}',
             '{"type":"material","session":"s9","id":"m","content":"x","content_hash":"sha256:00"}'],
    "conflict": ['{"type":"header","format":"sif/1"}', '{"type":"session","id":"s-export","title":"other"}'],
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_input_exits_3_names_the_line_and_changes_nothing(tmp_path: Path, name: str) -> None:
    store = tmp_path / "s.db"
    run("import", str(SAMPLES["01_export_timeout"]), "--into", str(store))
    before = file_sha(store)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(BAD_FILES[name]) + "\n", encoding="utf-8")
    code, out, err = run("import", str(bad), "--into", str(store), "--json")
    assert code == 3
    assert "line " in err and "line" in json.loads(out)["error"]
    assert file_sha(store) == before
    if name != "conflict":  # a conflict needs the stored session; the others fail on their own
        code, _, _ = run("import", str(bad), "--into", str(tmp_path / "fresh.db"))
        assert code == 3 and not (tmp_path / "fresh.db").exists()


@pytest.mark.parametrize("target", ["missing.db", "notastore.txt", "other.sqlite"])
def test_things_that_are_not_stores_exit_3(tmp_path: Path, target: str) -> None:
    (tmp_path / "notastore.txt").write_text("hello")
    con = sqlite3.connect(tmp_path / "other.sqlite")
    con.execute("CREATE TABLE t(x)")
    con.close()
    code, _, err = run("verify", str(tmp_path / target))
    assert code == 3 and err.startswith("error: ")


def test_newer_store_format_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    run("import", str(SAMPLES["04_injected_rule"]), "--into", str(store))
    con = sqlite3.connect(store)
    con.execute("PRAGMA user_version = 99")
    con.close()
    code, out, _ = run("sessions", str(store), "--json")
    assert code == 3 and json.loads(out)["error"]["code"] == "unknown_format_version"


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert run("import", "x.jsonl")[0] == 2  # --into is required
    assert run("ledger", str(tmp_path / "s.db"), "--limit", "0")[0] == 2


def test_unknown_session_is_bad_input(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)])
    run("import", str(tmp_path / "a.jsonl"), "--into", str(store))
    code, _, err = run("export", str(store), "--session", "nope", "-o", str(tmp_path / "o.jsonl"))
    assert code == 3 and "nope" in err and not (tmp_path / "o.jsonl").exists()


def test_check_reports_every_kind_of_problem(sample_store: Path) -> None:
    code, out, _ = run("check", str(sample_store), "--json")
    assert code == 1
    by_session = {s["session"]: s for s in json.loads(out)["sessions"]}
    assert [p["code"] for p in by_session["s-export"]["protocol"]] == ["orphan_result"]
    assert {d["code"] for d in by_session["s-export"]["drift"]} == {
        "protected_missing", "open_issue_closed", "open_issue_claimed_done", "decision_reversed"}
    assert {c["candidate"] for c in by_session["s-export"]["candidates"]} >= {"cand-stale", "cand-space"}
    assert {h["handoff"] for h in by_session["s-orders"]["handoffs"]} == {"h-writeoff", "h-tools"}
    assert by_session["s-bigfold"]["ok"] is True
    assert by_session["s-export"]["verdict"] == "failed" and json.loads(out)["verdict"] == "failed"


def test_check_passes_on_a_clean_store(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)])
    run("import", str(tmp_path / "a.jsonl"), "--into", str(store))
    code, out, _ = run("check", str(store), "--json")
    assert code == 0 and json.loads(out)["ok"] is True and json.loads(out)["verdict"] == "clear"
    code, out, _ = run("check", str(store))
    assert code == 0 and out.splitlines()[-1].startswith("1 session: 1 ✓ clear, 0 ? not judged")
