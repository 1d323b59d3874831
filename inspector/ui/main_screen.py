"""The main screen: sessions, the three channels side by side, and the timeline below.

| key | action |
|---|---|
| 1 / 2 / 3 | focus protected state / task summary / raw evidence |
| t | focus the timeline |
| k | focus the candidates (enter reviews one: a accepts, r rejects) |
| / | search raw evidence |
| e | expand the selected stub (Raw evidence) |
| c | correct the selected protected record, or the generation of the selected drift finding |
| d | focus the drift findings |
| o | focus the handoffs (enter checks one: a accepts, u reconciles an unknown action) |
| u | focus the survival verdicts |
| n | focus the actions (enter reconciles an unknown one) |
| x | focus the deletion requests (enter shows the copies; x carries one out) |
| D | request deletion of the selected timeline event or Raw evidence row (a dialog: reason, what is looked for) |
| b | the budget of the next request (edit the numbers, enter recomputes) |
| h | history of the selected protected record |
| y / n | confirm / reject the highlighted pending record, or every marked one (Protected state) |
| space / ctrl+a | mark the highlighted pending record / mark all pending (Protected state) |
| s | show or hide the sessions list |
| v | verify the store |
| F | forget the ledger head this machine remembers (after restoring the store from a backup; asks first) |
| ctrl+r | reload the session |
| ctrl+e | write the open session's HTML report beside the store, and say where |
| ctrl+p | command palette |
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, TabbedContent
from textual.worker import WorkerCancelled, WorkerFailed

from inspector.domain.errors import NotFound, Refusal
from inspector.domain.terminal_safe import quoted
from inspector.services import channels, sessions
from inspector.ui.behind_tabs import FillsTabsLater, FocusedPane, empty_panes
from inspector.ui.deciding import DecidesPending
from inspector.ui.dialog_actions import OpensDialogs
from inspector.ui.dialogs import ShowsWorkerErrors
from inspector.ui.greyed_keys import SaysWhyGreyed
from inspector.ui.layout import FitsTheTerminal
from inspector.ui.live_changes import WatchesChanges
from inspector.ui.paint import DrawsAfterBatch, after_paint
from inspector.ui.tab_labels import FitsTabLabels, TabsColumn
from inspector.ui.widgets.channel import ChannelPane
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.keys_footer import KeysFooter
from inspector.ui.widgets.notice_line import NoticeLine
from inspector.ui.widgets.progress_line import ProgressLine
from inspector.ui.widgets.sessions_list import SessionsList
from inspector.ui.widgets.state_channel import StateChannel
from inspector.ui.widgets.summary_channel import SummaryChannel
from inspector.ui.widgets.timeline_area import TimelineArea
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from inspector.store.connection import Store

SEARCH_DEBOUNCE_S = 0.2


WRITING_ACTIONS = frozenset({"correct", "rebuild", "decide_pending", "request_deletion"})  # dialogs grey out their own


class MainScreen(SaysWhyGreyed, DrawsAfterBatch, FitsTheTerminal, FitsTabLabels, DecidesPending, OpensDialogs,
                 FillsTabsLater, WatchesChanges, ShowsWorkerErrors, Screen[None]):
    AUTO_FOCUS = "#state-records"
    BINDINGS = [
        Binding("1", "focus_channel('state')", "State", id="main.focus_state"),
        Binding("2", "focus_channel('summary')", "Summary", id="main.focus_summary"),
        Binding("3", "focus_channel('evidence')", "Evidence", id="main.focus_evidence"),
        Binding("t", "focus_timeline", "Timeline", id="main.focus_timeline"),
        # T and f from anywhere: a T typed right after t reaches the old focus (focus moves after the key)
        Binding("T", "toggle_conversation", "Conversation", show=False, id="main.toggle_conversation"),
        Binding("f", "filter_timeline", "Filter timeline", show=False, id="main.filter_timeline"),
        Binding("k", "focus_candidates", "Candidates", id="main.focus_candidates"),
        Binding("slash", "search", "Search", id="main.search"),
        # every session's text: the palette was its only way in (new-user-16); "S" is bound nowhere else
        Binding("S", "search_sessions", "Search all sessions", id="main.search_sessions"),
        Binding("e", "expand", "Expand", id="main.expand"),
        Binding("c", "correct", "Correct", id="main.correct"),
        Binding("d", "focus_drift", "Drift", id="main.focus_drift"),
        Binding("u", "focus_survival", "Survival", id="main.focus_survival"),
        Binding("R", "rebuild", "Rebuild summary", show=False, id="main.rebuild"),
        Binding("o", "focus_handoffs", "Handoffs", id="main.focus_handoffs"),
        Binding("a", "focus_actions", "Actions", id="main.focus_actions"),
        Binding("x", "focus_deletions", "Deletions", id="main.focus_deletions"),
        Binding("D", "request_deletion", "Request deletion…", show=False, id="main.request_deletion"),
        Binding("b", "focus_budget", "Budget", id="main.focus_budget"),
        Binding("h", "history", "History", id="main.history"),
        Binding("s", "toggle_sessions", "Sessions", id="main.toggle_sessions"),
        Binding("v", "verify", "Verify", id="main.verify"),
        Binding("F", "forget_head", "Forget head", show=False, id="main.forget_head"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="main.reload"),
        Binding("ctrl+e", "write_report", "Report", show=False, id="main.report"),
        Binding("escape", "clear_search", "Clear search", show=False, id="main.clear_search"),
    ]

    def __init__(self, store: Store, initial_session: str | None, *, follow: Path | None = None) -> None:
        super().__init__()
        self.store = store
        self.initial_session = initial_session
        self.follow = follow  # the transcript to follow live, when the store was imported from one
        self._drift_said: tuple[str, int] | None = None
        self.session: str | None = None
        self.session_ids: list[str] = []
        self.session_titles: dict[str, str] = {}  # the palette's "Open session" commands match titles too
        self.generation_texts: list = []
        self._index_started = False  # the search indexes' catch-up, started once after the first paint

    def compose(self) -> ComposeResult:
        yield HeaderBar(self.store.path, self.store.read_only_reason if self.store.read_only else None,
                        older=lambda: getattr(self.store, "held_upgrade", None), id="header")
        if self.follow is not None:
            from inspector.ui.widgets.follow_bar import FollowBar

            # appended lines are imported under the reviewer's name once given, else the OS user's (as at open)
            yield FollowBar(self.store.path, self.follow, self.app.reviewer or getpass.getuser(),  # type: ignore[attr-defined]
                            id="follow")
        with Horizontal(id="body"):
            yield SessionsList()
            with TabsColumn(id="main"):  # its resizes refit the tab labels
                with Horizontal(id="channels"):
                    state = StateChannel()
                    self.preset_classes(state)  # AUTO_FOCUS lands in it
                    yield state
                    yield SummaryChannel()
                    yield EvidenceChannel()
                with TabbedContent(id="tabs"):
                    with FocusedPane("Timeline", id="tab-timeline"):
                        yield TimelineArea(id="timeline-area")
                    yield from empty_panes()  # filled after the first paint (behind_tabs)
        yield ProgressLine(id="progress")
        yield NoticeLine(id="notice")  # notices on small terminals (toasts elsewhere): app.notify
        yield KeysFooter()

    async def on_mount(self) -> None:
        if self.store.read_only:
            self.notify(f"{self.store.path.name} is read-only ({self.store.read_only_reason}): you can read, search, "
                        "expand and verify; accepting, correcting, handoffs and deletions are disabled.",
                        severity="warning", timeout=10)
        residue = getattr(self.store, "deleted_text_in_file", None)  # store/deletion_residue.py
        if residue:
            self.notify(residue["message"][0].upper() + residue["message"][1:] + ".", severity="warning", timeout=15)
        held = getattr(self.store, "held_upgrade", None)  # an older store read through its copy: store/read_copy.py
        if held is not None:
            self.notify(f"{self.store.path.name} has store format {held.before}: shown as format {held.after}, and left "
                        f"at format {held.before} until your first change (accept, reject, correct…), which upgrades "
                        "it; nothing is written to it until then.", title="Older store", timeout=15)
        upgraded = getattr(self.store, "format_upgraded", None)  # store/format_upgrade.py
        if upgraded:
            self.notify(upgraded["message"][0].upper() + upgraded["message"][1:] + ".", title="Store format upgraded",
                        timeout=15)
        finished = getattr(self.store, "deletion_finished", None)
        if finished:
            self.notify(finished["message"][0].upper() + finished["message"][1:] + ".", timeout=10)
        first = self.load_sessions()
        self.watch_for_changes()
        # The visible data is read before this screen's first frame (its refresh waits for this
        # handler), so the first frame is the filled screen, not an empty one then a full redraw.
        with contextlib.suppress(WorkerFailed, WorkerCancelled):  # a failure is shown as a dialog by its handler
            await first.wait()

    # -- loading ---------------------------------------------------------------------------

    @work(group="sessions", exclusive=True, exit_on_error=False)
    async def load_sessions(self) -> None:
        items = await sessions.list_sessions(self.store)
        self.session_ids = [s.id for s in items]
        self.session_titles = {s.id: s.title for s in items if s.title}
        target = self.initial_session or (items[0].id if items else None)
        if self.initial_session is not None and self.initial_session not in self.session_ids:
            # The list is there to choose from, and the refusal names the ids meant (a prefix, a
            # title): it said only "no session 'agent name' in team.db" over an empty screen.
            self.query_one(SessionsList).load(items, None)
            self.query_one(HeaderBar).count_sessions(len(items))
            await sessions.get_session(self.store, self.initial_session)
            raise NotFound(f"no session {quoted(self.initial_session)} in {self.store.path.name}")
        self.query_one(SessionsList).load(items, target)
        self.query_one(HeaderBar).count_sessions(len(items))
        if target is None:
            self.query_one(HeaderBar).show(None)
            return
        await self._open(target)

    def open_session(self, session: str) -> None:
        self.run_worker(self._open(session), group="session", exclusive=True, exit_on_error=False)

    async def _open(self, session: str, *, rest_inline: bool = False) -> None:
        """First paint: read what is visible, then fill it in one layout pass. The tabs behind
        (candidates, drift, handoffs) and the badge counts, which may scan a large session,
        follow in their own worker."""
        same = session == self.session  # read again: keep the state channel's cursor and marks
        self.session = session
        info = await sessions.get_session(self.store, session)
        state = await channels.state_records(self.store, session)
        gens = await channels.generations(self.store, session)
        mats = await channels.evidence(self.store, session)
        timeline = self.query_one(TimelineArea)
        with self.app.batch_update():
            self.query_one(HeaderBar).show(info)
            self.query_one(StateChannel).load(state, keep=same)
            self.query_one(SummaryChannel).load(gens)
            self.query_one(EvidenceChannel).load(mats)
            await timeline.show_session(self.store, session)
            self.query_one(SessionsList).mark(session)
        if rest_inline:
            await self._load_rest(session)
        else:
            self.run_worker(self._load_rest(session), group="badges", exclusive=True, exit_on_error=False)

    async def _load_rest(self, session: str) -> None:
        # After the frame is drawn; then the status line first: it is on screen. The tabs behind
        # follow (behind_tabs).
        await after_paint(self)
        await self._load_badges(session)
        items = await sessions.list_sessions(self.store)  # its versions and counts follow every act
        self.session_ids = [s.id for s in items]
        self.session_titles = {s.id: s.title for s in items if s.title}
        self.query_one(SessionsList).load(items, session)
        self.query_one(HeaderBar).count_sessions(len(items))  # a handoff's new session, another app's import
        await self.load_tabs(session)
        if not self._index_started:  # after everything on screen: events imported since the last search
            from inspector.services.search import index_new_events

            self._index_started = True
            self.run_worker(index_new_events(self.store), group="index", exit_on_error=False)

    async def _load_badges(self, session: str) -> None:
        from inspector.services import (
            overview,  # with the drift and survival rules: after the first paint
        )

        info, badges = await overview.overview(self.store, session)
        if session == self.session:
            self.query_one(HeaderBar).show(info, badges)
            await self.query_one(TimelineView).load_totals()

    # -- events from widgets -----------------------------------------------------------------

    def on_sessions_list_chosen(self, event: SessionsList.Chosen) -> None:
        self.open_session(event.item_id)
        # below COMPACT_WIDTH the list starts hidden and s showed it to choose: once chosen it goes
        # again (at 80×24 it kept ~30 of 80 columns from the session just opened; flow-eight)
        if not self.has_class("-wide") and self.query_one("#sessions").display:
            self.toggle_sessions()

    def load_sessions_then(self, session: str) -> None:
        self.initial_session = session
        self.load_sessions()

    def on_channel_pane_source_chosen(self, event: ChannelPane.SourceChosen) -> None:
        self.jump_to(event.ref)

    def jump_to(self, ref: str) -> None:
        self.run_worker(self._jump(ref), group="jump", exclusive=True, exit_on_error=False)

    async def _jump(self, ref: str) -> None:
        if self.session is None:
            return
        for prefix, source in (("evt:", "event"), ("ledger:", "ledger")):
            if ref.startswith(prefix):
                number = ref[len(prefix):]
                if not number.isdigit():
                    raise NotFound(f"{quoted(ref)} is not a reference to follow (expected {prefix}N)")
                self.query_one(TimelineArea).conversation = False  # a reference names a row
                await self.query_one(TimelineView).jump_to_event(int(number), source)
                self.action_focus_timeline()
                return
        evidence = self.query_one(EvidenceChannel)
        if evidence.hits or evidence.query_one(Input).value:
            evidence.query_one(Input).value = ""
            evidence.load(await channels.evidence(self.store, self.session))
        if not evidence.select_material(ref):
            raise NotFound(f"{ref} is not a material of session {quoted(self.session)}: it may never have been stored, "
                           "or it belongs to another session")
        self.focus_on(evidence.records)

    def on_evidence_channel_search_requested(self, event: EvidenceChannel.SearchRequested) -> None:
        # the function, not a coroutine: a worker replaced before it starts (fast typing) leaves no
        # never-awaited coroutine behind
        self.run_worker(partial(self._search, event.query), group="search", exclusive=True, exit_on_error=False)

    async def _search(self, query: str) -> None:
        await asyncio.sleep(SEARCH_DEBOUNCE_S)  # typing replaces this worker; only the last query runs
        if self.session is None:
            return
        evidence = self.query_one(EvidenceChannel)
        if not query.strip():  # spaces alone are an empty query: the stored originals, no search
            evidence.load(await channels.evidence(self.store, self.session))
            return
        from inspector.services.search import search

        evidence.show_results(await search(self.store, self.session, query,
                                           indexing=partial(evidence.show_indexing, query)))

    # -- actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Writing acts are greyed out on a read-only store (the header says why; pressed, a dialog)."""
        if action in WRITING_ACTIONS and self.store.read_only:
            return None
        return True

    def why_greyed(self, action: str) -> tuple[str, Refusal] | None:
        if action in WRITING_ACTIONS and self.store.read_only:
            return "Cannot write here", Refusal("read_only", f"{self.store.path.name} is read-only "
                                                f"({self.store.read_only_reason}): nothing can be written to it.")
        return None

    def action_focus_channel(self, name: str) -> None:
        self.focus_on(self.query_one(f"#{name}", ChannelPane).records)

    def action_focus_timeline(self) -> None:
        self.query_one(TabbedContent).active = "tab-timeline"
        area = self.query_one(TimelineArea)
        self.focus_on(area.turns if area.conversation else area.rows)

    def action_toggle_conversation(self) -> None:
        self.action_focus_timeline()
        self.run_worker(self.query_one(TimelineArea).action_toggle_view(), group="timeline", exit_on_error=False)

    def action_filter_timeline(self) -> None:
        self.action_focus_timeline()
        self.run_worker(self.query_one(TimelineArea).action_filter(), group="timeline", exit_on_error=False)

    def action_search(self) -> None:
        self.focus_on(self.query_one("#evidence-search", Input))

    def action_search_sessions(self) -> None:
        """Find text in every session (palette); the one chosen opens with the text in its search box."""
        from inspector.ui.search_sessions_dialog import SearchSessionsDialog

        def chosen(picked: tuple[str, str] | None) -> None:
            if picked is not None:
                self.run_worker(self._open_with_search(*picked), group="session", exclusive=True, exit_on_error=False)

        self.app.push_screen(SearchSessionsDialog(self.store, self.query_one("#evidence-search", Input).value), chosen)

    async def _open_with_search(self, session: str, query: str) -> None:
        await self._open(session)
        self.query_one("#evidence-search", Input).value = query  # its change runs the session's search
        # its hits shown: under 100 columns one panel shows at a time, and it was Protected state,
        # so the search just chosen was nowhere on screen (review-16)
        self.action_focus_channel("evidence")

    def action_clear_search(self) -> None:
        """escape: clear the search and leave the box, so the next keys are keys again (issue 15, 6);
        first, the keys panel ``?`` or F1 opened (escape left it open: new-user-17)."""
        if self.query("HelpPanel"):
            self.app.action_hide_help_panel()
            return
        search_box = self.query_one("#evidence-search", Input)
        if search_box.value:
            search_box.value = ""
        if search_box.has_focus:
            self.focus_on(self.query_one(EvidenceChannel).records)

    def action_toggle_sessions(self) -> None:
        self.toggle_sessions()

    def action_timeline_start(self) -> None:
        self.run_worker(self.query_one(TimelineView).action_start(), group="timeline", exit_on_error=False)

    def action_timeline_end(self) -> None:
        self.run_worker(self.query_one(TimelineView).action_end(), group="timeline", exit_on_error=False)

    def action_reload(self) -> None:
        self.say_file_replaced()  # what ctrl+r reads may be a file moved away (live_changes.py)
        if self.session is not None:
            self.open_session(self.session)
