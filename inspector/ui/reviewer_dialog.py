"""Asks once who is reviewing, before the first act that writes (DESIGN §8: every write names
a reviewer). The answer is remembered in the user config directory and shown in the header.

| key | action |
|---|---|
| enter | use this name |
| escape | cancel: nothing is written |
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.validation import Function
from textual.widgets import Input, Static

from inspector.services.reviewer_name import name_problem
from inspector.ui.dialog_base import Dialog
from inspector.ui.safe import plain
from inspector.ui.widgets.keys_footer import KeysFooter


class ReviewerDialog(Dialog[str | None]):
    """Returns the name typed, or None when cancelled."""

    DEFAULT_CSS = """
    ReviewerDialog { align: center middle; }
    ReviewerDialog #reviewer-box {
        width: 64; max-width: 95%; height: auto;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    ReviewerDialog #reviewer-problem { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="reviewer.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="reviewer-box"):
            yield Static("[b]Who is reviewing?[/b]\nEvery confirmation, decision and correction is recorded in the "
                         "ledger under this name. It is remembered for next time (--reviewer or "
                         "INSPECTOR_REVIEWER override it).", id="reviewer-prompt")
            yield Input(placeholder="your name", id="reviewer-input",
                        validators=[Function(lambda v: name_problem(v) is None, "invalid name")])
            yield Static("", id="reviewer-problem")
        yield KeysFooter()  # its own keys: the main screen's showed through and did nothing here

    @on(Input.Submitted, "#reviewer-input")
    def use_name(self, event: Input.Submitted) -> None:
        event.stop()
        problem = name_problem(event.value)
        if problem is not None:
            self.query_one("#reviewer-problem", Static).update(plain(problem))
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
