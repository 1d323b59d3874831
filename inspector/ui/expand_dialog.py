"""The expand dialog: choose a byte range behind a stub, see the verified bytes.

| key | action |
|---|---|
| enter | expand the range in the boxes |
| f6 (alt+w) | widen the range to whole characters (after an expansion) |
| f7 (alt+n) | narrow the range to whole characters (after an expansion) |
| escape | close |
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Input, Label, Static

from inspector.domain.plurals import counted as _n
from inspector.services.channels import StubView
from inspector.services.expanding import (
    DEFAULT_MAX_BYTES,
    DEFAULT_SCOPES,
    Expansion,
    expand,
)
from inspector.store.connection import Store
from inspector.ui.modal import InspectorModal
from inspector.ui.safe import markup, plain


def render_expansion(result: Expansion) -> Content:
    """The bytes read, with cut characters' bytes visibly marked as dim «hex»."""
    if result.refusals:
        return Content("\n").join(
            markup("[b $error]$code[/] $m", code=r.code, m=r.message) for r in result.refusals)
    s, e = result.range
    head = markup("[$success]✓ verified[/] ") + Content(
        f"[{s}, {e}) · {len(result.data):,} bytes · {_n(result.chunks_read, 'chunk')} read · "
        f"budget {len(result.data):,} of {result.max_bytes:,}")
    if not result.recorded:
        head += Content.from_markup(" · [$warning]not recorded in the ledger (read-only store)[/]")
    if result.binary:
        for note in result.notes:
            head += markup("\n[b $warning]$c[/] $m", c=note.code, m=note.message)
        return head + Content("\n\n") + markup("[dim]binary, shown as hex[/]\n$h", h=result.data.hex(" "))
    body = Content("")
    if result.cut_head:
        body += markup("[dim]«$h»[/]", h=result.cut_head.hex(" "))
    body += plain(result.text or "")
    if result.cut_tail:
        body += markup("[dim]«$h»[/]", h=result.cut_tail.hex(" "))
    notes = Content("")
    if result.cut_head or result.cut_tail:
        notes = markup("\n[$warning]cut characters at the edges: «…» are their bytes; alt+w widens to "
                                    "$w, alt+n narrows to $n[/]", w=str(list(result.snap_wider or ())),
                                    n=str(list(result.snap_narrower or ())))
    for note in result.notes:
        notes += markup("\n[b $warning]$c[/] $m", c=note.code, m=note.message)
    if result.truncated and result.requested:
        rs, re_ = result.requested
        notes += markup("\n[$warning]$m[/]", m=f"head only: the first {len(result.data):,} of {result.total_bytes:,} "
                        f"bytes of [{rs}, {re_}) (the limit, cut back to a whole character); the rest was not read — "
                        "set start and end to read another part")
    return head + notes + Content("\n\n") + body


