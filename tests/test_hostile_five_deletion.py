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


def test_importing_the_file_again_does_not_undo_a_deletion(tmp_path: Path) -> None:
    """Before: the events a deletion removed came back with the next import of the file they
    were read from (a transcript still on disk, an export written before): `import` said
    "imported 2 events", the request stayed "done" and `deletion` listed the copies again."""
    events = _records()[:3] + [
        {"type": "event", "session": SID, "seq": 3, "kind": "assistant_message", "trust": "model", "at": AT,
         "content": f"noted {MAIL}"},
        {"type": "summary", "session": SID, "generation": 1, "text": f"user gave {MAIL}", "covers": [1, 3],
         "sources": ["evt:2"]}]
    store = tmp_path / "s.db"
    (tmp_path / "in").mkdir()
    source = write_sif(tmp_path / "in" / "events.jsonl", events)
    assert _run("import", str(source), "--into", str(store))[0] == 0
    assert _run("import", str(write_sif(tmp_path / "in" / "req.jsonl", _records()[3:])), "--into", str(store))[0] == 0
    code, doc = _run("delete", str(store), "del-1")
    assert code == 0 and doc["removed"] == 3, doc  # evt:2, evt:3 (a copy), the summary citing evt:2
    code, doc = _run("import", str(source), "--into", str(store))
    assert code == 0, doc
    problems = [p for p in doc["problems"] if p["code"] == "deleted_record"]
    assert len(problems) == 3 and all("del-1" in p["message"] for p in problems), doc["problems"]
    assert MAIL.encode() not in store.read_bytes()
    copies = _run("deletion", str(store), "del-1")[1]["copies"]
    assert [c for c in copies if c["where"] != "deletion_requests"] == [], copies  # type: ignore[index]
    assert _run("verify", str(store))[0] == 0


def test_the_listing_names_every_index_entry_it_removes(tmp_path: Path) -> None:
    """Before: a tool call whose arguments held the address, a thinking block holding it and a
    material were listed as the row alone; their call-input, thinking and material index entries
    (removed all the same) were not named in a listing that says it shows every copy."""
    records = _records()[:3] + [
        {"type": "event", "session": SID, "seq": 3, "kind": "assistant_message", "trust": "model", "at": AT,
         "content": "thinking done", "reasoning_content": f"the user's mail {MAIL} noted"},
        {"type": "event", "session": SID, "seq": 4, "kind": "tool_call", "trust": "model", "at": AT,
         "call_id": "c1", "tool": "send", "args": {"to": MAIL}},
        {"type": "material", "session": SID, "id": "res:1", "source_event": 4, "content": f"log: {MAIL}\n",
         "retrieved_at": AT, "disclosure_scope": "task", "media_type": "text/plain"},
        _records()[3]]
    store = str(tmp_path / "s.db")
    assert _run("import", str(write_sif(tmp_path / "t.jsonl", records)), "--into", store)[0] == 0
    listed = {(c["where"], c["id"]) for c in _run("deletion", store, "del-1")[1]["copies"]}  # type: ignore[index]
    assert {("calls_fts", "evt:4"), ("reasoning_fts", "evt:3"), ("materials_fts", "res:1")} <= listed, listed
