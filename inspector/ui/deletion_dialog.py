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
from textual.widgets import Footer, Input, Static

from inspector.domain.deletion import NOT_CHECKED
from inspector.domain.errors import Refusal
from inspector.domain.terminal_safe import inert
from inspector.services import deletions
from inspector.services.deletion_gone import removed_sentence
from inspector.services.deletion_names import one_remedy
from inspector.services.deletions import Coverage
from inspector.store.connection import Store
from inspector.ui.dialog_base import Dialog
from inspector.ui.hanging import HangingLines, hanging
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, safe
from inspector.ui.widgets.deletions_list import copies_said


def _gone(cov: Coverage, target: str) -> Content:
    """A target that is no longer stored, named by the deletion that removed it when one did."""
    by = cov.gone_by.get(target)
    if by is None:
        return markup("  [$accent]? $m[/] not found: never stored, or deleted before the ledger said what it removed",
                      m=target)
    whose = "this request" if by["request"] == cov.request else f"request {by['request']}"
    return markup("  [dim]✓ $m gone: deleted by ledger entry L$l ($w)[/]", m=target, l=str(by["ledger"]), w=whose)


def coverage_content(cov: Coverage) -> Content:
    if cov.status == "done":  # in the past tense (review-15 item 5): the warnings said "before carrying it out"
        lines = [markup("[b]Deletion request $r[/b] (done) · carried out: only the ledger's tombstone remains", r=cov.request)]
        if cov.copies:
            lines.append(markup("$n hold its values now (imported since): a new request removes them",
                                n=copies_said(len(cov.copies))))
        said = removed_sentence(cov.removed)  # not only the targets: everything that went with them (review-18)
        if said:
            lines.append(markup("  $s", s=said))
    else:
        lines = [markup("[b]Deletion request $r[/b] ($s) · $n", r=cov.request, s=cov.status,
                        n=copies_said(len(cov.copies)))]
    if cov.kept and cov.status == "pending":  # first: why `x` is greyed, before a long list of copies
        lines += [markup("[b $error]$n cannot be removed, so carrying it out is refused (copy_kept):[/]",
                         n=copies_said(len(cov.kept)))]
        lines += [markup("  [$error]■[/] $why", why=k["why"]) for k in cov.kept]
        lines.append(markup("  To remove $them: $way", them="them" if len(cov.kept) > 1 else "it",
                            way=one_remedy(cov.session, cov.kept)))
    # the warnings before the list, as the refusal above: what to read before `x` (a record left without
    # evidence, a boilerplate line that takes other events with it) was last, under dozens of copies
    lines += [markup("  [b $warning]! $w[/]", w=w) for w in cov.warnings]
    lines += [markup("  [$error]✕[/] [b]$w[/b] $id  [dim]$why[/]", w=c.where, id=c.id, why=c.why)
              for c in cov.copies]
    lines += [_gone(cov, m) for m in cov.missing]
    lines += [markup("[dim]Not checked (copies there may remain):[/]")]
    lines += [markup("[dim]  · $n[/]", n=n) for n in NOT_CHECKED]
    return Content("\n").join(lines)


def coverage_lines(cov: Coverage) -> HangingLines:
    """The coverage with each item's text continuing under its own text, not at the dialog's edge
    under the ✕ of the next copy (at 80 columns "search text; a tombstone row stays)" read as an item)."""
    return hanging(coverage_content(cov))


class ConfirmDeletion(Dialog[bool | None]):
    """True: the id typed matches; False: it does not; None: cancelled (escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="confirm.cancel")]

    def __init__(self, request: str, copies: int) -> None:
        super().__init__()
        self.request, self.copies = request, copies

    def compose(self) -> ComposeResult:
        # Three short lines, each a sentence of its own: at 80×24 one sentence wrapped in a 48-column
        # box broke the id to be typed from "Type" ("…for good. Type" / "del-1 to confirm.").
        with Vertical(id="confirm"):
            yield Static(markup("[b]Carry out $r?[/b]", r=self.request))
            yield Static(markup("It removes [b]$n[/b] for good; the ledger keeps a tombstone, never the content.",
                                n=copies_said(self.copies)))
            yield Static(markup("Type [b]$r[/b] and press enter · [dim]escape cancels[/]", r=self.request))
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
    STATUS_ID = "deletion-status"

    def __init__(self, store: Store, session: str, request: str, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.request = request
        self.coverage: Coverage | None = None
        self.done = False

    def compose(self) -> ComposeResult:
        with Vertical(id="deletion"):
            with VerticalScroll():
                yield Static(markup("[dim]finding copies…[/]"), id="deletion-text")
            yield Static("", id="deletion-status")
        yield Footer()

    def _status(self) -> None:
        """What ``x`` does now, or why it is greyed, below the list (as the handoff dialog says it)."""
        said = self.why_greyed("carry_out")
        if self.coverage is None:
            return
        if said is None:
            self.status(markup("[$error]x carries it out[/] after you type its id · as $r", r=self.reviewer))
        elif said[1].code == "already_decided":
            self.status(markup("[dim]carried out: only the ledger's tombstone remains[/]"))
        else:
            self.status(markup("[b $error]carrying out is disabled ($c):[/] $m", c=said[1].code,
                               m=said[1].message if said[1].code != "copy_kept" else "a copy would stay (listed above)"))

    async def read(self) -> None:
        self.coverage = await deletions.check(self.store, self.request, self.session)
        self.query_one("#deletion-text", Static).update(coverage_lines(self.coverage))
        self._status()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "carry_out":  # greyed while a copy would stay (the dialog says which), decided or read-only
            return True if (self.coverage is not None and self.coverage.status == "pending" and not self.coverage.kept
                            and not self.store.read_only) else None
        return True

    def why_greyed(self, action: str) -> tuple[str, Refusal] | None:
        """``x`` pressed while greyed says why (it did nothing: issue 15's re-check)."""
        if action != "carry_out" or self.coverage is None:
            return None
        doing = f"Cannot carry out {self.request}"
        if self.store.read_only:
            return doing, Refusal("read_only", f"the store is read-only ({self.store.read_only_reason}).")
        if self.coverage.status != "pending":
            return doing, Refusal("already_decided", f"deletion request {inert(self.request)} was already carried out.")
        if self.coverage.kept:
            return doing, deletions.kept_refusal(self.request, self.coverage)
        return None

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
            self.refuse(result.refusals[0], f"Cannot carry out {self.request}")
        else:
            self.done = True
            # The count the confirmation named: the rows removed alone ("Deleted 4") left out the
            # search entry and the reason removed with them, and read as two copies kept.
            self.notify(f"Carried out {safe(self.request)}: {copies_said(listed)} removed "
                        "or rewritten; the ledger keeps a tombstone.", markup=False)
        # once carried out, what the store holds now (done, in the past tense), not the list read before
        self.coverage = result.coverage if result.refusals else await deletions.check(self.store, self.request,
                                                                                     self.session)
        self.query_one("#deletion-text", Static).update(coverage_lines(self.coverage))
        self._status()
        self.refresh_bindings()

    def close_value(self) -> bool:
        return self.done
