"""What the app says before its first screen is ready: the store it opens and what it does now.

On a loaded machine (load 11 on two cores) the first paint of a real transcript took 7.5 s,
and the terminal showed nothing at all meanwhile: opening the store, loading the main screen's
modules and reading the session ran inside the app's ``on_mount``, which holds every paint.
Now the app's first screen is this note ("Opening s.db — reading the session…"), drawn as soon
as Textual runs, and each step says itself before it starts (:meth:`LoadingNote.step` waits for
the frame, so a step that holds the event loop — importing the main screen — still shows what
it is). The command line says the same on stderr before Textual has even loaded
(cli/opening_line.py).
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen
from textual.widgets import Static

from inspector.ui.paint import after_paint
from inspector.ui.safe import markup


class StartScreen(Screen[None]):
    """The app's first screen (the note is composed onto it). Keys typed while the store opens
    are kept and replayed once the first real screen is up (``InspectorApp.replay_typed``):
    ``t`` typed at start reached the timeline when ``on_mount`` held everything, and must still.
    Priority keys (ctrl+q) are the app's before they get here, so quitting still works."""

    def on_key(self, event: events.Key) -> None:
        kept = getattr(self.app, "typed_ahead", None)
        if kept is not None and self is self.app.screen:
            kept.append(events.Key(event.key, event.character))
            event.stop()
            event.prevent_default()


class LoadingNote(Static):
    DEFAULT_CSS = """
    LoadingNote {
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
        color: $text-muted;
    }
    """

    def __init__(self, what: str) -> None:
        super().__init__(markup("[b]Context Inspector[/b]\n\n$w…", w=what), id="loading")
        self.what = what
        self.doing = ""

    async def step(self, what: str, doing: str) -> None:
        """Say ``what`` is being opened and what is being done now, and return once it is drawn."""
        self.what, self.doing = what, doing
        self.update(markup("[b]Context Inspector[/b]\n\n$w\n[dim]$d…[/]", w=what, d=doing))
        if self.is_attached and self.screen is self.app.screen:
            await after_paint(self)

    def done(self) -> None:
        """Once the first screen is up: nothing stale is left beneath it (a closed session)."""
        self.update("")
