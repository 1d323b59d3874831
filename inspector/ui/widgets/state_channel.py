"""Protected state: typed records grouped by kind, every version, status by glyph and colour.

Pending records are decided here: ``y`` confirms and ``n`` rejects the highlighted one, or
every marked one (``space`` marks, ``ctrl+a`` marks all pending); the screen does the deciding.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.reactive import var
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.domain.plurals import counted as _n
from inspector.domain.stale_pending import without_stale_pending
from inspector.services.channels import StateRecord
from inspector.ui.hanging import CappedLine
from inspector.ui.safe import markup, one_line, plain, safe
from inspector.ui.widgets.channel import ChannelPane
from inspector.ui.widgets.state_rows import LONG_LIST, OneLineRow

GLYPH = {"active": ("●", "$success"), "pending": ("◌", "$warning"), "superseded": ("○", "$text-muted")}


def status_mark(status: str) -> Content:
    glyph, colour = GLYPH.get(status, ("?", "$accent"))
    return markup(f"[{colour}]$g[/]", g=glyph)


MARK = ("✔", "$accent")  # a marked pending record shows this instead of ◌
TITLE = "Protected state"


ROW_LINES = 3  # a record's row at most; the detail pane shows the whole value


STALE = "stale: reject only"  # a pending version older than its key's active one: confirm refuses it


def stale_ids(records: list[StateRecord]) -> frozenset[str]:
    """The rows (key@version) pending behind their key's active version (domain/stale_pending.py)."""
    current = {id(r) for r in without_stale_pending(records, lambda r: (r.key, r.version, r.status))}
    return frozenset(f"{r.key}@{r.version}" for r in records if id(r) not in current)


def record_parts(r: StateRecord, marked: bool = False, stale: bool = False) -> tuple[Content, Content, Content]:
    """A row's head (the glyph), value (on one line) and tail (version · status · stale · marked)."""
    glyph = markup(f"[b {MARK[1]}]$g[/]", g=MARK[0]) if marked else status_mark(r.status)
    return (glyph + Content(" "),
            # one row per record: a value's own line breaks are marked (the detail pane shows it whole)
            markup("[dim]$v[/]" if r.status == "superseded" else "$v", v=one_line(r.value)),
            markup("  [dim]v$n · $s$t$m[/]", n=str(r.version),
                   s=r.status if r.status != "active" else (r.writer or ""), t=f" · {STALE}" if stale else "",
                   m=" · marked" if marked else ""))


def record_line(r: StateRecord, marked: bool = False, stale: bool = False) -> CappedLine:
    """The status glyph, then the value: a long value (a real transcript's goal is a whole
    prompt) continues under the value, so the glyphs stay alone in their column (ui/hanging.py),
    for at most three lines, cut with "…" before the version so one record never fills the channel.
    A stale proposal says so ("pending · stale: reject only"): y on it is refused, n decides it."""
    return CappedLine(*record_parts(r, marked, stale), ROW_LINES)


def record_row(r: StateRecord, marked: bool, stale: bool, long_list: bool) -> CappedLine | OneLineRow:
    """The row as drawn: up to three lines, or — in a list of thousands — one line made when drawn
    (ui/widgets/state_rows.py: measuring every wrapped row froze the app for minutes)."""
    if long_list:
        return OneLineRow(lambda: record_parts(r, marked, stale),
                          lambda: markup("  [dim]v$n$t$m[/]", n=str(r.version), t=" · stale" if stale else "",
                                         m=" · marked" if marked else ""))
    return record_line(r, marked, stale)


