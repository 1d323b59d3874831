"""Filing a deletion request for the selected timeline event or Raw evidence row.

What it shows before anything is written: the target, what the request will look for (how
many sensitive values and lines of the target — counted, never shown, as they are what is to
be deleted), the copies it covers now, and that filing deletes nothing: the request is then
listed on the Deletions tab, where ``x`` shows every copy again and carries it out. Filing is
the same service as ``inspector request-deletion`` (services/deletion_requests.py).

| key | action |
|---|---|
| enter (in the reason) / ctrl+s | file the request |
| tab | the reason code (`other` unless chosen: data_subject_request, secret_exposed, …) |
| escape | cancel (nothing written) |
"""

from __future__ import annotations

from collections import Counter

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Footer, Input, Select, Static

from inspector.domain.deletion import REASON_CODES
from inspector.domain.errors import InspectorError
from inspector.domain.plurals import counted as _n
from inspector.services import deletion_requests
from inspector.services.deletion_requests import Looked
from inspector.store.connection import Store
from inspector.ui.hanging import hanging
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, safe
from inspector.ui.widgets.deletions_list import copies_said

SHOWN_COPIES = 8  # copies listed one by one; the rest counted by where they are


def looked_for(looked: Looked) -> Content:
    """The preview: what is looked for, and where copies are now."""
    cov = looked.coverage
    lines = [markup("Looks for [b]$s[/b] (phone, e-mail, ID, card, address, key) and [b]$l[/b] "
                    "of the target long enough to be a copy, in every event, material, stub, record, summary, "
                    "candidate, handoff and name of this session, however a copy spells them.",
                    s=_n(looked.sensitive, "sensitive value"), l=_n(looked.lines, "line")),
             markup("It covers [b]$n[/b] now ($where):", n=copies_said(len(cov.copies)),
                    where=", ".join(f"{w} {n}" for w, n in Counter(c.where for c in cov.copies).items()) or "none")]
    lines += [markup("  [$error]✕[/] [b]$w[/b] $id  [dim]$why[/]", w=c.where, id=c.id, why=c.why)
              for c in cov.copies[:SHOWN_COPIES]]
    if len(cov.copies) > SHOWN_COPIES:
        lines.append(markup("  [dim]… and $n more (the Deletions tab lists every one)[/]",
                            n=str(len(cov.copies) - SHOWN_COPIES)))
    if cov.kept:
        lines.append(markup("[$error]$n cannot be removed (copy_kept): carrying it out will be refused until they "
                            "are; the Deletions tab says how.[/]", n=copies_said(len(cov.kept))))
    lines += [markup("  [$warning]! $w[/]", w=w) for w in cov.warnings]
    return Content("\n").join(lines)


class RequestDeletionDialog(InspectorModal[str | None]):
    """Returns the new request's id once filed; None when cancelled."""

    DEFAULT_CSS = """
    RequestDeletionDialog { align: center middle; }
    RequestDeletionDialog #request-deletion {
        width: 90%; height: auto; max-height: 90%;
        border: thick $error; background: $surface; padding: 0 1;
    }
    RequestDeletionDialog #request-deletion-scroll { height: auto; }
    /* a short terminal: the frame takes the screen and the copies scroll below the reason */
    RequestDeletionDialog.-short #request-deletion { height: 100%; max-height: 100%; }
    RequestDeletionDialog.-short #request-deletion-scroll { height: 1fr; }
    RequestDeletionDialog #request-deletion-result { height: auto; }
    RequestDeletionDialog #request-deletion-why { height: auto; }
    RequestDeletionDialog #request-deletion-reason { width: 1fr; margin: 0; }
    RequestDeletionDialog #request-deletion-code { width: 30; }
    RequestDeletionDialog #request-deletion-code SelectCurrent { border-title-color: $text-muted; }
    """
    BINDINGS = [Binding("ctrl+s", "submit", "File request", id="request_deletion.submit"),
                Binding("escape", "close", "Cancel", id="dialog.close")]
    BODY_ID = "request-deletion-text"
    STATUS_ID = "request-deletion-result"

    def __init__(self, store: Store, session: str, target: str, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.target = target

    def compose(self) -> ComposeResult:
        with Vertical(id="request-deletion"):
            yield Static(markup("[b]Request deletion of $t[/b] · session $s · as $who\n[dim]Filing deletes nothing: "
                                "the request is listed on the Deletions tab, where x carries it out. The ledger keeps "
                                "the targets and a keyed digest of the reason, never its text.[/]", t=self.target,
                                s=self.session, who=self.reviewer))
            # the reason first: at 80×24 a long list of copies above it pushed the field out of the frame
            with Horizontal(id="request-deletion-why"):
                yield Input(placeholder="reason: who asked for it and why (enter files the request)",
                            id="request-deletion-reason", select_on_focus=False)
                # the reason as a stable code, kept in the ledger as it is (the text only as a keyed digest)
                yield Select([(code, code) for code in REASON_CODES], value="other", allow_blank=False,
                             id="request-deletion-code")
            yield Static("", id=self.STATUS_ID)
            with VerticalScroll(id="request-deletion-scroll"):
                yield Static(markup("[dim]looking for copies…[/]"), id=self.BODY_ID)
        yield Footer()

    def on_mount(self) -> None:
        for shown in self.query_one("#request-deletion-code", Select).query("SelectCurrent"):
            shown.border_title = "reason code"  # the box the value shows in: "other" alone said nothing
        self.query_one("#request-deletion-reason", Input).focus()

    async def read(self) -> None:
        looked = await deletion_requests.preview(self.store, self.session, [self.target])
        self.query_one(f"#{self.BODY_ID}", Static).update(hanging(looked_for(looked)))

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @work(group="request-deletion", exclusive=True, exit_on_error=False)
    async def action_submit(self) -> None:
        reason = self.query_one("#request-deletion-reason", Input).value
        if not reason.strip():
            self.status(markup("[$warning]A deletion request needs a reason: who asked for it and why.[/]"))
            return
        try:
            code = self.query_one("#request-deletion-code", Select).value
            filed = await deletion_requests.file_request(self.store, self.session, [self.target], reason,
                                                         actor=self.reviewer, reason_code=str(code))
        except InspectorError as error:
            self.status(markup("[b $error]$c[/] $m", c=error.code, m=error.message))
            return
        # "x on it in Deletions": x there is the key that opens the tab, already open, so it did nothing (newuser-18)
        self.notify(safe(f"Filed deletion request {filed.request} for {', '.join(filed.targets)} (ledger "
                         f"L{filed.ledger_seq}); nothing is deleted until it is carried out: enter on it in Deletions, "
                         "then x."
                         + "".join(f" {t} is also in pending request {', '.join(o)}: carrying out either removes it."
                                   for t, o in filed.also_pending.items())),
                    markup=False)
        self.dismiss(filed.request)
