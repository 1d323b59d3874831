"""Modal dialogs: errors and plain reports. Each returns through ``dismiss``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from inspector.domain.errors import InspectorError, Refusal
from inspector.store.connection import store_error
from inspector.ui.dialog_base import Dialog
from inspector.ui.safe import plain
from inspector.ui.widgets.keys_footer import KeysFooter


class MessageDialog(Dialog[None]):
    """A titled message with an OK button; ``escape`` or ``enter`` closes it.

    The body scrolls from the keyboard while OK has the focus (``↑↓ PgUp PgDn Home End``: an
    event's record at 80×24 was longer than the dialog and only the mouse could move it), and
    the dialog has its own key line: the main screen's showed through it, listing keys that
    do nothing here ("⏎ Open row  T Conversation")."""

    BINDINGS = [Binding("escape,enter", "close", "Close", id="dialog.close"),
                Binding("down", "scroll_body('down')", "Scroll", show=False),
                Binding("up", "scroll_body('up')", "Scroll up", show=False),
                Binding("pagedown", "scroll_body('page_down')", "Page down", show=False),
                Binding("pageup", "scroll_body('page_up')", "Page up", show=False),
                Binding("home", "scroll_body('home')", "Top", show=False),
                Binding("end", "scroll_body('end')", "End", show=False)]
    DEFAULT_CLASSES = "message-dialog"
    # Focus by selector when the screen shows, not by a query in ``on_mount``: a dialog pushed
    # while the app was closing (a follow's last look refused as the test ended) mounted none of
    # its children, and ``query_one("#dialog-ok")`` raised NoMatches over the app's exit.
    AUTO_FOCUS = "#dialog-ok"

    def __init__(self, title: str, body: str | Content, *, error: bool = False) -> None:
        super().__init__()
        self.dialog_title = title
        self.body = body
        self.error = error
        self._body_box = VerticalScroll(id="dialog-body")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="error" if self.error else ""):
            yield Static(plain(self.dialog_title), id="dialog-title")
            with self._body_box:
                yield Static(plain(self.body) if isinstance(self.body, str) else self.body)
            yield Button("OK", id="dialog-ok", variant="error" if self.error else "primary")
        yield KeysFooter()

    # What the dialog draws around its body: border 2, padding 2, title 2, the OK button 4, the key line 1.
    _AROUND_BODY = 11

    def on_mount(self) -> None:
        self._fit_body()

    def on_resize(self) -> None:
        self._fit_body()

    def _fit_body(self) -> None:
        """The body ends above the OK button: with a fixed 30-line cap, at 80×24 an event's
        record ran on under the docked button and its lines showed through it."""
        room = self.size.height * 9 // 10 - self._AROUND_BODY
        self._body_box.styles.max_height = max(3, min(30, room))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_scroll_body(self, how: str) -> None:
        getattr(self._body_box, f"scroll_{how}")(animate=False)


class WholeDetailDialog(MessageDialog):
    """A channel's detail (``i``) as wide as the terminal: ids, hashes and paths the narrow
    channel folded or cut around ``…`` read here in one piece (a sha256 digest needs 71 columns)."""

    DEFAULT_CLASSES = "message-dialog whole-detail"


def error_dialog(error: BaseException) -> MessageDialog:
    """The one way an error reaches a person in the app: its sentence, never a traceback. A
    fault of the store's disk or file (full, locked, failing) is said as what it is."""
    error = store_error(error) or error
    if isinstance(error, InspectorError):
        return MessageDialog(f"Cannot do that ({error.code})", error.message, error=True)
    return MessageDialog("Something went wrong",
                         f"{type(error).__name__}: {error}\n\nNothing was changed by the failed step.", error=True)


def refusal_dialog(refusal: Refusal, doing: str) -> MessageDialog:
    """A refusal of an act (``doing``: "Cannot accept h-good") with its stable code and its sentence."""
    return MessageDialog(f"{doing} ({refusal.code})", f"{refusal.message}\n\nNothing was changed.", error=True)


class ShowsWorkerErrors:
    """The one handler that turns a failed worker into an error dialog (Harlequin's pattern).

    Worker state messages do not bubble, so each screen that runs workers mixes this in.
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.app.push_screen(error_dialog(event.worker.error))  # type: ignore[attr-defined]
