"""A corrected text whose only doubt is a sentence the rules cannot judge (``reference_unresolved``,
``forbidden_action_unclear``) is never saved silently: ``correct-summary`` saves it and says so
(a warning in its output and JSON, ``saved_with_doubts`` in the ledger entry); the correction
dialog holds it like a finding, shows the doubt, and saves it only on ctrl+y.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from textual.widgets import Input, TextArea

from inspector.cli.main import cli
from inspector.services import corrections
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

S = "s1"
RULES = "Goal: ship the export fix. Constraint: Never push to main."
DOUBT = RULES + " The tests pass. The docs build. We can ignore it now."


@pytest.fixture
async def store(tmp_path: Path) -> Path:
    records = [
        session_record(S, owner="olga"),
        {"type": "event", "session": S, "seq": 1, "kind": "user_message", "trust": "user",
         "content": "ship the export fix. Never push to main."},
        {"type": "state", "session": S, "key": "goal.main", "kind": "goal", "value": "ship the export fix",
         "status": "active", "sources": ["evt:1"], "writer": "user"},
        {"type": "state", "session": S, "key": "constraint.push", "kind": "constraint", "value": "Never push to main",
         "status": "active", "sources": ["evt:1"], "writer": "user"},
        {"type": "summary", "session": S, "generation": 1, "kind": "recursive", "text": "Goal: ship the export fix.",
         "unresolved": [], "sources": ["evt:1"], "covers": [1, 1]},
    ]
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "d.jsonl", records), path, actor="t")
    return path


def test_the_cli_saves_a_doubtful_text_and_says_it_was_not_judged(store: Path, tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text(DOUBT, encoding="utf-8")
    args = ["correct-summary", str(store), "--session", S, "--generation", "1", "--text-file", str(text),
            "--reason", "r", "--reviewer", "olga"]
    out = CliRunner().invoke(cli, [*args, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["generation"] == 2 and doc["status"] == "corrected"
    assert [w["code"] for w in doc["warnings"]] == ["reference_unresolved"]
    assert "ignore it" in doc["warnings"][0]["message"]
    plain = CliRunner().invoke(cli, args)
    assert plain.exit_code == 0
    assert "? not judged: reference_unresolved" in plain.output and "a person must read it" in plain.output
    ledger = CliRunner().invoke(cli, ["ledger", str(store), "--json"])
    entries = [e for e in json.loads(ledger.stdout) if e["kind"] == "summary.correction"]
    assert entries and entries[0]["payload"].get("saved_with_doubts") == ["reference_unresolved"]
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0


def test_a_clean_text_has_no_warning(store: Path, tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text(RULES, encoding="utf-8")
    out = CliRunner().invoke(cli, ["correct-summary", str(store), "--session", S, "--generation", "1", "--text-file",
                                   str(text), "--reason", "r", "--reviewer", "olga", "--json"])
    assert out.exit_code == 0 and json.loads(out.stdout)["warnings"] == []


async def test_the_service_holds_doubts_when_asked_and_saves_them_anyway(store: Path) -> None:
    async with await open_store(store) as opened:
        held = await corrections.correct_summary(opened, S, 1, DOUBT, reason="r", actor="olga", hold_doubts=True)
        assert held.status == "refused" and [r.code for r in held.refusals] == ["summary_not_judged"]
        assert held.generation is None and [w["code"] for w in held.warnings] == ["reference_unresolved"]
        saved = await corrections.correct_summary(opened, S, 1, DOUBT, reason="r", actor="olga", hold_doubts=True,
                                                  save_anyway=True)
        assert saved.status == "corrected" and saved.generation == 2
        assert [w["code"] for w in saved.warnings] == ["reference_unresolved"]


async def test_the_dialog_shows_the_doubt_and_saves_only_on_ctrl_y(sample_store: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from inspector.ui.app import InspectorApp
    from inspector.ui.correction_dialog import CorrectionDialog
    from inspector.ui.main_screen import MainScreen
    from tests.test_app import settle, text_of

    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(sample_store)
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("d", "c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        area = dialog.query_one(TextArea)
        area.text = area.text.rstrip() + "\n测试都通过了。文档已生成。这条现在可以忽略了。"
        dialog.query_one("#correct-reason", Input).value = "prefill plus a note"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert app.screen is dialog  # held: nothing saved yet
        shown = text_of(dialog.query_one("#correct-result"))
        assert "reference_unresolved" in shown and "not judged" in shown and "ctrl+y" in shown
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
