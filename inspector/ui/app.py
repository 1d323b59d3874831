"""The Context Inspector application: opens the store, shows the main screen, closes cleanly."""

from __future__ import annotations

import getpass
import os
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from inspector.store.connection import Store, open_store
from inspector.ui.commands import InspectorCommands
from inspector.ui.dialogs import error_dialog
from inspector.ui.main_screen import MainScreen


class InspectorApp(App[None]):
    TITLE = "Context Inspector"
    CSS_PATH = "inspector.tcss"
    COMMANDS = App.COMMANDS | {InspectorCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit")]

    def __init__(self, store_path: Path, *, session: str | None = None) -> None:
        super().__init__()
        self.store_path = store_path
        self.initial_session = session
        self.store: Store | None = None
        # Who the acts done here are recorded as (DESIGN §8: the reviewer names every write).
        self.reviewer = (os.environ.get("INSPECTOR_REVIEWER") or "").strip() or getpass.getuser()

    async def on_mount(self) -> None:
        try:
            self.store = await open_store(self.store_path)
        except Exception as error:  # noqa: BLE001 - shown to the person, then the app stays usable
            await self.push_screen(error_dialog(error))
            return
        await self.push_screen(MainScreen(self.store, self.initial_session))

    async def on_unmount(self) -> None:
        if self.store is not None:
            await self.store.close()
