"""Fifth hostile round, deletion (docs/reviews/untrusted-five.md): copies a deletion left unnamed.

Each test fails on the code before its fix: the store's folder held a copy the deletion's
warnings did not name, while its "not checked" list said exports in that folder are read.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
SID = "s-five"
MAIL = "zq7victim@example.org"


def _records() -> list[dict[str, object]]:
    return [
        {"type": "session", "id": SID, "title": "plain", "owner": "o", "created_at": AT},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
         "content": "hello"},
        {"type": "event", "session": SID, "seq": 2, "kind": "user_message", "trust": "user", "at": AT,
         "content": f"my mail is {MAIL} ok"},
        {"type": "deletion_request", "session": SID, "id": "del-1", "targets": ["evt:2"], "reason": "gdpr"},
    ]


def _run(*args: str) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(cli, [*args, "--json"], env={"INSPECTOR_REVIEWER": "o"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def test_an_export_beside_the_store_is_named_whatever_its_name(tmp_path: Path) -> None:
    """Before: only *.html, *.jsonl and *.json were read, so `export -o before.sif` (the format's
    own name), `-o backup` and a report saved as `review.htm.txt` kept the address unnamed."""
    (tmp_path / "in").mkdir()
    store = str(tmp_path / "s.db")
    assert _run("import", str(write_sif(tmp_path / "in" / "t.jsonl", _records())), "--into", store)[0] == 0
    for name in ("before.sif", "backup"):
        assert CliRunner().invoke(cli, ["export", store, "-o", str(tmp_path / name)]).exit_code == 0
    assert CliRunner().invoke(cli, ["report", store, "--session", SID, "-o", str(tmp_path / "r.html")]).exit_code == 0
    (tmp_path / "r.html").rename(tmp_path / "review.htm.txt")
    (tmp_path / "notes.txt").write_text(f"unrelated {MAIL[:5]}", encoding="utf-8")  # a file of another kind: not read
    code, doc = _run("delete", store, "del-1")
    assert code == 0 and doc["status"] == "done"
    named = [w for w in doc["warnings"] if w.startswith("files beside the store")]  # type: ignore[union-attr]
    assert len(named) == 1, doc["warnings"]
    for name in ("before.sif", "backup", "review.htm.txt"):
        assert name in named[0], (name, named[0])
    assert "notes.txt" not in named[0] and "s.db" not in named[0]
