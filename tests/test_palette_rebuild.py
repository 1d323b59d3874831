"""The palette's writing commands ask what their keys ask: Rebuild summary, Correct, Confirm.

``R`` (a summary generation rebuilt from the raw log) had no palette entry: the palette calls an
action itself, past the read-only greying its key gets, so an entry would have written — or
failed inside a worker — on a store that cannot be written. Every writing command of the palette
now asks the screen first (commands.unless_greyed): on a read-only store it shows the dialog the
greyed key shows (``read_only``) and writes nothing; on a writable one it runs as the key does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import OptionList

from inspector.store import connection
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.commands import screen_commands
from inspector.ui.dialogs import MessageDialog
from inspector.ui.main_screen import MainScreen
from tests.conftest import file_sha
from tests.test_app import settle


async def _run_from_palette(app: InspectorApp, pilot: Pilot, name: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await pilot.press(*name.casefold())
    options = app.screen.query_one(OptionList)
    prompts: list[str] = []
    for _ in range(100):  # the palette searches as one types: wait for its answer, not for the clock
        await pilot.pause()
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        if prompts and prompts[0].startswith(name):
            break
    assert prompts and prompts[0].startswith(name), prompts
    await pilot.press("enter")
    await settle(app, pilot)


async def _generations(store_path: Path) -> int:
    async with await open_store(store_path) as store:
        rows = await store.db.execute_fetchall("SELECT COUNT(*) FROM summaries")
        return int(rows[0][0])


async def test_rebuild_summary_from_the_palette_appends_a_generation(sample_store: Path) -> None:
    before = await _generations(sample_store)
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session is not None
        assert "Rebuild summary" in [name for name, _help, _run in screen_commands(app.screen)]
        await _run_from_palette(app, pilot, "Rebuild summary")
        assert isinstance(app.screen, MainScreen)  # no refusal on a writable store
    assert await _generations(sample_store) == before + 1


@pytest.mark.parametrize("command", ["Rebuild summary", "Correct", "Confirm pending", "Reject pending"])
async def test_on_a_read_only_store_a_writing_command_refuses_as_its_key_does(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.setattr(connection, "read_only_reason", lambda _path: "a read-only medium")
    before = file_sha(sample_store)
    app = InspectorApp(sample_store, reviewer="lin")
    async with app.run_test(size=(120, 35)) as pilot:
        await settle(app, pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.store.read_only
        await _run_from_palette(app, pilot, command)
        dialog = app.screen
        assert isinstance(dialog, MessageDialog), dialog
        assert dialog.dialog_title == "Cannot write here (read_only)"
        assert "read-only" in str(dialog.body) and "Nothing was changed." in str(dialog.body)
        await pilot.press("escape")
        await pilot.pause()
        # The greyed key gives the same dialog.
        key = {"Rebuild summary": "R", "Correct": "c", "Confirm pending": "y", "Reject pending": "n"}[command]
        await pilot.press(key)
        await settle(app, pilot)
        assert isinstance(app.screen, MessageDialog) and app.screen.dialog_title == dialog.dialog_title
    assert file_sha(sample_store) == before
