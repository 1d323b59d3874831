"""The shared report says a deletion is pending, and what it still has to remove.

A teammate who never ran the tool read the page and learnt nothing of a filed request: the
report had no deletions section (review-15), though the app's Deletions tab and `deletion`
showed it. It lists each request's state and copy count, never the values it looks for."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli


def _report(store: Path, *args: str) -> str:
    out = CliRunner().invoke(cli, ["report", str(store), "--session", "s-privacy", *args])
    assert out.exit_code == 0, out.output
    return out.stdout


def test_a_pending_request_is_in_the_report(sample_store: Path, tmp_path: Path) -> None:
    doc = json.loads(_report(sample_store, "--json"))
    (item,) = doc["deletions"]
    assert item["request"] == "del-1" and item["status"] == "pending" and len(item["copies"]) == 7
    page = tmp_path / "r.html"
    _report(sample_store, "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<a href="#deletions">Deletions</a>' in html
    assert "<code>del-1</code> · pending · 7 copies to remove" in html


def test_a_carried_out_request_is_said_as_done(sample_store: Path, tmp_path: Path) -> None:
    done = CliRunner().invoke(cli, ["delete", str(sample_store), "del-1", "--reviewer", "ana"])
    assert done.exit_code == 0, done.output
    page = tmp_path / "r.html"
    _report(sample_store, "-o", str(page))
    assert "<code>del-1</code> · carried out: only the ledger&#x27;s tombstone remains" in page.read_text(
        encoding="utf-8")