class StateChannel(ChannelPane):
    BINDINGS = [
        Binding("y", "screen.decide_pending(False)", "Confirm", id="state.confirm"),
        Binding("n", "screen.decide_pending(True)", "Reject", id="state.reject"),
        Binding("space", "toggle_mark", "Mark", id="state.mark"),
        Binding("ctrl+a", "mark_all", "Mark all", id="state.mark_all"),
    ]

    marked: var[frozenset[str]] = var(frozenset())  # option ids (key@version) of marked pending records

    def __init__(self) -> None:
        super().__init__(TITLE, id="state")
        self.items: dict[str, StateRecord] = {}
        self.rows: dict[str, int] = {}  # option id -> index in the record list
        self.stale: frozenset[str] = frozenset()  # option ids of stale proposals (only a reject decides them)
        self.cursor_after: str | None = None  # the row to highlight after the next reload of this session
        self.long_list = False  # more than LONG_LIST records: one-line rows, built when drawn

    def load(self, records: list[StateRecord], *, keep: bool = False) -> None:
        """Show ``records``. ``keep`` (the same session read again, e.g. after a decision) keeps the
        cursor on the same row (or on ``cursor_after``) and the marks still pending; otherwise both reset."""
        cursor = (self.cursor_after or self.highlighted_id()) if keep else None
        self.cursor_after = None
        self.items = {f"{r.key}@{r.version}": r for r in records}
        self.stale = stale_ids(records)
        still = frozenset(i for i in self.marked if keep and i in self.items and self.items[i].status == "pending")
        self.rows = {}  # so the watcher re-renders nothing of the old list
        self.marked = still
        options: list[Option] = []
        kind = None
        self.long_list = len(records) > LONG_LIST
        for r in records:
            if r.kind != kind:
                kind = r.kind
                options.append(Option(markup("[b $text-muted]$k[/]", k=kind.upper().replace("_", " ")),
                                      disabled=True))
            option_id = f"{r.key}@{r.version}"
            self.rows[option_id] = len(options)
            options.append(Option(record_row(r, option_id in still, option_id in self.stale, self.long_list),
                                  id=option_id))
        self.set_records(options, "no protected state recorded for this session")
        if cursor in self.rows:
            self.records.highlighted = self.rows[cursor]
        self._show_title()

    def highlighted_id(self) -> str | None:
        index = self.records.highlighted
        return None if index is None else self.records.get_option_at_index(index).id

    def marked_records(self) -> list[StateRecord]:
        """The marked records, in list order."""
        return [self.items[i] for i in sorted(self.marked, key=lambda i: self.rows.get(i, 0))]

    def next_pending_after(self, option_id: str) -> str | None:
        """The first pending row below ``option_id``: where the cursor goes once it is decided."""
        start = self.rows.get(option_id, -1)
        later = [(index, i) for i, index in self.rows.items() if index > start and self.items[i].status == "pending"]
        return min(later)[1] if later else None

    def action_toggle_mark(self) -> None:
        option_id = self.highlighted_id()
        record = self.items.get(option_id or "")
        if record is None or option_id is None:
            return
        if record.status != "pending":
            self.notify(f"{record.key} v{record.version} is {record.status}; only pending records (◌) are marked.",
                        severity="warning")
            return
        self.marked = self.marked ^ {option_id}

    def action_mark_all(self) -> None:
        """Mark every pending record but the stale proposals; when all those already are, clear the marks.

        A stale proposal (pending behind its key's active version) was marked too, so ``y`` on the
        batch put a record no one can confirm in the dialog as refused (stale-and-prefill #1): it is
        left out and said; ``space`` still marks it, to reject it with others (flow-19)."""
        pending = frozenset(i for i, r in self.items.items() if r.status == "pending")
        if not pending:
            self.notify("No pending record in this session.", severity="warning")
            return
        fresh = pending - self.stale
        left = sorted(pending & self.stale, key=lambda i: self.rows.get(i, 0))
        if not fresh:
            self.notify(f"Only {_n(len(left), 'stale proposal')} pending: reject only (n on its row); "
                        "nothing marked.", severity="warning")
            return
        if fresh <= self.marked:
            self.marked = frozenset()
            return
        self.marked = fresh
        if left:
            shown = ", ".join(f"{self.items[i].key} v{self.items[i].version}" for i in left[:3])
            more = f" and {len(left) - 3} more" if len(left) > 3 else ""
            self.notify(safe(f"Marked {_n(len(fresh), 'pending record')}; left out {_n(len(left), 'stale proposal')} "
                             f"({shown}{more}): reject only — n on its row, or space to mark it."), markup=False)

    def watch_marked(self, old: frozenset[str], new: frozenset[str]) -> None:
        for option_id in old ^ new:
            if option_id in self.rows and option_id in self.items:
                self.records.replace_option_prompt_at_index(self.rows[option_id],
                                                            record_row(self.items[option_id], option_id in new,
                                                                       option_id in self.stale, self.long_list))
        self._show_title()

    def _show_title(self) -> None:
        self.border_title = f"{TITLE} · {len(self.marked):,} marked" if self.marked else TITLE

    def selected(self) -> StateRecord | None:
        index = self.records.highlighted
        if index is None:
            return None
        option = self.records.get_option_at_index(index)
        return self.items.get(option.id or "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is not self.records:
            return
        record = self.items.get(event.option.id or "")
        if record is None:
            return
        history = [r for r in self.items.values() if r.key == record.key]
        lines = [
            markup("[b]$key[/b]  $kind · v$v · ", key=record.key, kind=record.kind, v=str(record.version))
            + status_mark(record.status) + plain(f" {record.status}"),
            markup("value: [b]$v[/b]", v=record.value),
            markup("writer $w · $at · scope $s", w=record.writer or "unknown",
                   at=record.at or "time unknown", s=record.scope or "unknown"),
        ]
        if record.rationale:
            lines.append(markup("rationale: $r", r=record.rationale))
        if record.alternatives:
            lines.append(markup("alternatives: $a", a=" · ".join(record.alternatives)))
        if len(history) > 1:
            lines.append(markup("[dim]history ($n versions, h for details):[/]", n=str(len(history))))
            for h in sorted(history, key=lambda r: r.version):
                lines.append(Content("  ") + status_mark(h.status) + plain(f" v{h.version} {h.value}"))
        if not record.sources:
            lines.append(markup("[$warning]no sources cited[/]"))
        self.show_detail(Content("\n").join(lines), record.sources)
