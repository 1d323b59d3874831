"""The raw timeline as a virtual list: only the visible rows are drawn, and rows arrive in
keyset pages around the cursor, so a million-event session opens as fast as a small one.

| key | action |
|---|---|
| ↑ / ↓ | previous / next row |
| PgUp / PgDn | a screen up / down |
| Home / End | first / last row |
| Enter | the whole event or ledger entry in a dialog |
"""

from __future__ import annotations

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from inspector.domain.short_ids import short_id
from inspector.services import timeline
from inspector.services.timeline import TimelineFilter, TimelineRow
from inspector.store.connection import Store
from inspector.ui.dialogs import ShowsWorkerErrors
from inspector.ui.safe import markup, plain

PAGE = 200
WINDOW_MAX = 1000
PREFETCH = 40
END_KEY: timeline.Key = ("\U0010ffff", timeline.LEDGER, 2**62)


def format_row(row: TimelineRow) -> Content:
    """One row. What identifies and links the row (short call id, → #result) comes before the text,
    so a long row loses its text's tail, never its links (issue 15, item 4)."""
    if row.source == "ledger":
        seq = f"{row.folded[0]}–L{row.folded[1]}" if row.folded else str(row.seq)  # a follow's imports, one row
        return markup("[$secondary]L$seq[/]  [b $secondary]$kind[/]  by $actor  [dim]$text[/]",
                                   seq=f"{seq:<6}", kind=row.kind, actor=row.actor or "?", text=row.text)
    line = markup("[dim]#$seq[/] $kind", seq=f"{row.seq:<6}", kind=f"{row.kind:<17} ")  # a gap even after the longest kind
    if row.call_id:
        line += markup("[dim]$c[/] ", c=short_id(row.call_id))
    if row.pair_seq is not None:
        arrow = "→" if row.kind == "tool_call" else "←"
        line += markup("[$success]$a #$p[/] ", a=arrow, p=str(row.pair_seq))
    for mark in row.marks:
        if mark == "reasoning":
            line += markup("[$accent]∴ thinking[/] ")
        elif mark.startswith("continuation:"):
            line += markup("[dim $accent]⛓ $k[/] ", k=mark.split(":", 1)[1])
        elif mark == "unresolved":
            line += markup("[$error]⚠ no result (unresolved call)[/] ")
        elif mark == "deleted":
            line += markup("[b $error]✕ deleted[/] ")
        elif mark == "orphan":
            line += markup("[$error]⚠ orphan result: its call is not in the log[/] ")
    if not row.text.strip() and not row.marks:  # a turn of only tool calls: said, not a blank that reads as unloaded
        return line + markup("[dim](no text)[/]")
    if "deleted" in row.marks and row.text.startswith("deleted "):  # "✕ deleted by ledger entry L6", not "deleted deleted"
        return line + plain(row.text.removeprefix("deleted "))
    return line + plain(row.text)


