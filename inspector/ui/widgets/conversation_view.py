"""The timeline of an imported transcript read as a conversation (``T`` toggles it with the rows).

User and assistant turns are Markdown; thinking is inline, dim and collapsed; each tool call is
one collapsible block with its result, status and size; a compaction is a divider naming the
summary generation and what it covers. Only a window of events is drawn (``WINDOW`` around the
row the raw view was on; ``[`` / ``]`` or the buttons move it), and each body is cut at
``BODY_CHARS`` with "show more" behind a button, so a 50 MB event never reaches the layout.

Content is untrusted: text is sanitised (``markdown_safe``: character references included) and shown as plain text or Markdown without
active links (``open_links=False``); titles are built as Content, never parsed as markup.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Button, Collapsible, Markdown, Static

from inspector.domain.short_ids import human_size
from inspector.domain.terminal_safe import markdown_safe
from inspector.services import conversation_window
from inspector.services.conversation_window import BODY_CHARS, EXPANDED_CHARS, Turn
from inspector.services.timeline import TimelineFilter
from inspector.store.connection import Store
from inspector.ui.safe import markup, plain

BEFORE = 10  # events shown before the row the raw view was on


def _cut(text: str, expanded: bool) -> tuple[str, int]:
    """The text to draw and how many characters are left out."""
    limit = len(text) if expanded else BODY_CHARS
    return text[:limit], max(0, len(text) - limit)


class TurnBlock(Vertical):
    """One turn; ``show more`` redraws it with up to EXPANDED_CHARS of its text."""

    def __init__(self, turn: Turn) -> None:
        super().__init__(classes=f"turn -{turn.kind}")
        self.turn = turn
        self.expanded = False

    def compose(self) -> ComposeResult:
        yield from self._parts()

    def _more(self, left: int) -> list[Widget]:
        """What is cut: a note with how much, and "show more" (up to EXPANDED_CHARS) while there is more to draw."""
        missing = self.turn.size - (len(self.turn.text) - left)
        if missing <= 0:
            return []
        beyond = self.turn.size - len(self.turn.text)
        note = f"{missing:,} more characters"
        if beyond > 0:
            note += f" ({beyond:,} of them only in the event itself: enter on its row, t)"
        parts: list[Widget] = [Static(markup("[dim]… $n[/]", n=note), classes="turn-cut")]
        if left and not self.expanded:
            parts.append(Button(f"show more (up to {EXPANDED_CHARS:,})", classes="turn-more", compact=True))
        return parts

    def _parts(self) -> list[Widget]:
        t = self.turn
        head = markup("[b]$who[/b] [dim]#$seq · $at[/]", who=t.kind, seq=str(t.seq), at=t.at or "time unknown")
        if t.kind in ("user", "assistant"):
            text, left = _cut(t.text, self.expanded)
            body = Markdown(markdown_safe(text), open_links=False, classes="turn-body")  # &#x202E; too
            return [Static(head, classes="turn-head"), body, *self._more(left)]
        if t.kind in ("result", "orphan_result"):
            text, left = _cut(t.text, self.expanded)
            title = (markup("[b $error]⚠ orphan result[/] [dim]#$seq · its call is not in the log · $size[/]",
                            seq=str(t.seq), size=human_size(t.size)) if t.kind == "orphan_result" else
                     markup("⚙ [b]$tool[/b] [dim]$id[/] result #$seq ← call #$c [dim]· $size[/]", tool=t.tool or "?",
                            id=t.short_call, seq=str(t.seq), c=str(t.extra.get("call_seq")), size=human_size(t.size)))
            return [Collapsible(Static(plain(text), classes="turn-result"), *self._more(left), title=title,
                                collapsed=True)]  # type: ignore[arg-type]
        if t.kind == "thinking":
            text, left = _cut(t.text, self.expanded)
            title = markup("[dim]∴ thinking · #$seq · $n chars[/]", seq=str(t.seq), n=f"{t.size:,}")
            return [Collapsible(Static(plain(text), classes="turn-thinking"), *self._more(left),
                                title=title, collapsed=True)]  # type: ignore[arg-type]
        if t.kind == "tool":
            status = {"ok": "[$success]ok[/]", "failed": "[b $error]failed[/]"}.get(t.status, "[$error]no result[/]")
            result = f"→ #{t.result_seq}" if t.result_seq is not None else "→ —"
            title = (markup("⚙ [b]$tool[/b] [dim]$id #$seq[/] $r · ", tool=t.tool or "?", id=t.short_call,
                            seq=str(t.seq), r=result) + markup(status)
                     + markup(" · $size", size=human_size(t.result_size)))
            text, left = _cut(t.result_text, self.expanded)
            inner: list[Widget] = [Static(markup("[dim]call id $c · arguments[/]", c=t.call_id or "?")),
                                   Static(plain(t.text if len(t.text) <= BODY_CHARS else
                                                t.text[:BODY_CHARS] + f"\n… {len(t.text) - BODY_CHARS:,} more "
                                                "characters of arguments (T, then enter on its row, shows them)"),
                                          classes="turn-args"),
                                   Static(markup("[dim]result #$r[/]", r=str(t.result_seq or "—"))),
                                   Static(plain(text), classes="turn-result")]
            if t.result_size > len(t.result_text) or left:
                inner.append(Static(markup("[dim]… $n more characters: enter on row #$r (t) opens it[/]",
                                           n=f"{t.result_size - len(text):,}", r=str(t.result_seq))))
            return [Collapsible(*inner, title=title, collapsed=True)]  # type: ignore[arg-type]
        if t.kind == "compaction":
            line = markup("[b $warning]━━ compaction · $c · #$seq ━━[/]", c=t.covers, seq=str(t.seq))
            text, left = _cut(t.text, self.expanded)
            return [Static(line, classes="turn-divider"),
                    Collapsible(Static(plain(text)), *self._more(left),
                                title=markup("[dim]the summary ($n chars)[/]", n=f"{t.size:,}"),
                                collapsed=True)]  # type: ignore[arg-type]
        label = "◌ micro-compaction" if t.kind == "microcompaction" else "·"
        note = t.text if len(t.text) <= 300 else t.text[:299] + "…"  # cut, and says so
        return [Static(markup("[dim]$l #$seq $t[/]", l=label, seq=str(t.seq), t=note), classes="turn-note")]

    @on(Button.Pressed, ".turn-more")
    async def show_more(self, event: Button.Pressed) -> None:
        event.stop()
        self.expanded = True
        await self.remove_children()
        await self.mount_all(self._parts())


class ConversationView(VerticalScroll, can_focus=True):
    DEFAULT_CSS = """
    ConversationView { height: 1fr; padding: 0 1; }
    ConversationView .turn { height: auto; margin-bottom: 1; }
    ConversationView .turn-head { color: $text-muted; }
    ConversationView .-user { border-left: thick $accent; padding-left: 1; }
    ConversationView .-assistant { border-left: thick $success; padding-left: 1; }
    ConversationView .turn-body { margin: 0; padding: 0; }
    ConversationView .turn-thinking { color: $text-muted; text-style: italic; }
    ConversationView .turn-divider { width: 1fr; content-align: center middle; }
    ConversationView .turn-note { color: $text-muted; }
    ConversationView .turn-args, ConversationView .turn-result { background: $boost; padding: 0 1; }
    ConversationView Collapsible { padding: 0; border: none; margin: 0; }
    ConversationView .window-edge { width: auto; margin: 0 0 1 0; }
    ConversationView .-system, ConversationView .-microcompaction { margin-bottom: 0; }
    """
    BINDINGS = [
        Binding("left_square_bracket", "move_window(-1)", "Earlier", id="conversation.earlier"),
        Binding("right_square_bracket", "move_window(1)", "Later", id="conversation.later"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: Store | None = None
        self.session: str | None = None
        self.filt: TimelineFilter | None = None
        self.turns: list[Turn] = []

    async def show(self, store: Store, session: str, around_seq: int, filt: TimelineFilter | None = None) -> None:
        self.store, self.session, self.filt = store, session, filt
        await self._load(max(0, around_seq - BEFORE - 1), focus_seq=around_seq)

    async def _load(self, after_seq: int, *, forward: bool = True, focus_seq: int | None = None) -> None:
        assert self.store is not None and self.session is not None
        turns = await conversation_window.window(self.store, self.session, after_seq, forward=forward, filt=self.filt)
        if not turns and self.turns:
            self.notify("No more turns that way.", timeout=2)
            return
        self.turns = turns
        await self.remove_children()
        widgets: list[Widget] = []
        if turns and turns[0].seq > 1:
            widgets.append(Button("▲ earlier turns ([)", id="conversation-earlier", classes="window-edge",
                                  compact=True))
        widgets += [TurnBlock(t) for t in turns]
        if not turns:
            widgets.append(Static(markup("[dim]no turns here (a filter may hide them)[/]")))
        else:
            widgets.append(Button("▼ later turns (])", id="conversation-later", classes="window-edge", compact=True))
        await self.mount_all(widgets)
        target = next((w for w in widgets if isinstance(w, TurnBlock) and focus_seq is not None
                       and w.turn.seq >= focus_seq), None)
        if target is not None and target is not widgets[0]:
            self.call_after_refresh(self.scroll_to_widget, target, animate=False, top=True)  # the row the raw view was on
        else:
            self.scroll_home(animate=False)

    @property
    def first_seq(self) -> int:
        return self.turns[0].seq if self.turns else 0

    async def action_move_window(self, direction: int) -> None:
        if not self.turns:
            return
        if direction > 0:
            await self._load(self.turns[-1].seq)
        else:
            await self._load(self.first_seq, forward=False)

    @on(Button.Pressed, "#conversation-earlier")
    async def earlier(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_move_window(-1)

    @on(Button.Pressed, "#conversation-later")
    async def later(self, event: Button.Pressed) -> None:
        event.stop()
        await self.action_move_window(1)

    def header(self) -> Content:
        return markup("[dim]conversation · events #$a–#$b[/]", a=str(self.first_seq),
                      b=str(self.turns[-1].seq if self.turns else 0))
