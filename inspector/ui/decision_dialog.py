"""Deciding several marked pending records at once, after seeing exactly what will be decided.

The dialog lists every marked record that will be confirmed (or rejected) and every one the
reviewer may not decide, with the refusal's code and sentence; those stay pending. One
transaction decides the rest, one ledger entry per record.

| key | action |
|---|---|
| enter / ctrl+s | decide the listed records (the reason is optional) |
| escape | cancel: nothing is written |
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Input, Static

from inspector.domain.cell_width import fitted
from inspector.domain.trust import UNTRUSTED
from inspector.domain.vocabulary import OWNER_ONLY_KINDS
from inspector.services import confirmations
from inspector.services.channels import StateRecord
from inspector.services.confirmations import Refused
from inspector.store.connection import Store
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup
from inspector.ui.widgets.state_channel import status_mark

KEY_CELLS = 28  # a key's column in the plan: at 80 columns the dialog is 66 wide


def plan_content(records: list[StateRecord], refused: list[Refused], verb: str) -> Content:
    """What the dialog promises: the records left pending and why, then the ones it decides."""
    blocked = {(r.key, r.version) for r in refused}
    going = [r for r in records if (r.key, r.version) not in blocked]
    lines: list[Content] = []
    if refused:  # the exceptions first, so a long list cannot hide them
        lines.append(markup("[b $error]Left pending ($n):[/]", n=str(len(refused))))
        lines += [markup("  [$error]$c[/] $k v$v: $m", c=r.refusal.code, k=fitted(r.key, KEY_CELLS).rstrip(),
                                      v=str(r.version), m=r.refusal.message) for r in refused]
        lines.append(Content(""))
    lines.append(markup("[b]$verb $n:[/b]", verb=verb.capitalize(), n=str(len(going))))
    for r in going:
        lines.append(Content("  ") + status_mark(r.status)
                     # the key cut to one column (cell_width.fitted): a 58-character key took a line of its
                     # own at 80 columns and pushed its value under it (flow-19); the state channel's
                     # detail and --json keep it whole
                     + markup(" [b]$k[/b] v$v  $val  [dim]$kind · by $w[/]", k=fitted(r.key, KEY_CELLS), v=str(r.version),
                              val=r.value, kind=r.kind, w=r.writer or "unknown"))
        if verb == "confirm" and r.kind in OWNER_ONLY_KINDS and r.writer in UNTRUSTED:
            # `confirm --all-pending` leaves such a rule pending (confirm_by_key); here the owner
            # sees it listed, so it is said what it is: an instruction from a tool result, restated
            # by the model, reads like any other pending line
            lines.append(markup("    [$warning]⚠ the $w wrote this $kind, not the user: confirmed, it binds the agent[/]",
                                w=r.writer, kind=r.kind.replace("_", " ")))
    return Content("\n").join(lines)


class DecisionDialog(InspectorModal[bool]):
    """Confirm or reject ``records`` (all pending, marked in the state channel) as ``reviewer``."""

    DEFAULT_CSS = """
    DecisionDialog {
        align: center middle;
    }
    DecisionDialog #decide {
        width: 85%;
        max-width: 130;
        height: auto;
        max-height: 90%;
        border: thick $primary;
        background: $surface;
        padding: 1 2;
    }
    DecisionDialog #decide.reject {
        border: thick $warning;
    }
    DecisionDialog #decide-title {
        text-style: bold;
        margin-bottom: 1;
    }
    DecisionDialog #decide-plan {
        height: auto;
        max-height: 40vh;
    }
    DecisionDialog #decide-result {
        height: auto;
    }
    DecisionDialog #decide-buttons {
        height: auto;
        margin-top: 1;
    }
    DecisionDialog #decide-buttons Button {
        margin-right: 2;
    }
    """
    BINDINGS = [Binding("ctrl+s", "submit", "Decide", id="decide.submit"),
                Binding("escape", "close", "Cancel", id="dialog.close")]
    STATUS_ID = "decide-result"

    def __init__(self, store: Store, session: str, reviewer: str, records: list[StateRecord], refused: list[Refused],
                 *, reject: bool) -> None:
        super().__init__(store, session, reviewer)
        self.records, self.refused, self.reject = records, refused, reject
        self.verb = "reject" if reject else "confirm"

    def compose(self) -> ComposeResult:
        count = len(self.records) - len(self.refused)
        with Vertical(id="decide", classes="reject" if self.reject else ""):
            yield Static(markup("$verb $n of $total marked pending records as $who?", verb=self.verb.capitalize(),
                                n=str(count), total=str(len(self.records)), who=self.reviewer), id="decide-title")
            with VerticalScroll(id="decide-plan"):
                yield Static(plan_content(self.records, self.refused, self.verb))
            yield Input(placeholder="reason (optional; recorded in each ledger entry)", id="decide-reason",
                        select_on_focus=False)
            yield Static("", id="decide-result")
            with Horizontal(id="decide-buttons"):
                yield Button(f"{self.verb.capitalize()} {count} (enter)", id="decide-go",
                             variant="warning" if self.reject else "primary")
                yield Button("Cancel (escape)", id="decide-cancel")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#decide-reason", Input).focus()  # the plan came with the dialog: nothing to load

    @on(Button.Pressed, "#decide-go")
    @on(Input.Submitted)
    def submit_from_widget(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @on(Button.Pressed, "#decide-cancel")
    def cancel_button(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    @work(group="decide", exclusive=True, exit_on_error=False)
    async def action_submit(self) -> None:
        reason = self.query_one("#decide-reason", Input).value.strip()
        blocked = {(r.key, r.version) for r in self.refused}
        targets = [(r.key, r.version) for r in self.records if (r.key, r.version) not in blocked]
        outcome = await confirmations.decide_many(self.store, self.session, targets, actor=self.reviewer,
                                                  reject=self.reject, reason=reason)
        if not outcome.decided:  # someone else decided them meanwhile: say so, nothing was written
            self.status(markup(
                "[$error]$m[/]", m="\n".join(r.refusal.message for r in outcome.refused) + "\nNothing was written."))
            return
        done = "Confirmed" if not self.reject else "Rejected"
        first, last = outcome.ledger[0], outcome.ledger[-1]
        note = f"{done} {len(outcome.decided)} records (ledger L{first}–L{last}); context v{outcome.context_version}."
        left = len(outcome.refused) + len(self.refused)
        self.notify(note + (f" {left} left pending." if left else ""), severity="warning" if left else "information",
                    timeout=6)
        self.dismiss(True)

    def close_value(self) -> bool:
        return False
