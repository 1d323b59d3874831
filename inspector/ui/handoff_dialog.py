"""Checking and accepting one handoff: the checklist, then ``a`` to accept.

| key | action |
|---|---|
| a | accept (only when every check passes and the reviewer may: the session's owner; greyed otherwise, and pressed it says why in a dialog) |
| u | reconcile the next unknown action of the session (evidence and reason) |
| escape | close |
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Static

from inspector.domain.errors import Refusal
from inspector.domain.handoff import Check, HandoffCheck
from inspector.services import handoffs, reconciling
from inspector.services.reconciling import ActionRow
from inspector.store.connection import Store
from inspector.ui.hanging import hanging
from inspector.ui.modal import InspectorModal
from inspector.ui.reconcile_dialog import ReconcileDialog
from inspector.ui.safe import markup, safe


def checklist_content(result: HandoffCheck) -> Content:
    lines = [markup("[b]Handoff $h[/b] · $v", h=result.handoff,
                    v="acceptable" if result.acceptable else "refused")]
    for c in result.checks:
        mark = "[$success]✓[/]" if c.ok else "[b $error]✗[/]"
        lines.append(markup(f"{mark} [b]$n[/b]  $m", n=c.name, m=c.message)
                     + (Content("") if c.ok else markup("  [dim]$c[/]", c=c.code)))
    return Content("\n").join(lines)


def handed_over_content(sections: list[tuple[str, list[str]]], carried: list[tuple[str, str, str]]) -> Content:
    """What accepting hands over (the check once showed nothing of it: issue 15, 7)."""
    lines = [markup("\n[b]HANDED OVER[/b] [dim](the new session's first task input)[/]")]
    for title, items in sections:
        lines.append(markup("[b]$t[/b]", t=title) if items else markup("[b]$t[/b] [dim]none[/]", t=title))
        lines += [markup("  • $i", i=item) for item in items]
    lines.append(markup("[b]Records the new session keeps[/b] [dim](besides the exact fields)[/]"))
    lines += [markup("  • $k [dim]($kind)[/]: $v", k=k, kind=kind, v=v) for k, kind, v in carried] or [
        markup("  [dim]none[/]")]
    return Content("\n").join(lines)


def actions_content(rows: list[ActionRow], listed_unknown: list[str]) -> Content:
    """The old session's unknown outcomes (u reconciles the first), and those settled since."""
    lines = [markup("\n[b]UNKNOWN ACTIONS[/b] [dim](an unknown effect is carried, never written off)[/]")]
    unknown = [a for a in rows if a.status in ("unknown", "in_flight")]
    for a in unknown:
        lines.append(markup("[$accent]? $id[/] $st · $intent", id=a.id, st=a.status,
                                         intent=a.intent or ""))
    if unknown:
        lines.append(markup("[dim]u reconciles $id after you checked its effect[/]", id=unknown[0].id))
    else:
        lines.append(markup("[$success]none[/]"))
    for a in rows:
        s = a.settled_by
        if s is None:
            continue
        note = " — the material still lists it as unknown" if a.id in listed_unknown else ""
        lines.append(markup("[$success]✓ $id[/] reconciled → $st by $who ($role) on $ev: $why$note",
                                         id=a.id, st=a.status, who=s["actor"], role=s["role"] or "",
                                         ev=s["evidence"], why=s["reason"], note=note))
    return Content("\n").join(lines)


class HandoffDialog(InspectorModal[str]):
    """Returns the new session's id once accepted (the screen behind opens it)."""

    BINDINGS = [Binding("a", "accept", "Accept handoff", id="handoff.accept"),
                Binding("u", "reconcile", "Reconcile unknown", id="handoff.reconcile")]
    STATUS_ID = "handoff-status"
    BODY_ID = "handoff-text"

    def __init__(self, store: Store, session: str, handoff: str, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.handoff = handoff
        self.result: HandoffCheck | None = None
        self.owner_check: Check | None = None  # may this reviewer accept (read with the checks)
        self.unknown: list[ActionRow] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="handoff"):
            with VerticalScroll():
                yield Static(markup("[dim]checking…[/]"), id="handoff-text")
            yield Static("", id="handoff-status")
        yield Footer()

    async def read(self) -> None:
        self.result = await handoffs.check(self.store, self.handoff, self.session)
        self.owner_check = await handoffs.may_accept(self.store, self.handoff, self.reviewer, self.session)
        rows = await reconciling.list_actions(self.store, self.session)
        listed = await handoffs.listed_unknowns(self.store, self.handoff, self.session)
        self.unknown = [a for a in rows if a.status in ("unknown", "in_flight")]
        sections, carried = await handoffs.preview(self.store, self.handoff, self.session)
        # hanging(): a check's sentence continues under the check, not at the dialog's edge under its ✓
        self.query_one("#handoff-text", Static).update(hanging(checklist_content(self.result)
                                                               + handed_over_content(sections, carried)
                                                               + actions_content(rows, listed)))
        if self.result.acceptable and self.owner_check.ok:
            self.status(markup("[$success]a accepts[/] and opens the new session · as $r", r=self.reviewer))
        else:
            why = self.result.refusals[0].message if not self.result.acceptable else self.owner_check.message
            self.status(markup("[b $error]accept is disabled:[/] $m", m=why))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "accept":  # greyed for a reviewer who may not accept (was offered, then refused: not_owner)
            return True if (self.result is not None and self.result.acceptable and self.owner_check is not None
                            and self.owner_check.ok and not self.store.read_only) else None
        if action == "reconcile":
            return True if self.unknown and not self.store.read_only else None
        return True

    def why_greyed(self, action: str) -> tuple[str, Refusal] | None:
        """``a`` for a reviewer who may not accept (``not_owner``), on a refused handoff or a
        read-only store: pressed, it says so (it did nothing visible: issue 15's re-check)."""
        if action == "reconcile" and self.unknown and self.store.read_only:
            return "Cannot reconcile", Refusal("read_only", f"the store is read-only ({self.store.read_only_reason}).")
        if action != "accept" or self.result is None or self.owner_check is None:
            return None
        doing = f"Cannot accept {self.handoff}"
        if self.store.read_only:
            return doing, Refusal("read_only", f"the store is read-only ({self.store.read_only_reason}).")
        if not self.result.acceptable:
            return doing, self.result.refusals[0]
        if not self.owner_check.ok:
            return doing, Refusal(self.owner_check.code, self.owner_check.message)
        return None

    @work(group="handoff-decide", exclusive=True, exit_on_error=False)
    async def action_accept(self) -> None:
        decision = await handoffs.accept(self.store, self.handoff, actor=self.reviewer, session=self.session)
        if decision.new_session is None:  # the session moved on while the dialog was open
            self.result = decision.check
            self.refuse(decision.check.refusals[0], f"Cannot accept {self.handoff}")
            self.refresh_bindings()
            return
        self.notify(safe(f"Accepted {self.handoff}: new session {decision.new_session}."), markup=False)
        self.dismiss(decision.new_session)

    def action_reconcile(self) -> None:
        if not self.unknown:
            return

        def done(recorded: bool | None) -> None:
            if recorded:
                self.load()

        self.app.push_screen(ReconcileDialog(self.store, self.session, self.unknown[0], self.reviewer), done)
