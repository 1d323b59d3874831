"""The Context Inspector application: opens a store (or the session browser), closes cleanly.

With no store given it looks for transcripts in the agent tools' folders: when there are
some it shows them (:class:`BrowserScreen`), otherwise it opens the demo, as before.
``ctrl+o`` goes back to the transcripts from a session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App, ComposeResult, ScreenStackError
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.reactive import var

from inspector.services import reviewer_name
from inspector.ui.breakpoints import BREAKPOINTS, NARROW_WIDTH, SHORT_ROWS, VERTICAL_BREAKPOINTS
from inspector.ui.commands import InspectorCommands
from inspector.ui.dialog_base import Dialog
from inspector.ui.dialogs import ShowsWorkerErrors, error_dialog
from inspector.ui.loading import LoadingNote, StartScreen
from inspector.ui.reviewer_dialog import ReviewerDialog
from inspector.ui.safe import safe
from inspector.ui.served import end_with_server
from inspector.ui.typeahead import RetypesIntoInput

if TYPE_CHECKING:
    from inspector.services import discovery
    from inspector.store.connection import Store


def _main_screen() -> type:
    """The main screen's module (and the store code behind it) loads on first use: the
    session browser, which lists transcripts at start, paints without it."""
    from inspector.ui.main_screen import MainScreen

    return MainScreen


def _name_of(path: Path) -> str:
    """The store's file name (a PostgreSQL store: its URL's safe name), as the header names it."""
    return safe(getattr(path, "name", None) or str(path))


def _browser() -> tuple[Any, type]:
    """The transcript listing and its screen, loaded when transcripts are listed (``inspector
    FILE`` paints without them)."""
    from inspector.services import discovery
    from inspector.ui.browser_screen import BrowserScreen

    return discovery, BrowserScreen


class InspectorApp(RetypesIntoInput, ShowsWorkerErrors, App[None]):
    TITLE = "Context Inspector"
    CSS_PATH = ["inspector.tcss", "dialogs.tcss"]  # the main screen, then the dialogs and tab panes
    COMMANDS = App.COMMANDS | {InspectorCommands}
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, id="app.quit"),
                Binding("ctrl+o", "browse", "Transcripts", id="app.browse"),
                Binding("question_mark", "toggle_keys", "Keys", show=False, id="app.keys"),
                # F1 is help in most terminal programs: a new user pressed it and nothing happened (new-user-17)
                Binding("f1", "toggle_keys", "Keys", show=False, id="app.keys_f1")]

    # Who the acts done here are recorded as (DESIGN §8: the reviewer names every write);
    # None until said: the first writing act asks (with_reviewer).
    reviewer: var[str | None] = var(None, init=False)

    # Every screen without breakpoints of its own (the dialogs, the transcript list) gets these
    # classes: on a small terminal a dialog's toasts move to the free row above it (inspector.tcss).
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    VERTICAL_BREAKPOINTS = VERTICAL_BREAKPOINTS

    def __init__(self, store_path: Path | None = None, *, session: str | None = None, follow: Path | None = None,
                 sources: list[Path] | None = None, listing: Future[list[discovery.Found]] | None = None,
                 reviewer: str | None = None, notices: list[str] | None = None, upgraded: str | None = None) -> None:
        super().__init__()
        self.store_path = store_path
        self.notices = notices or []  # said once the app is up: lines `inspector FILE`'s import could not read
        self.upgraded = upgraded  # the store format upgrade the command's first open made (store/format_upgrade.py)
        self.initial_session = session
        self.follow = follow  # the transcript the store was imported from, followed live
        self.sources = sources or []
        self.listing = listing  # transcripts already being looked for (started before the UI loaded)
        self.store: Store | None = None
        self.ended = False  # unmounted: a store opened from now on is closed, never kept (show_store)
        self.typed_ahead: list[events.Key] | None = []  # keys typed before the first screen is up (loading.py)
        self.set_reactive(InspectorApp.reviewer, reviewer_name.resolve(reviewer))

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification (widgets' and screens' ``notify`` land here) shows its text as typed:
        what it quotes from the store — a key, an id, a path — has its escapes made visible and is
        never parsed as markup, so ``[@click=…]`` in a key is not a live action in the toast and
        a stray ``[/]`` is not an error. ``markup`` is accepted for Textual's signature and ignored.

        On a small terminal the main screen says it in its notice line instead of a toast, which
        covered the one zone shown at 80×24 (widgets/notice_line.py); an open dialog says it in
        its own at any size, so no toast covers its text or buttons (dialog_base.py)."""
        line = self._notice_line()
        if line is not None:
            line.show(safe(message), title=safe(title), severity=severity, timeout=timeout)
            return
        super().notify(safe(message), title=safe(title), severity=severity, timeout=timeout, markup=False)

    def action_help_quit(self) -> None:
        """Ctrl+C (which does not quit a Textual app) says how to quit. Textual's own sentence is
        markup ("Press [b]ctrl+q[/b] …"), and ``notify`` here shows every text as typed, so the
        brackets were printed as they are: said in plain words instead."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press {self.get_key_display(active.binding)} ({key}) to quit the app",
                            title="Do you want to quit?")
                return

    def _small(self) -> bool:
        return self.size.width < NARROW_WIDTH or self.size.height < SHORT_ROWS

    def _notice_line(self) -> Any:
        """The active screen's notice line when notices go inline there (a dialog; the main
        screen when narrow or short), else None."""
        try:
            screen = self.screen
        except ScreenStackError:  # before the first screen
            return None
        if isinstance(screen, Dialog):
            return screen.notice_line()
        if not self._small():
            return None
        found = screen.query("NoticeLine")
        return found.first() if found else None

    def with_reviewer(self, then: Callable[[str], object]) -> None:
        """Run ``then(reviewer)``; the first time, ask who is reviewing and remember the answer.
        Cancelling the question does nothing, so nothing is written under a name nobody gave."""
        if self.reviewer:
            then(self.reviewer)
            return

        def named(name: str | None) -> None:
            if not name:
                self.notify("Nothing was written: a writing act needs the reviewer's name.", severity="warning")
                return
            try:
                reviewer_name.remember(name)
            except OSError as error:
                self.notify(f"Using {name} for this run; could not remember it: {error}", severity="warning")
            self.reviewer = name
            then(name)

        self.push_screen(ReviewerDialog(), named)

    def action_toggle_keys(self) -> None:
        """``?`` (or F1): every key of the focused widget and the screen, with what it does (Textual's
        help panel), and ``?`` again hides it — the key line at 80 columns has room for six."""
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def watch_reviewer(self) -> None:
        for screen in self.screen_stack:
            for header in screen.query("HeaderBar"):  # by name: the start screen loads without it
                header.refresh_content()  # type: ignore[attr-defined]

    def get_default_screen(self) -> StartScreen:
        return StartScreen(id="_default")

    def replay_typed(self) -> None:
        """The first real screen is up: the keys typed meanwhile reach it, in order."""
        typed, self.typed_ahead = self.typed_ahead or [], None
        for key in typed:
            self.post_message(key)

    def compose(self) -> ComposeResult:
        """The first screen: what is being opened (loading.py), drawn before the store is read."""
        yield LoadingNote(f"Opening {_name_of(self.store_path)}" if self.store_path is not None
                          else "Looking for transcripts")

    async def on_mount(self) -> None:
        end_with_server(self)
        for notice in self.notices:  # `import` prints them; the app's own import said nothing of them
            self.notify(notice, title="Not read from the transcript", severity="warning",
                        timeout=30)
        if self.upgraded:  # a store the app opens itself says its own (main_screen)
            self.notify(self.upgraded[0].upper() + self.upgraded[1:] + ".", title="Store format upgraded", timeout=15)
        if self.store_path is None:
            from inspector.services.discovery import missing_sources

            for folder in missing_sources(self.sources):  # else the demo opened with no word of the folder
                self.notify(f"INSPECTOR_SOURCES names {safe(str(folder))}, which is not a folder: nothing was listed "
                            "from it", title="Transcript folder not found", severity="warning", timeout=30)
            self.browse_or_demo()
        else:  # in a worker: the loading note paints while the store opens and the session is read
            self.open_at_start()

    @work(group="startup", exclusive=True, exit_on_error=False)
    async def open_at_start(self) -> None:
        assert self.store_path is not None
        await self.show_store(self.store_path, self.initial_session, self.follow)

    async def _loading(self, what: str, doing: str) -> None:
        for note in self.query("#loading"):  # on the first screen (the app's own), beneath any other
            await note.step(what, doing)  # type: ignore[attr-defined]

    @work(group="startup", exclusive=True, exit_on_error=False)
    async def browse_or_demo(self) -> None:
        """The transcripts on this machine when there are any; the demo otherwise."""
        await self._loading("Looking for transcripts", "loading the list")
        discovery, BrowserScreen = _browser()
        roots = discovery.sources_from(self.sources)
        if self.listing is not None:
            found = await asyncio.wrap_future(self.listing)
        else:
            found = await asyncio.to_thread(discovery.discover, roots)
        if found:
            await self.push_screen(BrowserScreen(found, roots))
            self.replay_typed()
        else:
            await self.open_demo()
            await self._say_unlisted(roots)

    async def _say_unlisted(self, roots: list[Path]) -> None:
        """Folders a person named that hold logs the list leaves out: say so, and how to open
        one, instead of the demo alone (services/unlisted.py)."""
        from inspector.services.unlisted import named_sources, unlisted, unlisted_said

        if named_sources(self.sources):
            left_out = await asyncio.to_thread(unlisted, roots, ())
            if left_out:
                self.notify(safe("No transcripts listed in " + ", ".join(map(str, roots)) + "; "
                                 + unlisted_said(left_out)), markup=False, severity="warning", timeout=15)

    async def open_demo(self) -> None:
        await self._loading("Opening the demo", "building the demo store from the sample sessions")
        from inspector.services import demo

        await self.show_store(await demo.ensure_demo_store(), None, None)

    async def show_store(self, path: Path, session: str | None, follow: Path | None) -> None:
        """Open ``path`` on the main screen, closing the store shown before (if any).

        A store that finishes opening once the app has ended is closed at once: a transcript
        imported in a thread hands its store here when done, after the app's unmount may have
        closed the one it had — kept, its connections were nobody's to close, and their threads
        held the interpreter at shutdown. And one opened while another call opened a store too
        replaces that one, which is closed, rather than leaving it open behind the screen."""

        if self.ended:
            return
        what = f"Opening {_name_of(path)}"
        await self._loading(what, "opening the store (its format, its ledger's head)")
        await self._close_main()
        try:
            opened = await self._open_saying_upgrade(path)
        except Exception as error:  # noqa: BLE001 - shown to the person, then the app stays usable
            if not self.ended:
                self.typed_ahead = None  # keys now answer the dialog
                await self.push_screen(error_dialog(error))
            return
        # the steps that may wait come before the checks below: between them and the push nothing waits,
        # so no other call (or the app's end) can replace or close the store in between
        await self._loading(what, "loading the screens")
        main = _main_screen()  # its modules, the first time: about a second of CPU on a loaded machine
        await self._loading(what, f"reading {'session ' + session if session else 'the first session'}")
        if self.ended:
            await opened.close()
            return
        if self.store is not None:  # another show_store opened one meanwhile
            await self._close_main()
        self.store = opened
        await self.push_screen(main(opened, session, follow=follow))
        for note in self.query("#loading"):
            note.done()  # type: ignore[attr-defined]
        self.replay_typed()

    async def _open_saying_upgrade(self, path: Path) -> Store:
        """``open_store``, with a notice as soon as reading an older store starts (it may take a while:
        its upgraded copy is made first, store/read_copy.py), and one when the first act upgrades the
        file. The app holds the upgrade as a command does (storefault-eleven): an act refused in the app
        left the store upgraded, since the app upgraded it as it opened it."""
        from inspector.store.connection import open_store, report_upgrades

        started: list[str] = []

        def heard(text: str, final: bool) -> None:
            if final:  # the first act made on an older store upgraded it
                self.notify(text[0].upper() + text[1:] + ".", title="Store format upgraded", timeout=15)
            elif not started:
                started.append(text)
                self.notify(text[0].upper() + text[1:], title="Reading an older store", timeout=10)

        report_upgrades(heard)  # until the app ends (on_unmount)
        return await open_store(path)

    async def _close_main(self) -> None:
        if isinstance(self.screen, _main_screen()):
            await self.pop_screen()
        if self.store is not None:
            store, self.store = self.store, None
            await store.close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``ctrl+o`` is not offered on the transcript list itself (there it would only look again,
        which ``ctrl+r`` says)."""
        if action == "browse":
            return type(self.screen).__name__ != "BrowserScreen"
        return True

    async def action_browse(self) -> None:
        discovery, BrowserScreen = _browser()
        if any(isinstance(s, BrowserScreen) for s in self.screen_stack):
            while not isinstance(self.screen, BrowserScreen):
                if isinstance(self.screen, _main_screen()):
                    await self._close_main()
                else:
                    await self.pop_screen()
            self.screen.action_rescan()
            return
        roots = discovery.sources_from(self.sources)
        found = await asyncio.to_thread(discovery.discover, roots)
        if not found:
            self.notify("No transcripts found in " + ", ".join(map(str, roots)), severity="warning")
            await self._say_unlisted(roots)
            return
        await self._close_main()
        await self.push_screen(BrowserScreen(found, roots))

    async def on_unmount(self) -> None:
        from inspector.store.connection import report_upgrades

        self.ended = True
        if self.store is not None:
            store, self.store = self.store, None
            await store.close()
        report_upgrades(None)  # a notice for an app that has ended: nowhere
