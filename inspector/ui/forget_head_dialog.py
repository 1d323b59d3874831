"""Asking before the app forgets the ledger head this machine remembers for the open store.

Forgetting is what a person does after restoring the store from a backup at the same path
(or copying another copy over it): the last good verify's head is then no longer in the
ledger, and verify reports it until the head is forgotten. It is also exactly what would
hide a history rewritten behind the tool, so it is never a side effect: this dialog says
which head is forgotten, when it was seen and what forgetting gives up, and only ``f`` (or
the Forget button) does it; ``escape`` leaves everything as it was.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from inspector.ui.dialog_base import Dialog
from inspector.ui.safe import plain
from inspector.ui.widgets.keys_footer import KeysFooter


class ForgetHeadDialog(Dialog[bool]):
    """Dismisses with True only when the person confirms."""

    BINDINGS = [Binding("f", "forget", "Forget", id="forget_head.forget"),
                Binding("escape", "cancel", "Cancel", id="forget_head.cancel")]
    DEFAULT_CSS = """
    ForgetHeadDialog { align: center middle; }
    ForgetHeadDialog #forget-head {
        width: 80%; max-width: 100; height: auto; border: thick $warning; background: $surface; padding: 1 2;
    }
    ForgetHeadDialog #forget-head-title { text-style: bold; margin-bottom: 1; }
    ForgetHeadDialog #forget-head-buttons { height: auto; margin-top: 1; }
    ForgetHeadDialog #forget-head-buttons Button { margin-right: 2; }
    """

    def __init__(self, store_name: str, head: dict[str, Any]) -> None:
        super().__init__()
        self.store_name = store_name
        self.head = head

    def compose(self) -> ComposeResult:
        seen = f" on {self.head['at']}" if self.head.get("at") else ""
        body = (f"The last good verify of {self.store_name} on this machine{seen} saw its ledger reach entry "
                f"{self.head['seq']} (hash {str(self.head['hash'])[:12]}…). Verify compares every later run with "
                "that head, so a history rewritten behind the tool shows.\n\n"
                "Forget it only if you replaced the file on purpose — restored it from a backup, or copied "
                "another copy of the store over it. Verify then runs at once and remembers the head it finds; "
                "an edit made before now can no longer be told from the restore.\n\n"
                "If you did not replace the file, cancel and restore a copy you trust.")
        with Vertical(id="forget-head"):
            yield Static(plain("Forget the remembered ledger head?"), id="forget-head-title")
            yield Static(plain(body), id="forget-head-body")
            with Horizontal(id="forget-head-buttons"):
                yield Button("Forget and verify (f)", id="forget-head-yes", variant="warning")
                yield Button("Cancel (esc)", id="forget-head-no", variant="primary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#forget-head-no", Button).focus()  # enter on the default does nothing harmful

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "forget-head-yes")

    def action_forget(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
