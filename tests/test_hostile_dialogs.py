"""Dialogs that put store content into an editable field, and the typed confirmation of a
deletion whose id came from the transcript.

An ``Input`` shows its value as typed: it is not a Static that goes through ``plain``. A
reconcile dialog pre-filled the evidence box with the action's ``result_ref`` as it was, so
an OSC 52 there reached the terminal when the dialog opened. And a deletion request whose id
holds a control character could never be confirmed: the dialog shows the id made visible
(``␛``), and what a person types is compared with the raw id.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from inspector.domain.terminal_safe import terminal_safe
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.deletion_dialog import ConfirmDeletion
from tests.conftest import event_record, session_record, write_sif
from tests.test_app import settle
from tests.test_hostile_app import assert_inert

OSC52 = "\x1b]52;p;ZWNobyBvd25lZA==\x1b\\"  # an ST-terminated clipboard write
SID = "s-dlg"


async def _store(tmp_path: Path) -> Path:
    records = [
        session_record(SID, owner="rita"),
        event_record(1, SID, content="apply the migration"),
        {"type": "action", "session": SID, "id": "a1", "intent": "apply migration", "status": "unknown",
         "result_ref": f"evt:1{OSC52}"},
    ]
    store = tmp_path / "d.db"
    await import_file(write_sif(tmp_path / "d.jsonl", records), store, actor="rita")
    return store


async def test_the_reconcile_dialog_shows_a_hostile_result_ref_inert(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_REVIEWER", "rita")
    app = InspectorApp(await _store(tmp_path))
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        evidence = app.screen.query_one("#reconcile-evidence", Input)
        assert evidence.value == terminal_safe(f"evt:1{OSC52}")  # readable, the escape made visible
        assert_inert(app, "reconcile dialog")
        assert "\x1b]52" not in app.screen._compositor.render_update(full=True).render_segments(app.console)


@pytest.mark.parametrize("request_id", ["del\x1b]0;t\x07-1", "del\u202e-2", "del-3"])
async def test_a_deletion_is_confirmed_by_typing_the_id_as_shown(request_id: str) -> None:
    from textual.app import App

    results: list[bool | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(ConfirmDeletion(request_id, 2), results.append)

    app = Host()
    async with app.run_test(size=(100, 20)) as pilot:
        await pilot.pause()
        app.screen.query_one(Input).value = terminal_safe(request_id)  # typed or pasted as shown (⟨ ⟩ are no keys)
        await pilot.press("enter")
        await pilot.pause()
    assert results == [True]
