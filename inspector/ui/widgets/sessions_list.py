"""The sessions of the store, on the left; choosing one opens it."""

from __future__ import annotations

from textual.widgets.option_list import Option

from inspector.services.sessions import SessionSummary
from inspector.ui.safe import markup, one_line
from inspector.ui.widgets.item_list import ItemList


class SessionsList(ItemList):
    class Chosen(ItemList.Chosen):
        """A session was chosen to open."""

    def __init__(self) -> None:
        super().__init__(id="sessions")
        self.border_title = "Sessions"

    def load(self, sessions: list[SessionSummary], current: str | None) -> None:
        self.clear_options()
        for s in sessions:
            self.add_option(Option(
                markup("[b]$t[/b]\n[dim]$id · $n ev · v$v[/]", t=one_line(s.title or s.id), id=one_line(s.id),
                       n=f"{s.events:,}", v=str(s.context_version)),
                id=s.id))
        if current is not None:
            self.mark(current)

    def mark(self, session: str) -> None:
        for index in range(self.option_count):
            if self.get_option_at_index(index).id == session:
                self.highlighted = index
                return
