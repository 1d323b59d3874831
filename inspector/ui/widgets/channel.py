"""What the three channels share: a record list, a detail pane, and a list of cited sources.

Choosing a source (``enter`` on it) posts :class:`ChannelPane.SourceChosen`; the screen
decides where that reference leads.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from inspector.ui.safe import markup, plain
from inspector.ui.whole_ids import WholeIds
from inspector.ui.widgets.item_list import NoWrapOptionList


class ChannelPane(Vertical):
    """A titled channel: ``#records`` list, ``#detail`` text, ``#sources`` jump list.

    The detail and the sources keep ids, hashes and paths whole at any width (``WholeIds``:
    folded after their separators, a digest cut around ``…``); ``i`` shows the detail in a
    dialog as wide as the terminal, where a digest fits on one line."""

    BINDINGS = [Binding("i", "whole_detail", "Whole ids", show=False, id="channel.whole_detail")]
    detail_content: Content = Content()

    class SourceChosen(Message):
        """A cited reference (``evt:12``, ``res:run-184``) was chosen to jump to."""

        def __init__(self, ref: str) -> None:
            super().__init__()
            self.ref = ref

    def __init__(self, title: str, *, id: str) -> None:  # noqa: A002 - Textual's own name
        super().__init__(id=id, classes="channel")
        self.border_title = title

    def compose_top(self) -> ComposeResult:
        """Widgets above the record list (the evidence channel's search box)."""
        yield from ()

    def compose(self) -> ComposeResult:
        yield from self.compose_top()
        yield NoWrapOptionList(id=f"{self.id}-records", classes="records")
        with VerticalScroll(classes="detail"):
            yield Static("", id=f"{self.id}-detail", classes="detail-text")
        yield OptionList(id=f"{self.id}-sources", classes="sources")

    @property
    def records(self) -> OptionList:
        return self.query_one(".records", OptionList)

    @property
    def sources(self) -> OptionList:
        return self.query_one(".sources", OptionList)

    def show_detail(self, content: Content | str, sources: list[str]) -> None:
        self.detail_content = plain(content) if isinstance(content, str) else content
        self.query_one(".detail-text", Static).update(WholeIds(self.detail_content))
        self.sources.clear_options()
        self.sources.add_options([Option(WholeIds(markup("→ [b]$ref[/b]", ref=ref)), id=ref) for ref in sources])
        self.sources.display = bool(sources)
        if sources:
            self.sources.highlighted = 0

    def set_records(self, options: list[Option], empty: str, *, keep: bool = False) -> None:
        """``keep``: the same list read again (a follow's poll, a folded row opened) — the cursor
        stays on the row it was on when that row is still listed, else goes to the first."""
        was = self.records.highlighted
        was_id = self.records.get_option_at_index(was).id if keep and was is not None else None
        self.records.clear_options()
        if options:
            self.records.add_options(options)
            first = next((i for i, o in enumerate(options) if not o.disabled), None)
            if was_id is not None:
                first = next((i for i, o in enumerate(options) if o.id == was_id), first)
            if first is not None:
                self.records.highlighted = first
            else:  # only headings ("No match for …"): the detail of a record no longer listed would stay
                self.show_detail("", [])
        else:
            self.records.add_option(Option(markup("[dim]$t[/]", t=empty), disabled=True))
            self.show_detail("", [])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "whole_detail":
            return bool(self.detail_content.plain.strip())
        return True

    def action_whole_detail(self) -> None:
        from inspector.ui.dialogs import WholeDetailDialog

        self.app.push_screen(WholeDetailDialog(f"{self.border_title}: the detail, whole", self.detail_content))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list is self.sources and event.option.id:
            event.stop()
            self.post_message(self.SourceChosen(event.option.id))
