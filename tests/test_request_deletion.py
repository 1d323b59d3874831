"""Filing a deletion request from the command line (flow-seven, item 1).

Before, a request could only come from a sif/1 ``deletion_request`` record: a reviewer who
found a secret had no way to ask for its removal. ``request-deletion`` files one (a pending
row, one ledger entry holding ids and a keyed digest of the reason), refuses unknown targets
with a code and writes nothing, and ``deletion`` / ``delete`` take it from there."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import session_record, write_sif

SECRET = "call me at 13800138000 about it"


def _records() -> list[dict[str, Any]]:
    return [
        session_record("s1", title="fix the export"),
        {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "content": "fix the export",
         "trust": "user", "at": "2025-05-01T00:00:00Z"},
        {"type": "event", "session": "s1", "seq": 2, "kind": "user_message", "content": SECRET,
         "trust": "user", "at": "2025-05-01T00:01:00Z"},
        {"type": "event", "session": "s1", "seq": 3, "kind": "assistant_message", "content": "Noted.",
         "trust": "model", "at": "2025-05-01T00:02:00Z"},
        {"type": "material", "session": "s1", "id": "res:log-1", "source_event": 3, "source_version": "v1",
         "retrieved_at": "2025-05-01T00:02:00Z", "disclosure_scope": "team", "media_type": "text/plain",
         "encoding": "utf-8", "content": "a log line that is long enough\n"},
    ]


def _store(tmp_path: Path) -> Path:
    store = tmp_path / "s.db"
    done = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "in.sif", _records())), "--into", str(store)])
    assert done.exit_code == 0, done.output
    return store


async def _astore(tmp_path: Path) -> Path:
    from inspector.services.importing import import_file

    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "in.sif", _records()), store, actor="alice")
    return store


async def _requests(store: Path) -> list[str]:
    return [f"{p['request']} {p['reason_code']}" for p in await _request_entries(store)]


async def _request_entries(store: Path) -> list[dict[str, Any]]:
    from inspector.services.sessions import session_ledger
    from inspector.store.connection import open_store

    async with await open_store(store) as opened:
        return [e["payload"] for e in await session_ledger(opened, "s1") if e["kind"] == "deletion.request"]


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), env={"INSPECTOR_REVIEWER": "lin"})


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_request_is_filed_listed_by_deletion_and_carried_out(tmp_path: Path) -> None:
    store = _store(tmp_path)
    filed = _run("request-deletion", str(store), "--session", "s1", "evt:2", "mat:res:log-1",
                 "--reason", f"the user asked: {SECRET}", "--reason-code", "data_subject_request", "--json")
    assert filed.exit_code == 0, filed.output
    out = json.loads(filed.stdout)
    assert out["request"] == "del-1" and out["status"] == "pending"
    assert out["targets"] == ["evt:2", "res:log-1"]  # mat:ID names the material ID

    entries = json.loads(_run("ledger", str(store), "--session", "s1", "--json").stdout)
    acts = [e for e in entries if e["kind"] == "deletion.request"]
    assert len(acts) == 1 and acts[0]["actor"] == "lin"
    assert acts[0]["payload"]["targets"] == ["evt:2", "res:log-1"]
    assert "13800138000" not in json.dumps(entries)  # the reason only as a keyed digest
    assert acts[0]["payload"]["reason_digest"].startswith("hmac-sha256:")

    cov = json.loads(_run("deletion", str(store), "del-1", "--json").stdout)
    assert {(c["where"], c["id"]) for c in cov["copies"]} >= {("events", "evt:2"), ("materials", "res:log-1")}
    assert _run("verify", str(store)).exit_code == 0

    done = json.loads(_run("delete", str(store), "del-1", "--json").stdout)
    assert done["status"] == "done"
    assert _run("verify", str(store)).exit_code == 0
    again = _run("request-deletion", str(store), "--session", "s1", "evt:3", "--reason", "also", "--json")
    assert json.loads(again.stdout)["request"] == "del-2"


def test_an_unknown_target_is_refused_with_a_code_and_nothing_is_written(tmp_path: Path) -> None:
    store = _store(tmp_path)
    before = _digest(store)
    bad = _run("request-deletion", str(store), "--session", "s1", "evt:2", "evt:99", "res:nope",
               "--reason", "x", "--json")
    assert bad.exit_code == 3
    error = json.loads(bad.stdout)["error"]
    assert error["code"] == "unknown_target" and "evt:99" in error["message"] and "res:nope" in error["message"]
    assert "evt:2'" not in error["message"]
    for args in (["--session", "nope", "evt:2", "--reason", "x"],  # no such session
                 ["--session", "s1", "evt:2", "--reason", "  "]):  # an empty reason
        assert _run("request-deletion", str(store), *args).exit_code == 3
    assert _digest(store) == before
    listing = json.loads(_run("ledger", str(store), "--json").stdout)
    assert not [e for e in listing if e["kind"] == "deletion.request"]


async def test_in_the_app_d_on_a_timeline_event_files_a_request_the_deletions_tab_shows(
        tmp_path: Path, monkeypatch: Any) -> None:
    from textual.widgets import Input, Select, Static, TabbedContent

    from inspector.ui.app import InspectorApp
    from inspector.ui.main_screen import MainScreen
    from inspector.ui.request_deletion_dialog import RequestDeletionDialog
    from inspector.ui.widgets.timeline_view import TimelineView
    from tests.test_app import settle

    store = await _astore(tmp_path)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(store, session="s1")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("t")
        await settle(app, pilot)
        view = app.screen.query_one(TimelineView)
        while view.current is not None and view.current.seq != 2:
            await pilot.press("down")
        await pilot.press("D")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, RequestDeletionDialog) and dialog.target == "evt:2"
        said = str(dialog.query_one("#request-deletion-text", Static).render())
        assert "1 sensitive value" in said and "events evt:2" in said
        assert "13800138000" not in said  # what is looked for is counted, never shown
        await pilot.press("enter")  # no reason: nothing filed, the dialog says why
        await settle(app, pilot)
        assert app.screen is dialog
        assert "needs a reason" in str(dialog.query_one("#request-deletion-result", Static).render())
        dialog.query_one(Input).value = "the user asked"
        dialog.query_one("#request-deletion-code", Select).value = "data_subject_request"
        dialog.query_one(Input).focus()
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        listing = app.screen.query_one("#deletions")
        assert app.screen.focused is listing and listing.highlighted_id() == "del-1"
        tab = app.screen.query_one(TabbedContent).get_tab("tab-deletions")
        assert "◷1" in str(tab.label)  # a pending request needs an act, as a pending candidate does
    assert await _requests(store) == ["del-1 data_subject_request"]


async def test_the_palette_command_on_a_raw_evidence_row_targets_its_material(
        tmp_path: Path, monkeypatch: Any) -> None:
    from inspector.ui.app import InspectorApp
    from inspector.ui.commands import screen_commands
    from inspector.ui.request_deletion_dialog import RequestDeletionDialog
    from tests.test_app import settle

    store = await _astore(tmp_path)
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(store, session="s1")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        [run] = [c for name, _, c in screen_commands(app.screen) if name == "Request deletion…"]
        run()
        await settle(app, pilot)
        assert isinstance(app.screen, RequestDeletionDialog) and app.screen.target == "res:log-1"
        await pilot.press("escape")  # cancelled: nothing written
        await settle(app, pilot)
    assert await _requests(store) == []


def test_the_timeline_row_of_an_act_starts_with_what_it_was_about() -> None:
    """Stored in key order, the request's ledger row read "added={…}, reason_code=…, reason_digest=hmac-s…"
    and was cut before its id and targets at 120 columns."""
    from inspector.services.timeline import _ledger_row

    payload = {"added": {"deletion_request": 1}, "reason_code": "other", "reason_digest": "hmac-sha256:" + "0" * 64,
               "request": "del-1", "seals": {"deletion_request": "hmac-sha256:" + "1" * 64}, "targets": ["evt:2"]}
    row = _ledger_row(("2026-01-01T00:00:00Z", 2, "deletion.request", "lin", json.dumps(payload, sort_keys=True)))
    assert row.text.startswith('request="del-1", targets=["evt:2"], reason_code="other"'), row.text
    assert row.text.index("reason_digest=") < row.text.index("added=") < row.text.index("seals=")


async def test_filing_and_carrying_out_on_both_backends(backend_sample_store: Path | str) -> None:
    """The same service on SQLite and PostgreSQL: the request row sealed by its entry, verify clean
    before and after the deletion it starts."""
    from inspector.domain.errors import BadInput
    from inspector.services import deletion_requests, deletions
    from inspector.services.verifying import verify_store
    from inspector.store.connection import open_store

    async with await open_store(backend_sample_store) as store:
        with pytest.raises(BadInput) as refused:
            await deletion_requests.file_request(store, "s-privacy", ["evt:4", "evt:404"], "x", actor="zhou")
        assert refused.value.code == "unknown_target"
        filed = await deletion_requests.file_request(store, "s-privacy", ["evt:4"], "she asked (138-0013-8000)",
                                                     actor="zhou", reason_code="data_subject_request")
        assert filed.request == "del-2"  # the sample's own request is del-1
        assert (await verify_store(store)).ok
        cov = await deletions.check(store, filed.request, "s-privacy")
        assert ("events", "evt:4") in {(c.where, c.id) for c in cov.copies}
        done = await deletions.delete(store, filed.request, actor="zhou", session="s-privacy")
        assert not done.refusals
        assert (await verify_store(store)).ok
