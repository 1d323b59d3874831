"""The Context Inspector application."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, OptionList

from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store


class InspectorApp(App[None]):
    TITLE = "Context Inspector"

    def __init__(self, store_path: Path, *, session: str | None = None) -> None:
        super().__init__()
        self.store_path = store_path
        self.initial_session = session

    def compose(self) -> ComposeResult:
        yield Header()
        yield OptionList(id="sessions")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = str(self.store_path)
        async with await open_store(self.store_path) as store:
            items = await list_sessions(store)
        self.query_one(OptionList).add_options([f"{s.id}  {s.title or ''}" for s in items])
