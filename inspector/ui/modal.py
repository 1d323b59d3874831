"""The base of the dialogs that act on a session (Harlequin's modal pattern), on top of the
one base of every dialog (``dialog_base.Dialog``: escape closes, notices said inside it):

- the context they act in: ``store``, ``session``, ``reviewer``;
- a load worker: ``on_mount`` runs :meth:`read` in a worker (errors reach the error dialog
  through :class:`ShowsWorkerErrors`), so a dialog paints at once and fills in;
- a status line: :meth:`status` writes the ``#<STATUS_ID>`` line (what ``a`` would do, or why not);
- dismissal: ``escape`` closes with :meth:`close_value` (whether something was decided);
- refusals: :meth:`refuse` shows the refusal's code and sentence in a dialog of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

from textual import work
from textual.content import Content
from textual.widgets import Static

from inspector.domain.errors import InspectorError, Refusal
from inspector.ui.dialog_base import Dialog
from inspector.ui.dialogs import ShowsWorkerErrors, refusal_dialog
from inspector.ui.safe import markup

if TYPE_CHECKING:
    from inspector.store.connection import Store

ResultT = TypeVar("ResultT")


class InspectorModal(ShowsWorkerErrors, Dialog[ResultT], Generic[ResultT]):
    STATUS_ID = ""  # the id of the status line, when the dialog has one
    BODY_ID = ""  # the id of the text that says "loading…" until read() fills it

    def __init__(self, store: Store, session: str, reviewer: str) -> None:
        super().__init__()
        self.store, self.session, self.reviewer = store, session, reviewer

    def on_mount(self) -> None:
        self.load()

    @work(group="dialog-load", exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        """A failed read reaches the error dialog and leaves its sentence in the dialog: the body
        said "loading…" for ever once the error dialog was closed."""
        try:
            await self.read()
        except Exception as error:
            if self.BODY_ID:
                said = error.message if isinstance(error, InspectorError) else f"{type(error).__name__}: {error}"
                self.query_one(f"#{self.BODY_ID}", Static).update(
                    markup("[$error]Could not be read: $m[/]\n[dim]Nothing was changed; escape closes.[/]", m=said))
            raise

    async def read(self) -> None:
        """Read what the dialog shows (in the load worker)."""

    def status(self, content: Content | str) -> None:
        if self.STATUS_ID:
            self.query_one(f"#{self.STATUS_ID}", Static).update(content)

    def refuse(self, refusal: Refusal, doing: str) -> None:
        """Say a refusal as the app says every refusal: a dialog with its code and sentence
        (a toast was cut at 80×24 and gone after eight seconds)."""
        self.app.push_screen(refusal_dialog(refusal, doing))
