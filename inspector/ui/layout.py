"""How the main screen fits a terminal: Textual's breakpoints instead of hand-written resize code.

- ``-wide`` (≥ 140 columns): sessions list, three channels side by side, tabs below.
- ``-normal`` (90–139): the sessions list starts hidden (``s`` shows it).
- ``-narrow`` (< 90): one zone at a time — the channel that has focus, or the tabs — each
  given the whole height, so ``1 2 3 t k d …`` always show what they focus (at 80×24 the
  tabs once sat below the fold while the keys focused them invisibly: issue 15, item 5).

The zone follows focus (keys, tab, clicks), so it cannot disagree with where the keys go.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

from inspector.ui.breakpoints import BREAKPOINTS, COMPACT_WIDTH, NARROW_WIDTH
from inspector.ui.widgets.channel import ChannelPane

__all__ = ["BREAKPOINTS", "COMPACT_WIDTH", "NARROW_WIDTH", "FitsTheTerminal"]

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    _Base = Screen[None]
else:
    _Base = object


class FitsTheTerminal(_Base):
    """A mixin of the main screen: breakpoints, the sessions toggle and the narrow zone."""

    HORIZONTAL_BREAKPOINTS = BREAKPOINTS

    def preset_classes(self, first: Widget) -> None:
        """Before the children mount: the classes the first resize (breakpoint) and the first
        focus (``first``'s zone) would set, so the screen is styled once instead of restyled
        twice more before its first frame (issue 18; the same classes result either way)."""
        for name in self._get_breakpoint_classes(self.app.size.width, BREAKPOINTS):
            self.add_class(name, update=False)
        if isinstance(first, ChannelPane):
            self.add_class("-zone-channels", update=False)
            first.add_class("-current", update=False)

    def show_zone(self, widget: Widget) -> None:
        """Make ``widget``'s zone the one shown (before focusing it, so focus lands on something visible).

        The zone classes are always kept, but only ``-narrow`` rules read them: at other widths
        they change without a restyle (a class change on the screen restyled its ~1,100 widgets
        on every move between a channel and the tabs). Becoming narrow restyles the screen
        anyway, with the zone classes already right.

        When narrow, the classes are all set first and restyled once: the screen's two zone
        classes one at a time restyled all its widgets twice per move between the zones (a
        channel's ``-current`` is inside the screen, so the screen's restyle covers it)."""
        channel = next((a for a in widget.ancestors_with_self if isinstance(a, ChannelPane)), None)
        # focus outside both (the sessions list `s` shows) keeps the zone: at 80 columns it once took
        # every channel's -current away and left the 52 columns beside the list blank
        if channel is not None:
            zone, other = "-zone-channels", "-zone-tabs"
        elif any(getattr(a, "id", None) == "tabs" for a in widget.ancestors_with_self):
            zone, other = "-zone-tabs", "-zone-channels"
        else:
            return
        moved = [pane for pane in self.query(ChannelPane)
                 if channel is not None and pane.has_class("-current") != (pane is channel)]
        for pane in moved:
            pane.set_class(pane is channel, "-current", update=False)
        screen_changed = not self.has_class(zone) or self.has_class(other)
        self.set_class(True, zone, update=False)
        self.set_class(False, other, update=False)
        if not self.has_class("-narrow"):
            return
        for node in [self] if screen_changed else moved:
            node.update_node_styles()

    focus_asked = 0  # counts the focus moves asked for; a tab key that had to wait gives way to a later one

    def focus_on(self, widget: Widget) -> None:
        """Focus now when the widget can take it (``widget.focus()`` waits for the next message
        round, so a key typed right behind ``t`` or ``k`` still reached the old focus)."""
        self.focus_asked += 1
        asked = self.focus_asked
        self.show_zone(widget)
        if widget.is_attached and widget.focusable:
            self.set_focus(widget)
            return

        def when_it_can() -> None:  # unless a later key asked for another focus meanwhile
            if asked == self.focus_asked and widget.is_attached and widget.focusable:
                self.set_focus(widget)

        self.call_after_refresh(when_it_can)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.show_zone(event.widget)

    _before_sessions: Widget | None = None  # what had the focus when s showed the sessions list

    def toggle_sessions(self) -> None:
        """``s`` shows the sessions list with the focus in it (``↓ enter`` opens the next
        session; the list once appeared while the keys went on moving the tab behind it), and
        hides it again with the focus back where it was."""
        sessions = self.query_one("#sessions")
        shown = bool(sessions.display)
        self.set_class(not shown, "-sessions-shown")
        self.set_class(shown, "-sessions-hidden")
        for header in self.query("HeaderBar"):  # "s lists them" / "s hides them"
            header.refresh_content()  # type: ignore[attr-defined]
        if not shown:
            self._before_sessions = self.focused
            self.call_after_refresh(self.set_focus, sessions)
        elif self.focused is sessions:
            back = self._before_sessions
            self._before_sessions = None
            if back is not None and back.is_attached and back.focusable:
                self.focus_on(back)
            else:
                self.focus_next()
