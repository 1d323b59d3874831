"""Deletion requests: every copy found, every copy removed, a tombstone left, verify still passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import deletions, exporting
from inspector.services.expanding import expand
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.sessions import get_session, session_ledger
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


async def test_privacy_request_covers_every_copy(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        cov = await deletions.check(store, "del-1")
    assert [(c.where, c.id) for c in cov.copies] == [
        ("events", "evt:4"), ("events_fts", "evt:4"), ("materials", "res:contact-9"), ("summaries", "gen:1"),
        ("candidates", "cand-pii"), ("materials_fts", "res:contact-9"), ("deletion_requests", "del-1")]


async def test_carrying_it_out_leaves_no_content_and_a_verifiable_store(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        result = await deletions.delete(store, "del-1", actor="zhou")
        assert result.removed == {"event": 1, "material_bytes": 1, "summary": 1, "candidate": 1}
        assert (await search(store, "s-privacy", "138-0013")).hits == []
        assert (await search(store, "s-privacy", "文三路")).hits == []  # the address, which only the material held
        refused = await expand(store, "stub-contact", actor="zhou", scopes=("private",))
        assert [r.code for r in refused.refusals] == ["deleted"]
        entry = (await session_ledger(store, "s-privacy"))[-1]
        dumped = json.dumps(entry, ensure_ascii=False)  # no part of the phone number (hex digests may hold "138")
        assert entry["kind"] == "deletion" and "138-0013" not in dumped and "0013-8000" not in dumped
        assert (await get_session(store, "s-privacy")).context_version == 2
        assert (await verify_store(store)).ok
        again = await deletions.delete(store, "del-1", actor="zhou")
        assert [r.code for r in again.refusals] == ["already_decided"]


async def test_a_repeated_sensitive_value_is_found_without_a_citation(tmp_path: Path) -> None:
    records = [
        session_record(),
        {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "content": "call me at 138-0013-8000"},
        {"type": "summary", "session": "s1", "generation": 1, "text": "user's phone is 138-0013-8000", "sources": []},
        {"type": "summary", "session": "s1", "generation": 2, "text": "nothing personal", "sources": []},
        {"type": "deletion_request", "session": "s1", "id": "d", "targets": ["evt:1"]},
    ]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    async with await open_store(store) as opened:
        cov = await deletions.check(opened, "d")
    assert ("summaries", "gen:1") in [(c.where, c.id) for c in cov.copies]
    assert ("summaries", "gen:2") not in [(c.where, c.id) for c in cov.copies]


async def test_deleting_an_imported_event_removes_the_original_transcript(tmp_path: Path) -> None:
    src = tmp_path / "chat.json"
    src.write_text(json.dumps([{"role": "user", "content": "my email is a@b.example"},
                               {"role": "assistant", "content": "noted"}]), encoding="utf-8")
    store = tmp_path / "s.db"
    await import_file(src, store, actor="t")
    await import_file(write_sif(tmp_path / "d.jsonl", [{"type": "deletion_request", "session": "chat", "id": "d",
                                                        "targets": ["evt:1"]}]), store, actor="t")
    async with await open_store(store) as opened:
        cov = await deletions.check(opened, "d")
        assert ("original", "original:chat.json") in [(c.where, c.id) for c in cov.copies]
        await deletions.delete(opened, "d", actor="t")
        try:
            await exporting.export_original(opened, "chat", tmp_path / "back.json")
            raise AssertionError("the original should be gone")
        except Exception as gone:  # noqa: BLE001 - NotFound, checked by message
            assert "deleted" in str(gone)
        assert (await verify_store(opened)).ok


def test_cli(sample_store: Path) -> None:
    run = CliRunner().invoke
    out = run(cli, ["deletion", str(sample_store), "del-1", "--json"])
    assert out.exit_code == 0 and len(json.loads(out.stdout)["copies"]) == 7
    out = run(cli, ["delete", str(sample_store), "del-1", "--reviewer", "zhou", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["status"] == "done"
    assert run(cli, ["delete", str(sample_store), "del-1", "--reviewer", "zhou"]).exit_code == 1
    assert run(cli, ["deletion", str(sample_store), "nope"]).exit_code == 3
    assert run(cli, ["verify", str(sample_store)]).exit_code == 0


@pytest.mark.parametrize("backend", ["sqlite"])  # the app on PostgreSQL: tests/test_live_store.py
async def test_deletions_tab_confirm_and_carry_out(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import Input, Static

    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import ConfirmDeletion, DeletionDialog
    from inspector.ui.main_screen import MainScreen
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "zhou")
    app = InspectorApp(sample_store, session="s-privacy")
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DeletionDialog)
        assert "cand-pii" in str(dialog.query_one("#deletion-text", Static).render())
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDeletion)
        app.screen.query_one(Input).value = "wrong"
        await pilot.press("enter")
        await settle(app, pilot)
        assert dialog.coverage.status == "pending"  # a wrong id deletes nothing
        await pilot.press("x")
        await settle(app, pilot)
        app.screen.query_one(Input).value = "del-1"
        await pilot.press("enter")
        await settle(app, pilot)
        assert dialog.coverage.status == "done"
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        app.screen.check_for_changes()  # the live watch's next look: this window's own deletion is no news
        await settle(app, pilot)
        assert [n.title for n in app._notifications if n.title == "Changed elsewhere"] == []


async def test_escape_in_the_deletion_confirmation_says_cancelled_not_a_wrong_id(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Escape said "Not deleted: the id did not match." — as if the reviewer had mistyped."""
    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import ConfirmDeletion, DeletionDialog
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "zhou")
    app = InspectorApp(sample_store, session="s-privacy")
    said: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, DeletionDialog)
        monkeypatch.setattr(dialog, "notify", lambda message, **_: said.append(str(message)))
        await pilot.press("x")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDeletion)
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is dialog and dialog.coverage is not None and dialog.coverage.status == "pending"
        assert said == ["Not deleted: cancelled."]


async def test_a_dialog_whose_read_fails_says_so_instead_of_loading_for_ever(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The error reached the error dialog, but the dialog behind it went on saying "finding copies…"."""
    from textual.widgets import Static

    from inspector.domain.errors import InspectorError
    from inspector.ui import deletion_dialog
    from inspector.ui.app import InspectorApp
    from inspector.ui.deletion_dialog import DeletionDialog
    from inspector.ui.dialogs import MessageDialog
    from tests.test_app import settle

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise InspectorError("the store went away", code="store_unreachable")

    monkeypatch.setenv("INSPECTOR_REVIEWER", "zhou")
    monkeypatch.setattr(deletion_dialog.deletions, "check", broken)
    app = InspectorApp(sample_store, session="s-privacy")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("x", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and "store_unreachable" in app.screen.dialog_title
        await pilot.press("escape")
        await settle(app, pilot)
        assert isinstance(app.screen, DeletionDialog)
        text = str(app.screen.query_one("#deletion-text", Static).render())
        assert "finding copies" not in text and "Could not be read: the store went away" in text
