"""The sessions of the store, on the left; choosing one opens it."""

from __future__ import annotations

from textual.widgets.option_list import Option

from inspector.services.sessions import SessionSummary
from inspector.ui.safe import markup, one_line
from inspector.ui.widgets.item_list import ItemList

# A title or id is content: a 10 KB one (a transcript's own session id, a hostile title) wrapped
# into the narrow panel took every line of it, and the other sessions were out of sight. The
# whole of each is in the header once the session is open (docs/reviews/untrusted-seven.md).
TITLE_MAX = 160
ID_MAX = 72


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
                markup("[b]$t[/b]\n[dim]$id · $n ev · v$v[/]", t=_clipped(one_line(s.title or s.id), TITLE_MAX),
                       id=_clipped(one_line(s.id), ID_MAX),
                       n=f"{s.events:,}", v=str(s.context_version)),
                id=s.id))
        if current is not None:
            self.mark(current)

    def mark(self, session: str) -> None:
        for index in range(self.option_count):
            if self.get_option_at_index(index).id == session:
                self.highlighted = index
                return
