"""Reconciling an action whose outcome is unknown: what checking the effect showed, the
evidence that shows it, and why. Recorded as an ``action.reconcile`` ledger entry.

| key | action |
|---|---|
| ↑ ↓ / space | choose the outcome (succeeded, failed, not_done) |
| tab | move to evidence, then reason |
| enter (in reason) / ctrl+s | reconcile |
| escape | cancel |
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Footer, Input, RadioButton, RadioSet, Static

from inspector.domain.reconcile import RECONCILED_STATUSES
from inspector.services.reconciling import ActionRow, reconcile
from inspector.store.connection import Store
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, safe


class ReconcileDialog(InspectorModal[bool]):
    """Returns True once the reconciliation is recorded."""

    DEFAULT_CSS = """
    ReconcileDialog { align: center middle; }
    ReconcileDialog #reconcile {
        width: 80%; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 1 2;
    }
    ReconcileDialog RadioSet { width: 100%; }
    ReconcileDialog #reconcile-result { height: auto; }
    """
    BINDINGS = [Binding("ctrl+s", "submit", "Reconcile", id="reconcile.submit"),
                Binding("escape", "close", "Cancel", id="dialog.close")]
    STATUS_ID = "reconcile-result"

    def __init__(self, store: Store, session: str, action: ActionRow, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.action = action

    def compose(self) -> ComposeResult:
        a = self.action
        with Vertical(id="reconcile"):
            yield Static(markup(
                "[b]Reconcile $id[/b] ($intent) · now [b $accent]$st[/] · as $who\n[dim]An unknown outcome changes only "
                "on evidence that shows the effect (evt:N or a stored material), never on a guess.[/]",
                id=a.id, intent=a.intent or "no intent recorded", st=a.status, who=self.reviewer))
            with RadioSet(id="reconcile-status"):
                for status in RECONCILED_STATUSES:  # none chosen in advance: the outcome is the person's call
                    yield RadioButton(status, id=f"reconcile-{status}")
            yield Input(safe(a.result_ref or ""), placeholder="evidence: evt:N or material id that shows the effect",
                        id="reconcile-evidence")
            yield Input(placeholder="reason (recorded in the ledger; enter reconciles)", id="reconcile-reason",
                        select_on_focus=False)
            yield Static("", id="reconcile-result")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(RadioSet).focus()  # nothing to load: the action row came with the dialog

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "reconcile-evidence":
            self.query_one("#reconcile-reason", Input).focus()
        else:
            self.action_submit()

    def chosen_status(self) -> str | None:
        pressed = self.query_one(RadioSet).pressed_button
        return str(pressed.label) if pressed is not None else None

    @work(group="reconcile", exclusive=True, exit_on_error=False)
    async def action_submit(self) -> None:
        evidence = self.query_one("#reconcile-evidence", Input).value.strip()
        reason = self.query_one("#reconcile-reason", Input).value.strip()
        if not reason:
            self.status(markup("[$warning]A reconciliation needs a reason.[/]"))
            self.query_one("#reconcile-reason", Input).focus()
            return
        status = self.chosen_status()
        if status is None:
            self.status(markup("[$warning]Choose what checking the effect showed: succeeded, failed or "
                               "not_done.[/]"))
            self.query_one(RadioSet).focus()
            return
        result = await reconcile(self.store, self.action.id, status=status, evidence=evidence,
                                 reason=reason, actor=self.reviewer, session=self.session)
        if result.refusals:
            self.status(Content("\n").join(markup("[b $error]$c[/] $m", c=r.code, m=r.message)
                                           for r in result.refusals))
            return
        self.notify(safe(f"{result.action}: {result.old_status} → {result.status} on {result.evidence} "
                         f"(ledger L{result.ledger_seq}, {result.role} {result.actor})."), markup=False)
        self.dismiss(True)

    def close_value(self) -> bool:
        return False
