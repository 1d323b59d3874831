"""The session browser: the transcripts already on this machine, by project, newest first.

What ``inspector`` with no argument shows when the agent tools' folders hold transcripts.
The newest one is highlighted, so ``enter`` opens it; any other is a few arrows (or a search)
away. Opening imports the transcript into its own store in the user data directory (with
progress; only what was appended since, when it was imported before) and follows it live.

| key | action |
|---|---|
| ↑ / ↓ | previous / next transcript |
| enter | import (if needed) and open the highlighted transcript |
| / | search titles, projects, tools and paths |
| escape | clear the search, back to the list |
| ctrl+r | look for transcripts again |
"""

from __future__ import annotations

import asyncio
from collections import Counter
from functools import partial
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Input, ProgressBar, Static

from inspector.services import discovery
from inspector.services.discovery_copies import copies_said
from inspector.ui.dialogs import ShowsWorkerErrors
from inspector.ui.safe import markup, one_line, plain
from inspector.ui.widgets.keys_footer import KeysFooter
from inspector.ui.widgets.transcript_list import Row, TranscriptList

DEMO_ID = "demo"


def _size(size: float) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def _span(f: discovery.Found) -> str:
    start, end = (f.started or "")[:16].replace("T", " "), (f.ended or "")[:16].replace("T", " ")
    if not start:
        return end
    return f"{start} → {end[11:]}" if start[:10] == end[:10] else f"{start} → {end}"


def _heading(project: str, count: int) -> Content:
    return markup("[b $accent]$p[/]  [dim]$n[/]", p=one_line(project),
                               n=f"{count} transcript{'s' if count > 1 else ''}")


def entry_lines(f: discovery.Found, named: bool = False) -> int:
    """The lines :func:`entry_prompt` draws, counted without drawing it (a list scrolls by them)."""
    return 2 + (1 + len(copies_said(f, str)) if named or f.copies or f.cut_short else 0)


def entry_prompt(f: discovery.Found, named: bool = False) -> Content:
    """A transcript's row; ``named``: its file name shown too (its title is another row's as well)."""
    marks = []
    if f.compactions:
        marks.append(f"{f.compactions} compaction{'s' if f.compactions > 1 else ''}")
    line = markup("[b]$t[/b]\n  [dim]$tool · $span · $size$more[/]", t=one_line(f.title or f.session or f.path),
                  tool=f.tool, span=_span(f), size=_size(f.size),
                  more="".join(f" · {m}" for m in marks))
    if f.imported:
        line += markup(" [$success]✓ imported[/]" if not f.changed_since_import
                       else " [$warning]✓ imported · grew since[/]")
    if named or f.copies or f.cut_short:  # rows alike ("commit this" twice) with no file name to tell them apart
        line += markup("\n  [dim]$name[/]", name=one_line(Path(f.path).name))
        for said in copies_said(f, lambda p: Path(p).name):
            line += markup("\n  [$warning]⚠ $s[/]", s=one_line(said))
    return line


def other_prompt(f: discovery.Found) -> Content:
    line = markup("[b]$t[/b]\n  [dim]$kind · $size[/]", t=one_line(Path(f.path).name), kind=f.tool, size=_size(f.size))
    return line + (markup(" [$success]✓ imported[/]") if f.imported else Content(""))


def _others_heading(folder: str, count: int) -> Content:
    """What to do first, then where: at 80 columns "Other files in /a/long/folder  5 files, not
    named as the agent tools n…" cut the line before "⏎ imports one" (review-16)."""
    return markup("[b $accent]Other files[/] [dim]($n): ⏎ imports one (its format detected) and opens it — in "
                  "$p, not named as the agent tools name their transcripts[/]", p=one_line(folder),
                  n=f"{count} file{'s' if count > 1 else ''}")


