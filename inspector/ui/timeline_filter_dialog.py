"""Choosing what the timeline shows: kinds, one tool, only failed results (``f`` on the timeline).

| key | action |
|---|---|
| space | tick / untick the highlighted kind |
| ctrl+s / enter on Apply | apply the filter |
| ctrl+r | clear every filter |
| escape | cancel |
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Select, SelectionList, Static

from inspector.services.timeline import FILTER_KINDS, TimelineFilter
from inspector.ui.dialog_base import Dialog
from inspector.ui.safe import plain
from inspector.ui.widgets.keys_footer import KeysFooter

KIND_LABELS = {"user": "user turns", "assistant": "assistant turns", "tool": "tool calls and results",
               "reasoning": "turns with thinking", "system": "system and other records", "ledger": "ledger entries"}


class TimelineFilterDialog(Dialog[TimelineFilter | None]):
    DEFAULT_CSS = """
    TimelineFilterDialog { align: center middle; }
    TimelineFilterDialog #filter-box {
        width: 64; max-width: 95%; height: auto; max-height: 95%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    TimelineFilterDialog SelectionList { height: auto; max-height: 8; }
    TimelineFilterDialog #filter-buttons { height: auto; }
    TimelineFilterDialog #filter-buttons Button { margin-right: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="filter.cancel"),
                Binding("ctrl+s", "apply", "Apply", id="filter.apply"),
                Binding("ctrl+r", "clear", "Clear all", id="filter.clear")]

    def __init__(self, current: TimelineFilter | None, tools: list[tuple[str, int]]) -> None:
        super().__init__()
        self.current = current or TimelineFilter()
        self.tools = tools

    def compose(self) -> ComposeResult:
        with Vertical(id="filter-box"):
            yield Static("[b]Filter the timeline[/b] [dim](none ticked: every kind)[/]")
            yield SelectionList[str](*[(KIND_LABELS[k], k, k in self.current.kinds) for k in FILTER_KINDS],
                                     id="filter-kinds")
            options = [(plain(f"{name} ({n})"), name) for name, n in self.tools]  # a tool name is content: never markup
            yield Select(options, prompt="any tool", value=self.current.tool if self.current.tool in
                         {t for t, _ in self.tools} else Select.NULL, id="filter-tool")
            yield Checkbox("only failed results (and their calls)", self.current.failed, id="filter-failed")
            with Horizontal(id="filter-buttons"):
                yield Button("Apply", id="filter-apply", variant="primary", compact=True)
                yield Button("Clear all", id="filter-clear", compact=True)
        yield KeysFooter()  # its own keys: the main screen's showed through and did nothing here

    def _chosen(self) -> TimelineFilter:
        tool = self.query_one("#filter-tool", Select).value
        return TimelineFilter(frozenset(self.query_one("#filter-kinds", SelectionList).selected),
                              tool if isinstance(tool, str) else None,
                              self.query_one("#filter-failed", Checkbox).value)

    @on(Button.Pressed, "#filter-apply")
    def action_apply(self) -> None:
        self.dismiss(self._chosen())

    @on(Button.Pressed, "#filter-clear")
    def action_clear(self) -> None:
        self.dismiss(TimelineFilter())

    def action_cancel(self) -> None:
        self.dismiss(None)
