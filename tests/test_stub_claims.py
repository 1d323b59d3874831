"""Stubs are checked, not trusted as written: a stub whose material was never stored, a stub
whose time disagrees with the material's, and an expansion beyond the observed read_slice."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from textual.widgets import Input, Static

from inspector.cli.main import cli
from inspector.ui.app import InspectorApp
from inspector.ui.expand_dialog import ExpandDialog
from tests.conftest import session_record, write_sif
from tests.test_app import settle
from tests.test_expand_dialog import _open_on_stub

TEXT = "line one of the run log\n" * 20  # 480 bytes


def _records() -> list[dict]:
    material = {"type": "material", "session": "s1", "id": "res:log", "source_event": 1, "source_version": "v1",
                "retrieved_at": "2025-05-01T08:09:00Z", "disclosure_scope": "team", "media_type": "text/plain",
                "encoding": "utf-8", "content": TEXT}
    stub = {"type": "stub", "session": "s1", "material": "res:log", "source_version": "v1",
            "disclosure_scope": "team", "outline": "run log"}
    return [session_record("s1", adapter="generic", goal_revision=1),
            {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "content": "log → res:log",
             "trust": "user"},
            material,
            {**stub, "id": "stub-ok", "read_slice": [0, 100], "retrieved_at": "2025-05-01T08:09:00+00:00"},
            {**stub, "id": "stub-late", "read_slice": [0, 100], "retrieved_at": "2025-05-02T10:00:00Z"},
            {**stub, "id": "stub-ghost", "material": "res:never-stored", "read_slice": [0, 10],
             "retrieved_at": "2025-05-01T08:09:00Z"}]


def _import(tmp_path: Path) -> tuple[Path, dict]:
    store = tmp_path / "stubs.db"
    out = CliRunner().invoke(cli, ["import", str(write_sif(tmp_path / "stubs.jsonl", _records())), "--into",
                                   str(store), "--json"])
    assert out.exit_code == 0, out.output
    return store, json.loads(out.stdout)


def test_import_and_check_report_what_a_stub_gets_wrong(tmp_path: Path) -> None:
    store, report = _import(tmp_path)
    found = {(p["code"], p["stub"], p["line"]) for p in report["problems"]}
    assert found == {("retrieved_at_mismatch", "stub-late", 6), ("material_missing", "stub-ghost", 7)}
    out = CliRunner().invoke(cli, ["check", str(store), "--json"])
    stubs = json.loads(out.stdout)["sessions"][0]["stubs"]
    assert out.exit_code == 1 and {(p["code"], p["stub"]) for p in stubs} == {
        ("retrieved_at_mismatch", "stub-late"), ("material_missing", "stub-ghost")}
    assert "res:never-stored" in next(p["message"] for p in stubs if p["stub"] == "stub-ghost")


def test_expansion_beyond_the_read_slice_succeeds_with_a_note(tmp_path: Path) -> None:
    store, _ = _import(tmp_path)
    out = CliRunner().invoke(cli, ["expand", str(store), "stub-ok", "--range", "50:200", "--reviewer", "lin", "--json"])
    result = json.loads(out.stdout)
    assert out.exit_code == 0 and result["verified"] and result["bytes"] == 150
    assert result["beyond_read_slice"] == [[100, 200]]
    assert [n["code"] for n in result["notes"]] == ["beyond_read_slice"]
    inside = json.loads(CliRunner().invoke(cli, ["expand", str(store), "stub-ok", "--reviewer", "lin",
                                                 "--json"]).stdout)
    assert inside["beyond_read_slice"] is None and inside["notes"] == []
    late = json.loads(CliRunner().invoke(cli, ["expand", str(store), "stub-late", "--reviewer", "lin",
                                               "--json"]).stdout)
    assert [n["code"] for n in late["notes"]] == ["retrieved_at_mismatch"]
    ledger = json.loads(CliRunner().invoke(cli, ["ledger", str(store), "--json"]).stdout)
    assert [e["payload"]["beyond_read_slice"] for e in ledger if e["kind"] == "expand"] == [True, False, False]


async def test_the_expand_dialog_says_it_reads_beyond_the_observation(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store, session="s-export")
    async with app.run_test(size=(160, 45)) as pilot:
        await _open_on_stub(app, pilot, "stub-7")
        dialog = app.screen
        assert isinstance(dialog, ExpandDialog)
        dialog.query_one("#expand-start", Input).value = "4000"
        dialog.query_one("#expand-end", Input).value = "4200"
        dialog.query_one("#expand-end", Input).focus()
        await pilot.press("enter")
        await settle(app, pilot)
        shown = str(dialog.query_one("#expand-text", Static).render())
        assert "✓ verified" in shown and "beyond_read_slice" in shown and "beyond what the original observation" in shown
