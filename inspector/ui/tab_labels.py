"""Tab labels that fit the strip, so every tab of the lower zone stays in sight.

Textual's tab strip scrolls sideways to keep the active tab in view: when the eight labels
are wider than the terminal, the tabs at the far end leave the screen, and a reviewer at
80 columns could not see that "Budget" or "Timeline" existed (the strip showed "…Deletions B"
or "ine  Candidates…"). Each tab has three forms — its name, a short name, its key — and the
strip takes the longest form in which all eight fit, for the width the strip has now (the
terminal's, less the sessions list or the keys panel when shown), recomputed whenever the column
holding it is resized and on every count change. Counts keep the header's glyphs in every form
(``Cand. ◷8``, ``k◷8``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual import events
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.widgets import TabbedContent

if TYPE_CHECKING:
    from textual.screen import Screen

    _Base = Screen[None]
else:
    _Base = object

# pane id -> (name, short name, key); in the strip's order
TAB_FORMS: dict[str, tuple[str, str, str]] = {
    "tab-timeline": ("Timeline", "Timeline", "t"),
    "tab-candidates": ("Candidates", "Cand.", "k"),
    "tab-drift": ("Drift", "Drift", "d"),
    "tab-survival": ("Survival", "Surv.", "u"),
    "tab-handoffs": ("Handoffs", "Hand.", "o"),
    "tab-actions": ("Actions", "Acts", "a"),
    "tab-deletions": ("Deletions", "Del.", "x"),
    "tab-budget": ("Budget", "Budget", "b"),
}
TAB_GUTTER = 2  # a Tab's padding: one column each side
FORMS = ("full", "short", "key")


def label(pane: str, form: int, count: str = "") -> str:
    name = TAB_FORMS[pane][form]
    if not count:
        return name
    return f"{name}{count}" if form == 2 else f"{name} {count}"


def strip_width(labels: Mapping[str, str]) -> int:
    return sum(cell_len(text) + TAB_GUTTER for text in labels.values())


def fit_labels(counts: Mapping[str, str], width: int) -> tuple[int, dict[str, str]]:
    """The longest form (0 name, 1 short, 2 key) in which every tab fits ``width`` cells, with its labels."""
    labels: dict[str, str] = {}
    for form in range(len(FORMS)):
        labels = {pane: label(pane, form, counts.get(pane, "")) for pane in TAB_FORMS}
        if strip_width(labels) <= width:
            return form, labels
    return len(FORMS) - 1, labels


class FitsTabLabels(_Base):
    """A mixin of the main screen: the tab labels' counts and the form they are shown in."""

    tab_form = 0  # which form the strip shows now (0 name, 1 short, 2 key)
    _tab_counts: dict[str, str] | None = None

    def set_tab_count(self, pane: str, count: str) -> None:
        """``count`` as shown after the name (``◷8``, ``(3)``), or "" for none."""
        if self._tab_counts is None:
            self._tab_counts = {}
        self._tab_counts[pane] = count
        self.fit_tab_labels()

    def tab_room(self) -> int:
        """The strip's width: #main's (always laid out, unlike the strip itself, which keeps its
        old size while a narrow screen hides it), or the terminal's before the first layout."""
        try:
            width = self.query_one("#main").size.width
        except NoMatches:
            width = 0
        return width or self.app.size.width

    def fit_tab_labels(self) -> None:
        try:
            tabs = self.query_one("#tabs", TabbedContent)
        except NoMatches:
            return
        self.tab_form, labels = fit_labels(self._tab_counts or {}, self.tab_room())
        for pane, text in labels.items():
            try:
                tab = tabs.get_tab(pane)
            except (NoMatches, ValueError):
                continue
            if tab.label.plain != text:
                tab.label = text



class TabsColumn(Vertical):
    """The column holding the channels and the tabs (``#main``). Its width is the strip's, and it
    changes on more than a terminal resize — ``s`` shows the sessions list beside it, ``?`` the
    keys panel (which pushed "Timeline  Cand." off the strip at 80 columns) — so the labels are
    fitted whenever it is resized, whatever the cause."""

    def on_resize(self, event: events.Resize) -> None:
        fit = getattr(self.screen, "fit_tab_labels", None)
        if fit is not None:
            fit()
