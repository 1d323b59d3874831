"""Notices as a line above the key line on small terminals, instead of toasts over the work.

Textual's toasts sit at the bottom right, 60 columns wide (at most half the screen) and four or
five lines high, for five seconds. At 80×24 the main screen shows one zone at a time, so a
toast ("The latest summary drifted…", "Timeline: only failed results.") covered the lower
right of the very list or detail the reviewer was reading. Below ``INLINE_BELOW`` (the narrow
breakpoint, or fewer than ``SHORT_ROWS`` rows: ui/breakpoints.py) the app says it here instead: a line of its
own in the layout (the zone above gives up those rows while it shows, so nothing is covered),
in the severity's colour with a glyph that reads without colour, gone after the same timeout.
"""

from __future__ import annotations

from textual.notifications import Notification, SeverityLevel
from textual.timer import Timer
from textual.widgets import Static

from inspector.ui.safe import plain

GLYPHS = {"information": "•", "warning": "⚠", "error": "✗"}


class NoticeLine(Static):
    DEFAULT_CSS = """
    NoticeLine {
        display: none;
        height: auto;
        max-height: 3;
        padding: 0 1;
        background: $boost;
        color: $text-success;
        &.-shown { display: block; }
        &.-warning { color: $text-warning; }
        &.-error { color: $text-error; }
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.notice: Notification | None = None
        self._timer: Timer | None = None

    def show(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
             timeout: float | None = None) -> None:
        """Say ``message`` (already made safe by the app) until its timeout; a later notice replaces it."""
        notice = Notification(message, title, severity, timeout if timeout is not None else self.app.NOTIFICATION_TIMEOUT)
        self.notice = notice
        text = f"{GLYPHS.get(severity, '•')} " + (f"{title}: " if title else "") + message
        self.update(plain(text))
        for name in ("-information", "-warning", "-error"):
            self.set_class(name == f"-{severity}", name)
        self.add_class("-shown")
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(notice.time_left, self.clear)

    def clear(self) -> None:
        self.notice = None
        self.remove_class("-shown")
        self.update("")
