"""Checking and accepting one handoff: the checklist, then ``a`` to accept.

| key | action |
|---|---|
| a | accept (only when every check passes) |
| escape | close |
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from inspector.domain.handoff import HandoffCheck
from inspector.services import handoffs
from inspector.store.connection import Store
from inspector.ui.dialogs import ShowsWorkerErrors


def checklist_content(result: HandoffCheck) -> Content:
    lines = [Content.from_markup("[b]Handoff $h[/b] · $v", h=result.handoff,
                                 v="acceptable" if result.acceptable else "refused")]
    for c in result.checks:
        mark = "[$success]✓[/]" if c.ok else "[b $error]✗[/]"
        lines.append(Content.from_markup(f"{mark} [b]$n[/b]  $m", n=c.name, m=c.message)
                     + (Content("") if c.ok else Content.from_markup("  [dim]$c[/]", c=c.code)))
    return Content("\n").join(lines)


class HandoffDialog(ShowsWorkerErrors, ModalScreen[str | None]):
    """Returns the new session's id once accepted (the screen behind opens it)."""

    BINDINGS = [Binding("a", "accept", "Accept handoff", id="handoff.accept"),
                Binding("escape", "close", "Close", id="handoff.close")]

    def __init__(self, store: Store, session: str, handoff: str, reviewer: str) -> None:
        super().__init__()
        self.store, self.session, self.handoff, self.reviewer = store, session, handoff, reviewer
        self.result: HandoffCheck | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            with VerticalScroll():
                yield Static(Content.from_markup("[dim]checking…[/]"), id="handoff-text")
            yield Static("", id="handoff-status")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(group="handoff-load", exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        self.result = await handoffs.check(self.store, self.handoff, self.session)
        self.query_one("#handoff-text", Static).update(checklist_content(self.result))
        status = self.query_one("#handoff-status", Static)
        if self.result.acceptable:
            status.update(Content.from_markup("[$success]a accepts[/] and opens the new session · as $r", r=self.reviewer))
        else:
            status.update(Content.from_markup("[b $error]accept is disabled:[/] $m", m=self.result.refusals[0].message))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "accept":
            return True if self.result is not None and self.result.acceptable and not self.store.read_only else None
        return True

    @work(group="handoff-decide", exclusive=True, exit_on_error=False)
    async def action_accept(self) -> None:
        decision = await handoffs.accept(self.store, self.handoff, actor=self.reviewer, session=self.session)
        if decision.new_session is None:
            self.result = decision.check
            self.notify(decision.check.refusals[0].message, severity="error", timeout=8)
            return
        self.notify(f"Accepted {self.handoff}: new session {decision.new_session}.")
        self.dismiss(decision.new_session)

    def action_close(self) -> None:
        self.dismiss(None)