class ExpandDialog(InspectorModal[bool]):
    """Closes with True once an expansion was recorded in the ledger: it reserves its bytes in
    the next request, so the screen behind reads the session again (the Budget tab kept the plan
    from before it — "loaded 27,836" where ``inspector budget`` said 33,904; flow-eight)."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="dialog.close"),
        # f6 / f7 first: alt+w and alt+n do not pass through every terminal multiplexer (tmux)
        Binding("f6,alt+w", "snap('wider')", "Widen to chars", id="expand.widen"),
        Binding("f7,alt+n", "snap('narrower')", "Narrow to chars", id="expand.narrow"),
    ]

    def __init__(self, store: Store, session: str, stub: StubView, reviewer: str) -> None:
        super().__init__(store, session, reviewer)
        self.stub = stub
        self.result: Expansion | None = None
        self.recorded = False

    def compose(self) -> ComposeResult:
        start, end = self.stub.read_slice or (0, 0)
        with Vertical(id="expand"):
            yield Static(markup("[b]Expand $s[/b] → $m  [dim]as $r · version $v · scope $sc[/]",
                                s=self.stub.id, m=self.stub.material, r=self.reviewer,
                                v=self.stub.source_version or "?", sc=self.stub.disclosure_scope or "?"),
                         id="expand-title")
            with Horizontal(id="expand-range"):
                yield Label("start")
                yield Input(str(start), id="expand-start", type="integer")
                yield Label("end")
                yield Input(str(end), id="expand-end", type="integer")
                yield Label("limit")
                yield Input(str(DEFAULT_MAX_BYTES), id="expand-limit", type="integer")
                yield Label("scopes")
                yield Input(",".join(DEFAULT_SCOPES), id="expand-scopes")
            yield Static("", id="expand-count")
            with VerticalScroll(id="expand-result"):
                yield Static(markup("[dim]enter expands the range[/]"), id="expand-text")
            with Horizontal(id="expand-buttons"):
                yield Button("Expand", id="expand-go", variant="primary")
                yield Button("Widen to chars", id="expand-widen", disabled=True)
                yield Button("Narrow to chars", id="expand-narrow", disabled=True)
                yield Button("Close", id="expand-close")
        yield Footer()

    def on_mount(self) -> None:
        """The start box has the focus, its text selected: the range is what one comes to type
        (`enter` there expands, as the button does). With the button focused, digits typed went
        nowhere and `tab` reached Close, so `enter` closed the dialog without expanding."""
        self._update_count()
        start = self.query_one("#expand-start", Input)
        start.focus()
        start.select_all()

    def _numbers(self) -> tuple[int, int, int] | None:
        try:
            return tuple(int(self.query_one(f"#expand-{n}", Input).value) for n in ("start", "end", "limit"))  # type: ignore[return-value]
        except ValueError:
            return None

    def _update_count(self) -> None:
        numbers = self._numbers()
        label = self.query_one("#expand-count", Static)
        if numbers is None:
            label.update(markup("[$error]start, end and limit must be whole numbers[/]"))
            return
        start, end, limit = numbers
        size = end - start
        colour = "$error" if size < 0 or size > limit else "$success"
        label.update(markup(f"[{colour}]$n bytes[/] of a $l byte limit", n=f"{size:,}", l=f"{limit:,}"))

    @on(Input.Changed)
    def range_edited(self) -> None:
        self._update_count()

    @on(Input.Submitted)
    @on(Button.Pressed, "#expand-go")
    def expand_pressed(self, event: Input.Submitted | Button.Pressed) -> None:
        event.stop()
        self.run_expand()

    @on(Button.Pressed, "#expand-widen")
    def widen_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_snap("wider")

    @on(Button.Pressed, "#expand-narrow")
    def narrow_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_snap("narrower")

    @on(Button.Pressed, "#expand-close")
    def close_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_close()

    @work(group="expand", exclusive=True, exit_on_error=False)
    async def run_expand(self) -> None:
        numbers = self._numbers()
        if numbers is None:
            self.query_one("#expand-text", Static).update(
                markup("[$error]start, end and limit must be whole numbers[/]"))
            return
        start, end, limit = numbers
        scopes = tuple(s.strip() for s in self.query_one("#expand-scopes", Input).value.split(",") if s.strip())
        # The range as the dialog opened with it (the stub's slice, not typed) and over the limit: its
        # head, as `inspector expand` without --range reads it. Enter on a 5 MB stub's dialog was
        # refused over_budget, a refusal of a range the reviewer never chose (newuser-18).
        as_opened = self.stub.read_slice is not None and (start, end) == tuple(self.stub.read_slice)
        head = as_opened and end - start > limit
        self.result = await expand(self.store, self.stub.id, actor=self.reviewer, session=self.session,
                                   byte_range=None if head else (start, end), max_bytes=limit, scopes=scopes,
                                   head=head)
        if head and self.result.ok and self.result.truncated:  # the boxes say what was read
            self.query_one("#expand-end", Input).value = str(self.result.range[1])
        self.recorded = self.recorded or bool(self.result.ok and self.result.recorded)
        self.query_one("#expand-text", Static).update(render_expansion(self.result))
        can_snap = self.result.ok and bool(self.result.cut_head or self.result.cut_tail)
        self.query_one("#expand-widen", Button).disabled = not can_snap
        self.query_one("#expand-narrow", Button).disabled = not can_snap

    def close_value(self) -> bool:
        return self.recorded

    def action_snap(self, which: str) -> None:
        if self.result is None or not self.result.ok:
            self.notify("Expand first: the snaps come from the bytes read.", severity="warning")
            return
        span = self.result.snap_wider if which == "wider" else self.result.snap_narrower
        if span is None:
            return
        self.query_one("#expand-start", Input).value = str(span[0])
        self.query_one("#expand-end", Input).value = str(span[1])
        self.run_expand()