class TimelineView(ShowsWorkerErrors, Widget, can_focus=True):
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "start", "First", show=False, id="timeline.first"),
        Binding("end", "end", "Last", show=False, id="timeline.last"),
        Binding("enter", "open_row", "Open row", id="timeline.open"),
    ]

    class RowOpened(Message):
        def __init__(self, row: TimelineRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: Store | None = None
        self.session: str | None = None
        self.rows: list[TimelineRow] = []
        self.cursor = 0
        self.top = 0
        self.at_start = True
        self.at_end = True
        self.totals: tuple[int, int] | None = None
        self.filt: TimelineFilter | None = None  # set by the timeline area; pages are filtered in SQL
        self._fetching = False
        self._window = 0  # bumped whenever the rows are replaced: a page fetched for an older window is dropped

    @property
    def current(self) -> TimelineRow | None:
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None

    @property
    def body_height(self) -> int:
        return max(1, self.size.height - 1)

    async def show_session(self, store: Store, session: str) -> None:
        """Open ``session`` at its first row; the session already shown (a reload after someone
        else's act) keeps its place: at the end while following it, else on the same row."""
        same = store is self.store and session == self.session and bool(self.rows)
        following = self.following_end
        self.store, self.session, self.totals = store, session, None
        if same and following:
            await self.action_end()
        elif same:
            await self._reread()
        else:
            self._set_rows(await timeline.page(store, session, None, limit=PAGE, filt=self.filt), cursor=0,
                           at_start=True)

    @property
    def following_end(self) -> bool:
        """The cursor is on the session's last row, so new rows move it along (``tail -f``)."""
        return not self.rows or (self.at_end and self.cursor >= len(self.rows) - 1)

    async def load_totals(self) -> None:
        if self.store is not None and self.session is not None:
            self.totals = await timeline.counts(self.store, self.session)
            self.refresh()

    async def jump_to_event(self, seq: int, source: str = "event") -> None:
        assert self.store is not None and self.session is not None
        rows, index = await timeline.around(self.store, self.session, seq, limit=PAGE, source=source,
                                            filt=self.filt)
        self._set_rows(rows, cursor=index, at_start=False)
        self.top = max(0, index - self.body_height // 2)

    async def grew(self) -> None:
        """Events were appended: follow the end like ``tail -f`` when the cursor sits on the last
        row; otherwise stay on the reviewer's row and read the window around it again.

        Re-read, not extended from the window's last row: the timeline places a ledger entry
        before the first event stamped later than it, so an appended event stamped before the
        window's trailing ledger rows (a transcript's clocks are not monotone; lines can carry
        old or equal times) sorts *inside* the window, where extending forward never looks."""
        if self.store is None or self.session is None:
            return
        if self.following_end:
            await self.action_end()
        else:
            await self._reread()
        await self.load_totals()

    async def _reread(self) -> None:
        """The window around the cursor's row read again, the row kept at the same screen line."""
        assert self.store is not None and self.session is not None
        row = self.current
        if row is None:
            await self.action_start()
            return
        line = self.cursor - self.top
        half = PAGE // 2
        key = row.key  # a row's place is its key (time, source, seq), whether the row is still stored or not
        before = await timeline.page(self.store, self.session, key, forward=False, limit=half, filt=self.filt)
        after = await timeline.page(self.store, self.session, (key[0], key[1], key[2] - 1), forward=True,
                                    limit=PAGE - half, filt=self.filt)
        self._set_rows(before + after, cursor=len(before), at_start=len(before) < half,
                       at_end=len(after) < PAGE - half)
        self.top = max(0, self.cursor - line)
        self._scroll_to_cursor()

    def _set_rows(self, rows: list[TimelineRow], *, cursor: int, at_start: bool, at_end: bool | None = None) -> None:
        self._window += 1
        self.rows = rows
        self.cursor = min(cursor, max(0, len(rows) - 1))
        self.top = 0 if at_start else self.top
        self.at_start = at_start
        self.at_end = len(rows) < PAGE if at_end is None else at_end
        self._scroll_to_cursor()
        self.refresh()

    def _scroll_to_cursor(self) -> None:
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + self.body_height:
            self.top = self.cursor - self.body_height + 1
        # Rows held above fill a taller view: at the end, a terminal grown taller (or the tabs given
        # the whole height at 80×24) showed the last rows at the top and blank lines under them.
        self.top = max(0, min(self.top, len(self.rows) - self.body_height))

    async def _extend(self, forward: bool) -> None:
        """Fetch the next page beyond the window's edge and trim the far side."""
        if self._fetching or self.store is None or self.session is None or not self.rows:
            return
        self._fetching = True
        try:
            edge = self.rows[-1] if forward else self.rows[0]
            window = self._window
            more = await timeline.page(self.store, self.session, edge.key, forward=forward, limit=PAGE,
                                       filt=self.filt)
            if window != self._window:  # the rows were read again meanwhile (rows grew): this page is stale
                return
            if forward:
                self.at_end = len(more) < PAGE
                self.rows += more
                drop = max(0, len(self.rows) - WINDOW_MAX)
                if drop:
                    self.rows = self.rows[drop:]
                    self.cursor -= drop
                    self.top = max(0, self.top - drop)
                    self.at_start = False
            else:
                self.at_start = len(more) < PAGE
                self.rows = more + self.rows
                self.cursor += len(more)
                self.top += len(more)
                if len(self.rows) > WINDOW_MAX:
                    self.rows = self.rows[:WINDOW_MAX]
                    self.at_end = False
        finally:
            self._fetching = False
        self.refresh()

    def _maybe_prefetch(self) -> None:
        if self.cursor >= len(self.rows) - PREFETCH and not self.at_end:
            self.run_worker(self._extend(True), group="timeline-fetch", exit_on_error=False)
        elif self.cursor < PREFETCH and not self.at_start:
            self.run_worker(self._extend(False), group="timeline-fetch", exit_on_error=False)

    def action_move(self, delta: int) -> None:
        if not self.rows:
            return
        self.cursor = max(0, min(len(self.rows) - 1, self.cursor + delta))
        self._scroll_to_cursor()
        self._maybe_prefetch()
        self.refresh()

    def action_page(self, direction: int) -> None:
        self.action_move(direction * self.body_height)

    async def action_start(self) -> None:
        if self.store is not None and self.session is not None:
            self._set_rows(await timeline.page(self.store, self.session, None, limit=PAGE, filt=self.filt),
                           cursor=0, at_start=True)

    async def action_end(self) -> None:
        if self.store is None or self.session is None:
            return
        rows = await timeline.page(self.store, self.session, END_KEY, forward=False, limit=PAGE, filt=self.filt)
        self._set_rows(rows, cursor=len(rows) - 1, at_start=len(rows) < PAGE, at_end=True)

    def action_open_row(self) -> None:
        if self.current is not None:
            self.post_message(self.RowOpened(self.current))

    def on_resize(self) -> None:
        self._scroll_to_cursor()

    def render(self) -> Content:
        if self.session is None:
            # after "no session 'x'" (a mistyped --session) the screen was empty with no way on said
            return markup("[dim]no session open: s lists the store's sessions, enter opens one[/]")
        if not self.rows:
            return markup("[dim]this session has no events and no ledger entries[/]")
        lines: list[Content] = []
        for index in range(self.top, min(self.top + self.body_height, len(self.rows))):
            line = format_row(self.rows[index])
            if index == self.cursor:
                style = "reverse" if self.has_focus else "underline"
                line = Content("▶ ").stylize(style) + line.stylize(style)
            else:
                line = Content("  ") + line
            lines.append(line)
        lines += [Content("")] * (self.body_height - len(lines))
        lines.append(self._status())
        return Content("\n").join(lines)

    def _status(self) -> Content:
        row = self.current
        where = f"{row.source} {'#' if row.source == 'event' else 'L'}{row.seq}" if row else "—"
        if row is not None and row.folded:
            where = f"ledger L{row.folded[0]}–L{row.folded[1]} (a follow's imports, enter lists them)"
        events, entries = self.totals or (0, 0)
        totals = (f"{events:,} event{'' if events == 1 else 's'} · "
                  f"{entries:,} ledger entr{'y' if entries == 1 else 'ies'}" if self.totals else "counting…")
        shown = f" · filter: {self.filt.describe()}" if self.filt is not None and self.filt.active else ""
        return markup("[dim]$w · $t$f · ↑↓ PgUp PgDn Home End · enter opens · T conversation · f filter[/]",
                      w=where, t=totals, f=shown)
