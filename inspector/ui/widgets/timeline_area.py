"""The Timeline tab: the raw rows or the conversation (``T``), both under one filter (``f``).

The two views read the same events; switching keeps the place (the conversation opens around the
row the cursor was on, and the rows jump back to the first turn the conversation showed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import var

from inspector.services import timeline
from inspector.services.timeline import TimelineFilter
from inspector.store.connection import Store
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from inspector.ui.widgets.conversation_view import ConversationView


class TimelineArea(Vertical):
    DEFAULT_CSS = """
    TimelineArea { height: 1fr; }
    TimelineArea ConversationView { display: none; }
    TimelineArea.-conversation ConversationView { display: block; }
    TimelineArea.-conversation TimelineView { display: none; }
    """
    BINDINGS = [Binding("T", "toggle_view", "Conversation", id="timeline.toggle_view"),
                Binding("f", "filter", "Filter", id="timeline.filter")]

    conversation: var[bool] = var(False)
    filt: var[TimelineFilter] = var(TimelineFilter)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: Store | None = None
        self.session: str | None = None

    def compose(self) -> ComposeResult:
        yield TimelineView(id="timeline")  # the conversation view mounts when first asked for (T)

    @property
    def rows(self) -> TimelineView:
        return self.query_one(TimelineView)

    @property
    def turns(self) -> ConversationView:
        return self.query_one("#conversation")  # type: ignore[return-value]

    async def conversation_view(self) -> ConversationView:
        """The conversation view, mounted (with its Markdown and highlighting modules) on first use."""
        found = self.query("#conversation")
        if found:
            return found.first()  # type: ignore[return-value]
        from inspector.ui.widgets.conversation_view import ConversationView

        view = ConversationView(id="conversation")
        await self.mount(view)
        return view

    async def show_session(self, store: Store, session: str) -> None:
        self.store, self.session = store, session
        await self.rows.show_session(store, session)
        if self.conversation:
            await (await self.conversation_view()).show(store, session, 1, self.filt)

    def watch_conversation(self, on: bool) -> None:
        self.set_class(on, "-conversation")

    async def action_toggle_view(self) -> None:
        if self.store is None or self.session is None:
            return
        if not self.conversation:
            seq = self._event_at_cursor()
            await (await self.conversation_view()).show(self.store, self.session, seq, self.filt)
            self.conversation = True
            self.turns.focus()
        else:
            self.conversation = False
            if self.turns.turns:
                await self.rows.jump_to_event(self.turns.turns[0].seq)
            self.rows.focus()

    def _event_at_cursor(self) -> int:
        """The event the conversation opens around: the cursor's, or on a ledger row the nearest
        event above it (below it at the top) — `End` lands on the import entry after the last
        event, and the conversation opened at the session's first turn from there."""
        rows, cursor = self.rows.rows, self.rows.cursor
        for index in [*range(cursor, -1, -1), *range(cursor + 1, len(rows))]:
            if 0 <= index < len(rows) and rows[index].source == "event":
                return rows[index].seq
        return 1

    async def action_filter(self) -> None:
        from inspector.ui.timeline_filter_dialog import TimelineFilterDialog

        if self.store is None or self.session is None:
            return
        tools = await timeline.tools(self.store, self.session)

        async def chosen(filt: TimelineFilter | None) -> None:
            if filt is not None:
                self.filt = filt
                await self._refilter()

        self.app.push_screen(TimelineFilterDialog(self.filt, tools), chosen)

    async def _refilter(self) -> None:
        assert self.store is not None and self.session is not None
        self.rows.filt = self.filt if self.filt.active else None
        await self.rows.show_session(self.store, self.session)
        await self.rows.load_totals()
        if self.conversation:
            await self.turns.show(self.store, self.session, 1, self.rows.filt)
        self.notify(f"Timeline: {self.filt.describe()}.", timeout=3)
