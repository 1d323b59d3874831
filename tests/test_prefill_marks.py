"""A small edit to a pre-filled value holding hidden characters does not save their visible marks (stale-and-prefill).

The Correct dialog pre-fills the record's value made visible: U+202E as ``⟨U+202E⟩``, ESC as ``␛``.
Typing one letter at the end and ctrl+s saved the marks as the new value's text — the record
changed in places the reviewer never touched, with nothing said. Now the dialog says the field
holds marks, and a text still holding one is refused, nothing written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.domain.prefill_marks import marks_left
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.correction_dialog import CorrectionDialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.widgets.state_channel import StateChannel
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import choose, settle

HOSTILE = "ship \u202eledom\u202c by friday \x1b[31mnow"


async def _values(path: Path) -> list[str]:
    async with await open_store(path) as opened:
        rows = await opened.db.execute_fetchall(
            "SELECT value FROM state_records WHERE session = 's1' AND key = 'decision.ship' ORDER BY version")
    return [r[0] for r in rows]


async def _store(tmp_path: Path) -> Path:
    """A session whose active decision was imported holding a bidi override and an ESC sequence."""
    path = tmp_path / "marks.db"
    record = {"type": "state", "session": "s1", "key": "decision.ship", "kind": "decision", "value": HOSTILE,
              "status": "active", "version": 1, "sources": ["evt:1"], "writer": "user", "scope": "task",
              "at": "2025-05-01T00:00:00Z"}
    await import_file(write_sif(tmp_path / "marks.jsonl", [session_record("s1", owner="lin"), event_record(1),
                                                          record]), path, actor="tester")
    return path


async def test_a_small_edit_to_a_value_with_hidden_characters_writes_no_marks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = await _store(tmp_path)
    before = await _values(path)
    assert before == [HOSTILE]
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(path, session="s1")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen)
        choose(app.screen.query_one(StateChannel).records, "decision.ship@1")
        await pilot.press("c")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        assert "⟨U+202E⟩" in dialog.query_one("#correct-value").value  # type: ignore[attr-defined]
        said = str(dialog.query_one("#correct-marks").render())
        assert "3 hidden or control characters shown as visible marks" in said, said
        dialog.query_one("#correct-value").focus()
        await pilot.press("end", "!")
        dialog.query_one("#correct-reason").value = "louder"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert app.screen is dialog  # still open: refused
        status = str(dialog.query_one("#correct-result").render())
        assert "Nothing was saved" in status and "⟨U+202E⟩, ⟨U+202C⟩, ␛" in status, status
    assert await _values(path) == before  # nothing written


def test_only_marks_the_prefill_put_in_are_refused() -> None:
    shown = "ship ⟨U+202E⟩ledom⟨U+202C⟩ by friday ␛[31mnow"
    assert marks_left(HOSTILE, shown + "!") == ["⟨U+202E⟩", "⟨U+202C⟩", "␛"]
    assert marks_left(HOSTILE, "ship model by friday now!") == []  # the marks removed: saved
    typed = "a value that spells ⟨U+202E⟩ in letters"
    assert marks_left(typed, typed + "!") == []  # marks the stored text held as typed text stay
    assert marks_left("plain", "plain!") == []


async def test_a_summary_correction_still_holding_a_mark_is_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for a summary generation's correction, pre-filled from its text (2, c)."""
    from textual.widgets import Input, TextArea

    from inspector.services.channels import generations

    records = [session_record("s1", owner="lin"),
               {**event_record(1), "content": "ship the export fix"},
               {"type": "summary", "session": "s1", "generation": 1, "kind": "recursive",
                "text": "Goal: ship the \u200bexport fix.", "unresolved": [], "sources": ["evt:1"], "covers": [1, 1]}]
    path = tmp_path / "sum.db"
    await import_file(write_sif(tmp_path / "sum.jsonl", records), path, actor="tester")
    monkeypatch.setenv("INSPECTOR_REVIEWER", "lin")
    app = InspectorApp(path, session="s1")
    async with app.run_test(size=(170, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("2", "c")  # the Task summary channel, its generation highlighted
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, CorrectionDialog)
        area = dialog.query_one(TextArea)
        assert "⟨U+200B⟩" in area.text
        area.text = area.text.rstrip() + " Now."
        dialog.query_one("#correct-reason", Input).value = "a note"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert app.screen is dialog
        assert "⟨U+200B⟩" in str(dialog.query_one("#correct-result").render())
    async with await open_store(path) as opened:
        assert [g.generation for g in await generations(opened, "s1")] == [1]
