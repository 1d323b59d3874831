"""A deletion request: every copy it covers, then carry it out after typing its id.

| key | action |
|---|---|
| x | carry it out (asks for the request id first) |
| escape | close |
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from inspector.domain.deletion import NOT_CHECKED
from inspector.services import deletions
from inspector.services.deletions import Coverage
from inspector.store.connection import Store
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, safe


def coverage_content(cov: Coverage) -> Content:
    lines = [markup("[b]Deletion request $r[/b] ($s) · $n cop(ies)", r=cov.request, s=cov.status,
                    n=str(len(cov.copies)))]
    if cov.kept and cov.status == "pending":  # first: why `x` is greyed, before a long list of copies
        lines += [markup("[b $error]$n cop(ies) cannot be removed, so carrying it out is refused (copy_kept):[/]",
                         n=str(len(cov.kept)))]
        lines += [markup("  [$error]■[/] $why", why=k["why"]) for k in cov.kept]
        lines += [markup("  To remove it: $way", way=way)
                  for way in dict.fromkeys(k.get("remedy", "") for k in cov.kept) if way]
    lines += [markup("  [$error]✕[/] [b]$w[/b] $id  [dim]$why[/]", w=c.where, id=c.id, why=c.why)
              for c in cov.copies]
    lines += [markup("  [$accent]? $m[/] not found: already deleted, or never stored", m=m)
              for m in cov.missing]
    lines += [markup("  [b $warning]! $w[/]", w=w) for w in cov.warnings]
    lines += [markup("[dim]Not checked (copies there may remain):[/]")]
    lines += [markup("[dim]  · $n[/]", n=n) for n in NOT_CHECKED]
    return Content("\n").join(lines)


class ConfirmDeletion(ModalScreen[bool | None]):
    """True: the id typed matches; False: it does not; None: cancelled (escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="confirm.cancel")]

    def __init__(self, request: str, copies: int) -> None:
        super().__init__()
        self.request, self.copies = request, copies

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(markup("This removes [b]$n[/b] cop(ies) for good. Type [b]$r[/b] to confirm.",
                                n=str(self.copies), r=self.request))
            yield Input(placeholder=safe(self.request), id="confirm-input")
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        typed = event.value.strip()  # the id as shown (escapes made visible) is what a person can type
        self.dismiss(typed in (self.request.strip(), safe(self.request).strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)


class DeletionDialog(InspectorModal[bool]):
    """Returns True once the request was carried out (the screen behind reloads)."""

    BINDINGS = [Binding("x", "carry_out", "Carry out", id="deletion.carry_out")]
    BODY_ID = "deletion-text"

    def __init__(self, store: Store, session: str, request: str, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.request = request
        self.coverage: Coverage | None = None
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(id="deletion"):
            with VerticalScroll():
                yield Static(markup("[dim]finding copies…[/]"), id="deletion-text")
        yield Footer()

    async def read(self) -> None:
        self.coverage = await deletions.check(self.store, self.request, self.session)
        self.query_one("#deletion-text", Static).update(coverage_content(self.coverage))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "carry_out":
            if self.coverage is not None and self.coverage.kept:
                return False  # shown, greyed: a copy would stay (the dialog says which)
            return True if (self.coverage is not None and self.coverage.status == "pending"
                            and not self.store.read_only) else None
        return True

    def action_carry_out(self) -> None:
        if self.coverage is None:
            return

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.run_worker(self._carry_out(), group="deletion-do", exclusive=True, exit_on_error=False)
            elif ok is None:  # escape: said as what it was, not as a typing mistake
                self.notify("Not deleted: cancelled.", severity="information")
            else:
                self.notify("Not deleted: the id did not match.", severity="warning")

        self.app.push_screen(ConfirmDeletion(self.request, len(self.coverage.copies)), confirmed)

    async def _carry_out(self) -> None:
        listed = len(self.coverage.copies) if self.coverage is not None else 0
        result = await deletions.delete(self.store, self.request, actor=self.reviewer, session=self.session)
        if result.refusals:
            self.notify(safe(result.refusals[0].message), severity="error", markup=False)
        else:
            self.done = True
            # The count the confirmation named: the rows removed alone ("Deleted 4") left out the
            # search entry and the reason removed with them, and read as two copies kept.
            self.notify(f"Carried out {safe(self.request)}: {listed} cop{'y' if listed == 1 else 'ies'} removed "
                        "or rewritten; the ledger keeps a tombstone.", markup=False)
        self.coverage = result.coverage
        self.query_one("#deletion-text", Static).update(coverage_content(result.coverage))
        self.refresh_bindings()

    def close_value(self) -> bool:
        return self.done
