"""The one base every dialog extends: ``escape`` closes it, and what the app says while it is
open is said inside it, never over it.

Textual's toasts sit at the bottom right of the active screen for five seconds. Over a dialog
they covered its status line and buttons at every size (the dialogs are 85–92% wide), and at
80×24 a toast moved to the top was cut after two lines ("Cannot accept cand-orders
(unknowns_mismatch): the candidate's … …"). So while a dialog is open a notice is a line of its
own docked at the dialog screen's top (``NoticeLine``): the dialog gives up those rows while
it shows, nothing of it is covered, and the sentence wraps whole (three lines at most). A toast
still on screen when a dialog opens moves into that line, and a notice still showing when the
dialog closes goes on to the screen beneath (an act's "Accepted …" said just before closing
is not lost with the dialog). A greyed key pressed says why (greyed_keys.py).

``escape`` does not close a dialog while its decision is being written (store-fault-six):
a write waits up to the busy timeout for a store another program holds, with the dialog
unchanged, and escape then cancelled the dialog's worker — the accept (or correction, handoff,
deletion) was silently not made, and nothing said so. Now escape says the write is still
under way; the dialog closes once it is done or refused (within the busy timeout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen
from textual.worker import Worker, active_worker

from inspector.ui.greyed_keys import SaysWhyGreyed
from inspector.ui.widgets.notice_line import NoticeLine

if TYPE_CHECKING:
    from textual.await_complete import AwaitComplete

ResultT = TypeVar("ResultT")

# The worker groups that write a reviewer's act (cancelling one mid-wait drops the act).
WRITING_GROUPS = frozenset({"review-decide", "correct", "handoff-decide", "reconcile", "decide", "deletion-do",
                            "request-deletion"})


class Dialog(SaysWhyGreyed, ModalScreen[ResultT], Generic[ResultT]):
    BINDINGS = [Binding("escape", "close", "Close", id="dialog.close")]
    DEFAULT_CSS = """
    Dialog > NoticeLine {
        dock: top;
        width: 100%;
    }
    """

    def on_mount(self) -> None:
        """Runs beside each dialog's own ``on_mount`` (Textual calls every class's handler).

        A dialog pushed as the app closes is no longer attached when it mounts (its children
        were never mounted either): there is nothing to show, and mounting raised over the exit."""
        if not self.is_attached:
            return
        line = NoticeLine(id="dialog-notice")
        self.mount(line)
        live = list(self.app._notifications)  # a toast raised behind the dialog would show over it
        if live:
            newest = live[-1]
            self.app.clear_notifications()  # redraws this screen's toasts; the one beneath kept them
            for below in self.app.screen_stack[:-1]:
                for rack in below.query("ToastRack"):
                    rack.show(self.app._notifications)  # type: ignore[attr-defined]
            self.call_after_refresh(line.show, newest.message, title=newest.title, severity=newest.severity,
                                    timeout=newest.time_left)

    def notice_line(self) -> NoticeLine | None:
        found = self.query(NoticeLine)
        return found.first() if found else None

    def close_value(self) -> ResultT | None:
        return None

    def writing(self) -> Worker[Any] | None:
        """This dialog's act being written now (not the worker asking: one that closes its own dialog)."""
        asking = active_worker.get(None)
        for worker in self.app.workers:
            if worker.node is self and worker.group in WRITING_GROUPS and not worker.is_finished \
                    and worker is not asking:
                return worker
        return None

    def action_close(self) -> None:
        if self.writing() is not None:
            self.notify("Still writing: another program's write may hold the store (the wait is bounded). "
                        "Your act is then either made or refused, and said here; close the dialog after that.",
                        severity="warning")
            return
        self.dismiss(self.close_value())

    def dismiss(self, result: Any = None) -> AwaitComplete:
        """Close; a notice still showing goes on to the screen beneath for the time it had left."""
        line = self.notice_line()
        held = line.notice if line is not None else None
        done = super().dismiss(result)
        if held is not None and held.time_left > 0.5:
            self.app.notify(held.message, title=held.title, severity=held.severity, timeout=held.time_left)
        return done