def _short(path: Path) -> str:
    """A folder as people write it: ``~/.claude/projects`` rather than the home's full path."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except ValueError:
        return str(path)


class BrowserScreen(ShowsWorkerErrors, Screen[None]):
    AUTO_FOCUS = "#browser-list"
    BINDINGS = [
        Binding("slash", "search", "Search", id="browser.search"),
        Binding("escape", "clear_search", "Clear search", show=False, id="browser.clear"),
        Binding("ctrl+r", "rescan", "Look again", id="browser.rescan"),
    ]
    DEFAULT_CSS = """
    BrowserScreen #browser-title { height: 1; padding: 0 1; background: $panel; text-wrap: nowrap;
                                   text-overflow: ellipsis; }
    BrowserScreen #browser-search { margin: 0 1; }
    BrowserScreen #browser-progress { height: auto; padding: 0 1; display: none; }
    BrowserScreen #browser-progress.busy { display: block; }
    BrowserScreen .project { color: $accent; text-style: bold; }
    """

    search_text: var[str] = var("")

    def __init__(self, found: list[discovery.Found], sources: list[Path]) -> None:
        super().__init__()
        self.found = found
        self.sources = sources
        self.by_id: dict[str, discovery.Found] = {}
        # .json/.jsonl/.eval files in folders a person named that the list above leaves out
        # (services/unlisted.py), found after the first paint
        self.others: list[discovery.Found] = []
        self._keep = False  # keep the highlighted transcript when the list is rebuilt

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="browser-title")
        yield Input(placeholder="/ search title, project, tool, path", id="browser-search")
        yield TranscriptList(id="browser-list")
        with Static(id="browser-progress"):
            yield Static("", id="browser-progress-label")
            yield ProgressBar(total=100, show_eta=False, id="browser-bar")
        yield KeysFooter()

    def _title(self) -> Content:
        return markup("[b]Context Inspector[/b] — transcripts on this machine [dim]($n found in $src)[/]",
                      n=str(len(self.found)), src=", ".join(_short(s) for s in self.sources))

    def on_mount(self) -> None:
        self.fill()
        self.call_after_refresh(self.count_compactions)  # after the list is on screen
        self.call_after_refresh(self.look_for_others)

    def fill(self) -> None:
        """The list, grouped by project; the first transcript (the newest) highlighted. Rows
        are cheap: each draws its text only when it is on screen."""
        rows: list[Row] = []
        needle = self.search_text.casefold()
        self.by_id = {}
        titles = Counter(f.title or f.session or f.path for f in self.found)
        for project, items in discovery.by_project(self.found):
            shown = [f for f in items if not needle or needle in " ".join(
                (f.title or "", f.project, f.tool, f.path, f.session or "")).casefold()]
            if not shown:
                continue
            rows.append(Row(None, partial(_heading, project, len(shown))))
            for f in shown:
                ident = f"t:{f.path}"  # by path: a rescan keeps the cursor on the same transcript
                self.by_id[ident] = f
                named = titles[f.title or f.session or f.path] > 1
                rows.append(Row(ident, partial(entry_prompt, f, named), entry_lines(f, named)))
        by_folder: dict[str, list[discovery.Found]] = {}
        for f in self.others:
            if not needle or needle in f"{f.path} {f.tool}".casefold():  # "inspect-ai log", "message list" too
                by_folder.setdefault(f.project, []).append(f)
        for folder, items in by_folder.items():
            rows.append(Row(None, partial(_others_heading, folder, len(items))))
            for f in items:
                self.by_id[f"t:{f.path}"] = f
                rows.append(Row(f"t:{f.path}", partial(other_prompt, f)))
        if not needle or needle in "demo sessions context inspector":
            rows.append(Row(None, partial(Content.from_markup, "[b $accent]Context Inspector[/]")))
            rows.append(Row(DEMO_ID, partial(Content.from_markup,
                                             "[b]Demo sessions[/b]\n  [dim]the bundled examples[/]")))
        listing = self.query_one(TranscriptList)
        listing.load(rows, keep=listing.highlighted if self._keep else None)

    def watch_search_text(self) -> None:
        if self.is_mounted:
            self.fill()

    @on(Input.Changed, "#browser-search")
    def search_changed(self, event: Input.Changed) -> None:
        self.search_text = event.value

    @on(Input.Submitted, "#browser-search")
    def search_submitted(self) -> None:
        listing = self.query_one(TranscriptList)
        listing.focus()
        listing.action_select()

    def action_search(self) -> None:
        """Focus now, not at the next message round (``widget.focus()``): "/col" typed at once lost
        its letters to the list, and the next "/" went into the box as text."""
        self.set_focus(self.query_one("#browser-search", Input))

    def action_clear_search(self) -> None:
        """escape: the keys panel first (``?`` or F1 opened it), else the search box cleared."""
        if self.query("HelpPanel"):
            self.app.action_hide_help_panel()
            return
        self.query_one("#browser-search", Input).value = ""
        self.query_one(TranscriptList).focus()

    @work(thread=True, group="rescan", exclusive=True, exit_on_error=False)
    def action_rescan(self) -> None:
        found = discovery.discover(self.sources)
        self.app.call_from_thread(self._replace, found)
        discovery.count_compactions(found)
        self.app.call_from_thread(self._refresh_keeping_highlight)
        self.app.call_from_thread(self.look_for_others)

    def _replace(self, found: list[discovery.Found]) -> None:
        """A rescan (ctrl+r, or ctrl+o back from a session) keeps the cursor on the transcript it
        was on — the one just opened — instead of going back to the top of the list."""
        self.found = found
        # the count too: after ctrl+r it said "5 found" over the six transcripts listed under it
        self.query_one("#browser-title", Static).update(self._title())
        self._refresh_keeping_highlight()

    @work(thread=True, group="compactions", exclusive=True, exit_on_error=False)
    def count_compactions(self) -> None:
        """Compactions need each whole file: counted after the list is on screen, then shown."""
        pending = [f for f in self.found if f.compactions is None]
        if not pending:
            return
        discovery.count_compactions(pending)
        self.app.call_from_thread(self._refresh_keeping_highlight)

    @work(thread=True, group="others", exclusive=True, exit_on_error=False)
    def look_for_others(self) -> None:
        """The files a named folder holds that the list leaves out, as rows of their own."""
        from inspector.services.unlisted import as_found, named_sources, unlisted

        if not named_sources(getattr(self.app, "sources", ())):
            return  # the tools' own folders hold side files left out on purpose
        others = as_found(unlisted(self.sources, (f.path for f in self.found)))
        self.app.call_from_thread(self._show_others, others)

    def _show_others(self, others: list[discovery.Found]) -> None:
        self.others = others
        self._refresh_keeping_highlight()

    def _refresh_keeping_highlight(self) -> None:
        self._keep = True
        try:
            self.fill()
        finally:
            self._keep = False

    @on(TranscriptList.Selected)
    def chosen(self, event: TranscriptList.Selected) -> None:
        if event.key == DEMO_ID:
            self.run_worker(self.app.open_demo(), group="open", exclusive=True,  # type: ignore[attr-defined]
                            exit_on_error=False)
        elif event.key in self.by_id:
            found = self.by_id[event.key]
            # The importer owns a new session (services/importing.py): the reviewer, asked for once
            # like any writing act, not the operating-system user — else the reviewer who opened
            # the transcript could not confirm its goal (not_owner: "only … (root) may confirm").
            self.app.with_reviewer(lambda who: self.open_transcript(found, who))  # type: ignore[attr-defined]

    @work(thread=True, group="open", exclusive=True, exit_on_error=False)
    def open_transcript(self, f: discovery.Found, actor: str) -> None:
        """Import (or catch up) in a thread with its own event loop, so the screen stays live."""
        source, store = Path(f.path), Path(f.store)
        store.parent.mkdir(parents=True, exist_ok=True)
        self.app.call_from_thread(self._progress, f"importing {source.name}…", 0, 1)

        def progress(stage: str, done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, f"{source.name}: {stage}", done, total)

        from inspector.services.following import (
            catch_up,  # the import machinery loads when first needed
        )

        try:
            caught = asyncio.run(catch_up(source, store, actor=actor, progress=progress))
        finally:
            self.app.call_from_thread(self._progress_done)
        self.app.call_from_thread(self.app.show_store, store, caught.session, source)  # type: ignore[attr-defined]

    def _progress(self, label: str, done: int, total: int) -> None:
        box = self.query_one("#browser-progress")
        box.add_class("busy")
        self.query_one("#browser-progress-label", Static).update(plain(label))
        self.query_one("#browser-bar", ProgressBar).update(total=max(total, 1), progress=done)

    def _progress_done(self) -> None:
        self.query_one("#browser-progress").remove_class("busy")
        for f in self.found:
            if f.store and Path(f.store).exists():
                f.imported, f.changed_since_import = True, False
