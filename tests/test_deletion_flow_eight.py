"""Deletion requests, as a reviewer and a CI reader meet them (flow-eight; review-15 items 1, 4-6).

``check`` said nothing of a pending request (what is about to be removed); the request dialog's
preview said "covers 21 copies" and the filed request 22 (its own reason text); a done
request's dialog kept the list read before ``x``; ``deletion`` of a request whose target another
request removed said "not found … already deleted, or never stored" while the ledger knew which
entry deleted it; and the CLI said "cop(ies)".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import deletion_requests, deletions
from inspector.store.connection import open_store


def run(*args: str) -> tuple[int, str]:
    got = CliRunner().invoke(cli, list(args))
    return got.exit_code, got.output


def test_check_lists_pending_deletion_requests_and_not_done_ones(sample_store: Path) -> None:
    store = str(sample_store)
    code, plain = run("check", store, "--session", "s-privacy")
    assert "deletion request del-1 pending" in plain and "evt:4, res:contact-9" in plain, plain
    assert f"inspector deletion {store} del-1 --session s-privacy" in plain and "(s)" not in plain, plain
    doc = json.loads(run("check", store, "--session", "s-privacy", "--json")[1])
    [listed] = doc["sessions"][0]["pending_deletion_requests"]
    assert listed == {"request": "del-1", "targets": ["evt:4", "res:contact-9"], "reason_code": "other",
                      "requested_by": "user"}
    assert run("delete", store, "del-1", "--reviewer", "zhou")[0] == 0
    after = run("check", store, "--session", "s-privacy")
    assert after[0] == code and "deletion request" not in after[1]  # the exit code never depends on it


async def test_the_preview_counts_the_copies_the_filed_request_lists(sample_store: Path) -> None:
    async with await open_store(sample_store) as opened:
        looked = await deletion_requests.preview(opened, "s-privacy", ["evt:3"])
        filed = await deletion_requests.file_request(opened, "s-privacy", ["evt:3"], "asked by the customer",
                                                     actor="zhou")
        cov = await deletions.check(opened, filed.request, "s-privacy")
    assert len(looked.coverage.copies) == len(cov.copies)
    assert [c.where for c in looked.coverage.copies] == [c.where for c in cov.copies]


def test_a_request_whose_target_another_deleted_names_the_ledger_entry(sample_store: Path) -> None:
    store = str(sample_store)
    for reason in ("first ask", "second ask"):
        assert run("request-deletion", store, "evt:3", "--session", "s-privacy", "--reason", reason,
                   "--reviewer", "zhou")[0] == 0
    assert run("delete", store, "del-2", "--reviewer", "zhou")[0] == 0
    ledger = json.loads(run("ledger", store, "--json")[1])
    entry = [e["seq"] for e in ledger if e["kind"] == "deletion"][-1]
    _, plain = run("deletion", store, "del-3")
    assert f"(gone: evt:3 — deleted by ledger entry L{entry}, request del-2)" in plain, plain
    assert "nothing left to remove" in plain and "cop(ies)" not in plain and "not found" not in plain, plain
    doc = json.loads(run("deletion", store, "del-3", "--json")[1])
    assert doc["gone_by"] == {"evt:3": {"ledger": entry, "request": "del-2"}}
    _, done = run("deletion", store, "del-2")
    assert f"deleted by ledger entry L{entry}, this request" in done, done
    _, deleted = run("delete", store, "del-3", "--reviewer", "zhou")
    assert f"deleted by ledger entry L{entry}, request del-2" in deleted, deleted


def test_the_deletion_listing_says_copies_in_proper_plurals(sample_store: Path) -> None:
    _, plain = run("deletion", str(sample_store), "del-1")
    assert "del-1 (pending) in s-privacy: 7 copies to remove" in plain and "(ies)" not in plain, plain


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_a_carried_out_request_dialog_speaks_in_the_past_tense(sample_store: Path, backend: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Input, Static

    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import DeletionDialog
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "zhou")
    app = InspectorApp(sample_store, session="s-privacy")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DeletionDialog)
        await pilot.press("x")
        await settle(app, pilot)
        app.screen.query_one(Input).value = "del-1"
        await pilot.press("enter")
        await settle(app, pilot)
        text = str(dialog.query_one("#deletion-text", Static).render())
        assert "(done) · carried out" in text and "✕" not in text, text
        assert "deleted by ledger entry L" in text and "this request" in text, text
