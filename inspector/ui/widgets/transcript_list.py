"""The transcripts of the session browser as a virtual list: project headings and two-line
entries, of which only the visible ones are drawn, so a thousand transcripts list as fast as
ten (an ``OptionList`` measures every option before its first paint).

| key | action |
|---|---|
| ↑ / ↓ | previous / next transcript (headings are skipped) |
| PgUp / PgDn | a screen up / down |
| Home / End | first / last transcript |
| Enter | open the highlighted transcript |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual.binding import Binding
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widget import Widget


@dataclass(frozen=True, slots=True)
class Row:
    key: str | None  # None: a project heading (not selectable)
    prompt: Callable[[], Content]  # built only when the row is drawn
    # The lines the prompt draws when not the usual (1 for a heading, 2 for an entry): a row of a
    # session's copies or a cut file names its file and each copy beneath (new-user-16), and
    # scrolling counted 2 for it, so the cursor went below the list's end at 80×24 (review-16).
    lines: int = 0

    @property
    def height(self) -> int:
        return self.lines or (1 if self.key is None else 2)


class TranscriptList(Widget, can_focus=True):
    DEFAULT_CSS = """
    TranscriptList { height: 1fr; border: round $primary-darken-2; padding: 0 1; }
    TranscriptList:focus { border: round $primary; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Open", id="browser.open"),
    ]

    class Selected(Message):
        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows: list[Row] = []
        self.selectable: list[int] = []  # indexes of rows with a key
        self.cursor = 0  # position in ``selectable``
        self.top = 0  # first row drawn

    def load(self, rows: list[Row], keep: str | None = None) -> None:
        self.rows = rows
        self.selectable = [i for i, r in enumerate(rows) if r.key is not None]
        keys = [rows[i].key for i in self.selectable]
        self.cursor = keys.index(keep) if keep in keys else 0
        self.top = 0
        self._scroll_to_cursor()
        self.refresh()

    @property
    def highlighted(self) -> str | None:
        return self.rows[self.selectable[self.cursor]].key if self.selectable else None

    def _scroll_to_cursor(self) -> None:
        if not self.selectable:
            return
        index = self.selectable[self.cursor]
        first = index
        while first > 0 and self.rows[first - 1].key is None:  # show the heading above an entry
            first -= 1
        if first < self.top:
            self.top = first
        if not self.size.height:
            return  # not laid out yet: on_resize places the cursor once the height is known
        height = self.size.height
        while sum(r.height for r in self.rows[self.top:index + 1]) > height and self.top < index:
            self.top += 1

    def action_move(self, delta: int) -> None:
        if self.selectable:
            self.cursor = max(0, min(len(self.selectable) - 1, self.cursor + delta))
            self._scroll_to_cursor()
            self.refresh()

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.size.height // 2))

    def action_first(self) -> None:
        self.action_move(-len(self.selectable))

    def action_last(self) -> None:
        self.action_move(len(self.selectable))

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self.highlighted))

    def on_click(self, event: Click) -> None:
        line = self.top
        y = 0
        while line < len(self.rows) and y + self.rows[line].height <= event.y:
            y += self.rows[line].height
            line += 1
        if line < len(self.rows) and line in self.selectable:
            self.cursor = self.selectable.index(line)
            self.refresh()
            if event.chain >= 2:
                self.action_select()

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    def render(self) -> Content:
        if not self.rows:
            return Content.from_markup("[dim]no transcript matches[/]")
        chosen = self.selectable[self.cursor] if self.selectable else -1
        lines: list[Content] = []
        height = self.size.height
        index = self.top
        while index < len(self.rows) and len(lines) < height:
            row = self.rows[index]
            content = row.prompt()
            if index == chosen:
                content = content.stylize("reverse" if self.has_focus else "underline")
                content = Content("▶ ") + content
            else:
                content = Content("  ") + content
            # One screen line per line: a long title ends in "…" rather than wrapping
            # (a wrapped line would push the rows below off the computed screen).
            lines += [line.truncate(self.size.width, ellipsis=True) for line in content.split("\n")]
            index += 1
        return Content("\n").join(lines[:height])
