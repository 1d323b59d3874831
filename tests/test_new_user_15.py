"""What a new reviewer who scripts the tool and shares its results tripped on (docs/reviews/new-user-15.md).

Each test failed on main 741fb54 before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import event_record, session_record, write_sif

AT = "2025-05-01T00:00:00Z"


def _run(*args: str, reviewer: str = "bob", as_json: bool = True) -> tuple[int, Any]:
    result = CliRunner().invoke(cli, [*args, *(["--json"] if as_json else [])], env={"INSPECTOR_REVIEWER": reviewer})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, (json.loads(result.stdout) if as_json else result.output)


def _store(tmp_path: Path) -> str:
    records = [session_record(), event_record(1, content="fix the export; never touch prod"),
               {"type": "state", "session": "s1", "key": "constraint.prod", "kind": "constraint",
                "value": "never touch prod", "sources": ["evt:1"], "writer": "user", "at": AT}]
    store = str(tmp_path / "a.db")
    assert _run("import", str(write_sif(tmp_path / "a.jsonl", records)), "--into", store)[0] == 0
    return store


def test_an_export_whose_confirmed_correction_imports_pending_says_so(tmp_path: Path) -> None:
    """A reviewer's correction the owner confirmed is exported with writer "reviewer"; imported into
    a second store it is pending again and its older version stays superseded, so the session has
    no active constraint at all. Before, the import said nothing of it (only `check` later called it
    "an instruction from an untrusted source"); now it is an `unverified_act` naming the key and the
    command that confirms it — and only for a record the import adds."""
    store = _store(tmp_path)
    assert _run("correct", store, "--session", "s1", "--key", "constraint.prod", "--value", "never touch prod DBs",
                "--reason", "wider")[0] == 0
    assert _run("confirm", store, "--session", "s1", "--key", "constraint.prod", reviewer="alice")[0] == 0
    out = str(tmp_path / "a.sif.jsonl")
    assert _run("export", store, "-o", out)[0] == 0
    code, report = _run("import", out, "--into", str(tmp_path / "b.db"))
    said = [p["message"] for p in report["problems"] if p["code"] == "unverified_act"]
    assert code == 0 and len(said) == 1, report["problems"]
    assert "'constraint.prod' v2 is active" in said[0] and "--key constraint.prod" in said[0]
    code, again = _run("import", out, "--into", store)  # the store that holds it keeps its own status
    assert code == 0 and not [p for p in again["problems"] if p["code"] == "unverified_act"]
