"""The event dialog: the record's bounded head, and ``m`` for the next stretch of a long content.

A message dialog (inspector/ui/dialogs.py) whose body grows on request: opening a 50 MB
event lays out its first 32,000 characters, not all of them (services/event_view.py).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from textual.binding import Binding
from textual.widgets import Static

from inspector.services.event_view import HEAD_CHARS, EventHead
from inspector.ui.dialogs import MessageDialog
from inspector.ui.safe import plain

LoadMore = Callable[[int, int], Awaitable[str]]


def _more_line(shown: int, total: int) -> str:
    return (f"\n── content: {shown:,} of {total:,} characters shown; m shows the next {min(HEAD_CHARS, total - shown):,} "
            "(`inspector export` writes it all) ──")


def head_body(view: EventHead) -> str:
    """The record as JSON, and a line for every field shown cut."""
    body = json.dumps(view.record, ensure_ascii=False, indent=2)
    cuts = [f"── {name}: first {HEAD_CHARS:,} of {total:,} characters shown ──"
            for name, total in view.cut.items() if name != "content"]
    return "\n".join([body, *cuts])


class EventDialog(MessageDialog):
    """An event's head; ``m`` appends the next stretch of its content below."""

    BINDINGS = [Binding("m", "more", "More", id="event.more")]

    def __init__(self, title: str, view: EventHead, tail: str, load_more: LoadMore, *, lead: str = "") -> None:
        self.view = view
        self.lead = lead  # what the event links to and its thinking, said before the record
        self.shown = view.content_shown
        self.load_more = load_more
        self.tail = tail
        self.more_text = ""
        super().__init__(title, self._body())

    def _body(self) -> str:
        more = _more_line(self.shown, self.view.content_chars) if self.shown < self.view.content_chars else ""
        extra = f"\n── content continued from character {self.view.content_shown:,} ──\n{self.more_text}" \
            if self.more_text else ""
        # Said first (the head of a long event fills the screen) and again where it ends.
        return ((more.lstrip("\n") + "\n" if more else "") + self.lead + head_body(self.view) + extra + more
                + self.tail)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``m`` is in the key line only while there is more of the content to show."""
        return self.shown < self.view.content_chars if action == "more" else True

    async def action_more(self) -> None:
        if self.shown >= self.view.content_chars:
            return
        self.more_text += await self.load_more(self.shown, HEAD_CHARS)
        self.shown = min(self.view.content_chars, self.shown + HEAD_CHARS)
        self.query_one("#dialog-body Static", Static).update(plain(self._body()))
        self.refresh_bindings()
