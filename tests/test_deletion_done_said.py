"""``deletion`` of a request already carried out says so, as the app's Deletions tab does (review-15).

Before, ``inspector deletion s.db del-1`` after ``delete`` said "del-1 (done) …: 1 cop(ies) to
remove — deletion_requests del-1 its reason text" (the reason was digested by the deletion
itself) and "(not found: evt:2 — already deleted, or never stored)", while the app said "done:
only the ledger's tombstone remains". And the where column was 12 cells wide, so
"deletion_requests" pushed its row's id out of line with the others."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_request_deletion import _store


def _run(*args: str) -> str:
    done = CliRunner().invoke(cli, list(args))
    assert done.exit_code == 0, done.output
    return done.stdout


def test_a_done_request_lists_nothing_to_remove(tmp_path: Path) -> None:
    store = str(_store(tmp_path))
    _run("request-deletion", store, "--session", "s1", "evt:2", "--reason", "asked", "--reviewer", "bob")
    copies = json.loads(_run("deletion", store, "del-1", "--json"))["copies"]
    assert "deletion_requests" in [c["where"] for c in copies]
    rows = _run("deletion", store, "del-1").splitlines()[1:1 + len(copies)]
    starts = {row.index(" " + c["id"] + " ") for row, c in zip(rows, copies, strict=True)}
    assert len(starts) == 1, rows  # every row's id starts in the same column
    _run("delete", store, "del-1", "--reviewer", "bob")
    assert json.loads(_run("deletion", store, "del-1", "--json"))["copies"] == []
    text = _run("deletion", store, "del-1")
    assert text.startswith("del-1 (done) in s1: carried out, only the ledger's tombstone remains\n"), text
    assert "to remove" not in text.split("not checked")[0] and "(gone: evt:2" in text
