"""Find text in every session of the store, and open the one that holds it (palette: "Search every session…").

The evidence channel's search box looks in the open session only; a reviewer of a store that
holds a team's 34 sessions, remembering a command or a file name, had to open them one by one.
This asks the same search over every session (inspector/services/search_all.py, as ``inspector
search STORE QUERY --all-sessions``) and lists the sessions that hold the text, each with its title,
its hit count and its first hit, then those searched in part that may hold it (a material past its first
4 MiB); ``enter`` opens one with the text in its search box.

| key | action |
|---|---|
| enter (in the box) | search every session |
| ↓ / ↑, enter | choose a session: it opens, its hits listed in Raw evidence |
| escape | close |
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from inspector.domain.terminal_safe import inert
from inspector.services.search_all import AcrossSessions, search_every_session
from inspector.store.connection import Store
from inspector.ui.dialog_base import Dialog
from inspector.ui.safe import markup, one_line, plain
from inspector.ui.widgets.keys_footer import KeysFooter

HITS_COUNTED = 20  # hits read per session: counted ("20+ hits" past it), the first shown


class SearchSessionsDialog(Dialog[tuple[str, str] | None]):
    """Dismissed with (session, query) when a session is chosen, else None."""

    DEFAULT_CSS = """
    SearchSessionsDialog { align: center middle; }
    SearchSessionsDialog #search-all-box {
        width: 100; max-width: 95%; height: auto; max-height: 95%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SearchSessionsDialog #search-all-results { height: auto; max-height: 20; }
    """
    BINDINGS = [Binding("escape", "cancel", "Close", id="search-all.cancel")]

    def __init__(self, store: Store, query: str = "") -> None:
        super().__init__()
        self.store = store
        self.initial = query
        self.searched = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="search-all-box"):
            yield Static("[b]Search every session[/b] [dim](events, tool calls' input, thinking, materials)[/]")
            yield Input(self.initial, placeholder="text to find, then enter", id="search-all-input")
            yield Static("", id="search-all-said")
            yield OptionList(id="search-all-results")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#search-all-input", Input).focus()

    @on(Input.Submitted, "#search-all-input")
    def submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.query_one("#search-all-said", Static).update(plain(f"searching every session for {inert(event.value)}…"))
            self.find(event.value)

    @work(group="search-all", exclusive=True, exit_on_error=False)
    async def find(self, query: str) -> None:
        said = self.query_one("#search-all-said", Static)

        def progress(done: int, total: int) -> None:
            said.update(plain(f"searching every session for {inert(query)}… {done:,} of {total:,}"))

        found = await search_every_session(self.store, query, limit=HITS_COUNTED, progress=progress)
        self.show(found)

    def show(self, found: AcrossSessions) -> None:
        self.searched = found.query
        shown = len(found.matched)
        said = found.said()
        openable = shown or bool(found.in_part)  # a session searched in part is a row too
        self.query_one("#search-all-said", Static).update(plain(said + (": enter opens one" if openable else "")))
        results = self.query_one("#search-all-results", OptionList)
        results.clear_options()
        for match in found.matched:
            first, count = match.result.hits[0], len(match.result.hits)
            hits = f"{count}{'+' if match.result.more else ''} hit{'s' if count != 1 or match.result.more else ''}"
            results.add_option(Option(markup(
                "[b]$t[/b]\n  [dim]$id · $n · $ref in $where:[/] $snippet",
                t=one_line(match.title or match.session), id=one_line(match.session), n=hits,
                ref=first.ref, where=first.matched, snippet=one_line(first.snippet)), id=match.session))
        # a session searched in part (a material past its first 4 MiB) may hold the text: a row to
        # open, not only a name in the sentence above (newuser-18)
        for part in found.in_part:
            results.add_option(Option(markup(
                "[b]$t[/b]\n  [dim]$id ·[/] [$warning]searched in part, may hold it:[/] [dim]$note[/]",
                t=one_line(part.title or part.session), id=one_line(part.session),
                note=one_line(part.result.note)), id=part.session))
        if results.option_count:
            results.highlighted = 0
            results.focus()

    @on(OptionList.OptionSelected, "#search-all-results")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss((event.option.id, self.searched))

    def action_cancel(self) -> None:
        self.dismiss(None)
