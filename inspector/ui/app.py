"""The Context Inspector application: opens the store, shows the main screen, closes cleanly."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.reactive import var

from inspector.services import reviewer_name

from inspector.store.connection import Store, open_store
from inspector.ui.commands import InspectorCommands
from inspector.ui.dialogs import error_dialog
from inspector.ui.main_screen import MainScreen
from inspector.ui.reviewer_dialog import ReviewerDialog
from inspector.ui.widgets.header_bar import HeaderBar


class InspectorApp(App[None]):
    TITLE = "Context Inspector"
    CSS_PATH = "inspector.tcss"
    COMMANDS = App.COMMANDS | {InspectorCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit")]

    # Who the acts done here are recorded as (DESIGN §8: the reviewer names every write);
    # None until said: the first writing act asks (with_reviewer).
    reviewer: var[str | None] = var(None, init=False)

    def __init__(self, store_path: Path, *, session: str | None = None, reviewer: str | None = None) -> None:
        super().__init__()
        self.store_path = store_path
        self.initial_session = session
        self.store: Store | None = None
        self.set_reactive(InspectorApp.reviewer, reviewer_name.resolve(reviewer))

    def with_reviewer(self, then: Callable[[str], object]) -> None:
        """Run ``then(reviewer)``; the first time, ask who is reviewing and remember the answer.
        Cancelling the question does nothing, so nothing is written under a name nobody gave."""
        if self.reviewer:
            then(self.reviewer)
            return

        def named(name: str | None) -> None:
            if not name:
                self.notify("Nothing was written: a writing act needs the reviewer's name.", severity="warning")
                return
            try:
                reviewer_name.remember(name)
            except OSError as error:
                self.notify(f"Using {name} for this run; could not remember it: {error}", severity="warning")
            self.reviewer = name
            then(name)

        self.push_screen(ReviewerDialog(), named)

    def watch_reviewer(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query(HeaderBar):
                header.refresh_content()

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
