"""Modal dialogs: errors and plain reports. Each returns through ``dismiss``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.worker import Worker, WorkerState

from inspector.domain.errors import InspectorError
from inspector.ui.safe import plain


class MessageDialog(ModalScreen[None]):
    """A titled message with an OK button; ``escape`` or ``enter`` closes it."""

    BINDINGS = [Binding("escape,enter", "close", "Close", id="dialog.close")]
    DEFAULT_CLASSES = "message-dialog"

    def __init__(self, title: str, body: str | Content, *, error: bool = False) -> None:
        super().__init__()
        self.dialog_title = title
        self.body = body
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="error" if self.error else ""):
            yield Static(plain(self.dialog_title), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(plain(self.body) if isinstance(self.body, str) else self.body)
            yield Button("OK", id="dialog-ok", variant="error" if self.error else "primary")

    def on_mount(self) -> None:
        self.query_one("#dialog-ok", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def error_dialog(error: BaseException) -> MessageDialog:
    """The one way an error reaches a person in the app: its sentence, never a traceback."""
    if isinstance(error, InspectorError):
        return MessageDialog(f"Cannot do that ({error.code})", error.message, error=True)
    return MessageDialog("Something went wrong",
                         f"{type(error).__name__}: {error}\n\nNothing was changed by the failed step.", error=True)


class ShowsWorkerErrors:
    """The one handler that turns a failed worker into an error dialog (Harlequin's pattern).

    Worker state messages do not bubble, so each screen that runs workers mixes this in.
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self.app.push_screen(error_dialog(event.worker.error))  # type: ignore[attr-defined]
