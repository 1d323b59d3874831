"""An act into a store with a damaged page it does not touch is refused, nothing written
(storefault-ten; store-fault-six to storefault-nine left it: "a write into a store with a damaged
page the write does not touch still succeeds").

Before: a page of material chunks zeroed in the middle of the file, ``reject`` said "rejected"
(exit 0) — a green on a store ``verify`` calls damaged. Now the first act of each open runs
``quick_check`` first (store/page_check.py) and refuses ``damaged_store``, exit 3.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.store import page_check
from tests.test_format_upgrade_said import _folder


def _zero_a_chunk_page(store: Path) -> int:
    """Zero one page of the material chunks' table (no act of the samples touches it); its number."""
    with closing(sqlite3.connect(store)) as db:
        page = db.execute("SELECT max(pageno) FROM dbstat WHERE name = 'material_chunks' AND pagetype = 'leaf'"
                          ).fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    raw = bytearray(store.read_bytes())
    raw[(page - 1) * size: page * size] = bytes(size)
    store.write_bytes(bytes(raw))
    return int(page)


def test_an_act_into_a_store_with_a_damaged_page_is_refused_and_writes_nothing(sample_store: Path) -> None:
    _zero_a_chunk_page(sample_store)
    before = _folder(sample_store)
    done = CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "r", "--reviewer", "lin",
                                    "--json"])
    assert done.exit_code == 3, done.output
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "damaged_store"
    assert "damaged pages" in error["message"] and "nothing was written" in error["message"]
    assert f"inspector verify {sample_store}" in error["message"]
    assert _folder(sample_store) == before  # not a byte written, no -wal or -shm left
    verified = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert verified.exit_code == 1 and not json.loads(verified.stdout)["ok"]  # verify says it too


def _zero_a_page_of(store: Path, table: str) -> None:
    with closing(sqlite3.connect(store)) as db:
        page = db.execute("SELECT max(pageno) FROM dbstat WHERE name = ?", (table,)).fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    raw = bytearray(store.read_bytes())
    raw[(page - 1) * size: page * size] = bytes(size)
    store.write_bytes(bytes(raw))


def test_a_store_over_the_bound_checks_the_tables_an_act_writes(sample_store: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Changed on purpose (storefault-eleven): a file at or over CHECK_BELOW was written without any
    look. Now its act checks every table but the bulk ones (events, material chunks, search indexes)
    — a damaged page of the records refuses, nothing written, the refusal saying what was checked —
    and verify says which pages acts there leave to it."""
    _zero_a_page_of(sample_store, "state_records")
    before = _folder(sample_store)
    monkeypatch.setattr(page_check, "CHECK_BELOW", 1)
    done = CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "r", "--reviewer", "lin",
                                    "--json"])
    assert done.exit_code == 3, done.output
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "damaged_store" and "quick_check of the tables an act writes" in error["message"]
    assert "left to verify" in error["message"] and "nothing was written" in error["message"]
    assert _folder(sample_store) == before


def test_a_store_over_the_bound_leaves_the_bulk_pages_to_verify_and_verify_says_so(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound stays a bound: a damaged material chunk page (a bulk table) is not read per act there."""
    _zero_a_chunk_page(sample_store)
    monkeypatch.setattr(page_check, "CHECK_BELOW", 1)
    done = CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "r", "--reviewer", "lin"])
    assert done.exit_code == 0, done.output
    verified = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    report = json.loads(verified.stdout)
    assert verified.exit_code == 1 and not report["ok"]  # verify reads every page
    note = report["act_page_check"]
    assert "check the pages of the 13 tables they write (actions, candidates" in note and "ledger" in note
    assert "not the events', material chunks' or search indexes' pages" in note
    human = CliRunner().invoke(cli, ["verify", str(sample_store)])
    assert "left to verify" in human.output or "found by verify" in human.output, human.output


def test_a_store_under_the_bound_says_nothing_of_it(sample_store: Path) -> None:
    """Guard: the note is for large stores only."""
    verified = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert verified.exit_code == 0 and json.loads(verified.stdout)["act_page_check"] is None


async def test_the_app_says_the_damage_in_its_dialog_and_decides_nothing(sample_store: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's own first write (indexing the new events for search) meets the damage as it opens and
    says it; then ``a`` on a good candidate: the error dialog with the code, the candidate still
    pending, the file as it was (main: no word at all, then "accepted", ctx v5)."""
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle
    from tests.test_review_dialog import _review

    _zero_a_chunk_page(sample_store)
    before = sample_store.read_bytes()
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(180, 50)) as pilot:
        await settle(app, pilot)
        assert getattr(app.screen, "dialog_title", "") == "Cannot do that (damaged_store)", app.screen
        await pilot.press("escape")
        await settle(app, pilot)
        dialog = await _review(app, pilot, "cand-good")
        await pilot.press("a")
        await settle(app, pilot)
        assert "damaged_store" in getattr(app.screen, "dialog_title", ""), app.screen
        assert dialog.view is not None and dialog.view.validation.status == "pending"
    assert sample_store.read_bytes() == before
