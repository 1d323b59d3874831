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
| b | the budget of the next request (edit the numbers, enter recomputes) |
| h | history of the selected protected record |
| y / n | confirm / reject the highlighted pending record, or every marked one (Protected state) |
| space / ctrl+a | mark the highlighted pending record / mark all pending (Protected state) |
| s | show or hide the sessions list |
| v | verify the store |
| ctrl+r | reload the session |
| ctrl+e | write the open session's HTML report beside the store, and say where |
| ctrl+p | command palette |
"""

from __future__ import annotations

import asyncio
import getpass
from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, TabbedContent, TabPane

from inspector.domain.errors import NotFound
from inspector.services import (
    candidates,
    channels,
    corrections,
    deletions,
    event_view,
    handoffs,
    overview,
    rebuilding,
    reconciling,
    recent_acts,
    sessions,
    verifying,
)
from inspector.services.drift import drift_overview
from inspector.services.report import default_report_path, write_report
from inspector.services.survival import survival_all
from inspector.services.search import search
from inspector.services.timeline import TimelineRow
from inspector.store.connection import Store
from inspector.ui.correction_dialog import CorrectionDialog, corrected_text
from inspector.ui.deletion_dialog import DeletionDialog
from inspector.ui.deciding import DecidesPending
from inspector.ui.dialogs import MessageDialog, ShowsWorkerErrors
from inspector.ui.event_detail import event_lead
from inspector.ui.event_dialog import EventDialog
from inspector.ui.expand_dialog import ExpandDialog
from inspector.ui.handoff_dialog import HandoffDialog
from inspector.ui.layout import FitsTheTerminal
from inspector.ui.reconcile_dialog import ReconcileDialog
from inspector.ui.review_dialog import ReviewDialog
from inspector.ui.safe import plain
from inspector.ui.widgets.actions_list import ActionsList
from inspector.ui.widgets.budget_view import BudgetView
from inspector.ui.widgets.candidates_list import CandidatesList
from inspector.ui.widgets.channel import ChannelPane
from inspector.ui.widgets.deletions_list import DeletionsList
from inspector.ui.widgets.drift_view import DriftView
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from inspector.ui.widgets.follow_bar import FollowBar
from inspector.ui.widgets.handoffs_list import HandoffsList
from inspector.ui.widgets.header_bar import HeaderBar
from inspector.ui.widgets.progress_line import ProgressLine
from inspector.ui.widgets.sessions_list import SessionsList
from inspector.ui.widgets.state_channel import StateChannel
from inspector.ui.widgets.summary_channel import SummaryChannel
from inspector.ui.widgets.survival_view import SurvivalView
from inspector.ui.widgets.timeline_area import TimelineArea
from inspector.ui.widgets.timeline_view import TimelineView

LIVE_POLL_S = 0.5  # how often to ask whether another connection committed (cheap: a counter), so acts show within 2 s
SEARCH_DEBOUNCE_S = 0.2


WRITING_ACTIONS = frozenset({"correct", "rebuild", "decide_pending"})  # dialogs grey out their own


class MainScreen(FitsTheTerminal, DecidesPending, ShowsWorkerErrors, Screen[None]):
    AUTO_FOCUS = "#state-records"
    BINDINGS = [
        Binding("1", "focus_channel('state')", "State", id="main.focus_state"),
        Binding("2", "focus_channel('summary')", "Summary", id="main.focus_summary"),
        Binding("3", "focus_channel('evidence')", "Evidence", id="main.focus_evidence"),
        Binding("t", "focus_timeline", "Timeline", id="main.focus_timeline"),
        Binding("k", "focus_candidates", "Candidates", id="main.focus_candidates"),
        Binding("slash", "search", "Search", id="main.search"),
        Binding("e", "expand", "Expand", id="main.expand"),
        Binding("c", "correct", "Correct", id="main.correct"),
        Binding("d", "focus_drift", "Drift", id="main.focus_drift"),
        Binding("u", "focus_survival", "Survival", id="main.focus_survival"),
        Binding("R", "rebuild", "Rebuild summary", show=False, id="main.rebuild"),
        Binding("o", "focus_handoffs", "Handoffs", id="main.focus_handoffs"),
        Binding("a", "focus_actions", "Actions", id="main.focus_actions"),
        Binding("x", "focus_deletions", "Deletions", id="main.focus_deletions"),
        Binding("b", "focus_budget", "Budget", id="main.focus_budget"),
        Binding("h", "history", "History", id="main.history"),
        Binding("s", "toggle_sessions", "Sessions", id="main.toggle_sessions"),
        Binding("v", "verify", "Verify", id="main.verify"),
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
        self.generation_texts: list = []

    def compose(self) -> ComposeResult:
        yield HeaderBar(self.store.path, self.store.read_only_reason if self.store.read_only else None, id="header")
        if self.follow is not None:
            # appended lines are imported under the reviewer's name once given, else the OS user's (as at open)
            yield FollowBar(self.store.path, self.follow, self.app.reviewer or getpass.getuser(),  # type: ignore[attr-defined]
                            id="follow")
        with Horizontal(id="body"):
            yield SessionsList()
            with Vertical(id="main"):
                with Horizontal(id="channels"):
                    yield StateChannel()
                    yield SummaryChannel()
                    yield EvidenceChannel()
                with TabbedContent(id="tabs"):
                    with TabPane("Timeline", id="tab-timeline"):
                        yield TimelineArea(id="timeline-area")
                    with TabPane("Candidates", id="tab-candidates"):
                        yield CandidatesList(id="candidates")
                    with TabPane("Drift", id="tab-drift"):
                        yield DriftView(id="drift")
                    with TabPane("Survival", id="tab-survival"):
                        yield SurvivalView(id="survival")
                    with TabPane("Handoffs", id="tab-handoffs"):
                        yield HandoffsList(id="handoffs")
                    with TabPane("Actions", id="tab-actions"):
                        yield ActionsList(id="actions")
                    with TabPane("Deletions", id="tab-deletions"):
                        yield DeletionsList(id="deletions")
                    with TabPane("Budget", id="tab-budget"):
                        yield BudgetView(id="budget")
        yield ProgressLine(id="progress")
        yield Footer()

    def on_mount(self) -> None:
        if self.store.read_only:
            self.notify(f"{self.store.path.name} is read-only ({self.store.read_only_reason}): you can read, search, "
                        "expand and verify; accepting, correcting, handoffs and deletions are disabled.",
                        severity="warning", timeout=10)
        self.watch = sessions.ChangeWatch(self.store)
        self.acts = recent_acts.ActsWatch(self.store)
        self.load_sessions()
        self._checking = False
        self.check_for_changes()  # the first look: what is there now counts as seen
        self.set_interval(LIVE_POLL_S, self._poll_changes)

    def _poll_changes(self) -> None:
        # A look still running (a slow server, a busy machine) is left to finish, never cancelled:
        # cancelled after reading the change counter, it would lose that change for good.
        if not self._checking:
            self.check_for_changes()

    @work(group="live", exit_on_error=False)
    async def check_for_changes(self) -> None:
        """A live store: when another process commits, say who did what and reload the sessions
        and the open session."""
        self._checking = True
        try:
            changed = await self.watch.changed()
            if self.acts.seen is None:
                await self.acts.start()
            if changed:
                # This window's own acts are in the ledger too (its writes do not count as changes,
                # so they were not consumed); the notice names the others'.
                mine = getattr(self.app, "reviewer", None)
                acts = [a for a in await self.acts.news() if a.actor != mine]
                if not self._followed_write():
                    self.notify(f"{recent_acts.describe(acts)}; reloaded.", title="Changed elsewhere", timeout=5,
                                markup=False)
                    self.initial_session = self.session
                    self.load_sessions()
        finally:
            self._checking = False

    def _followed_write(self) -> bool:
        """The change was the follower importing appended lines (shown as they arrive, no reload)."""
        bars = self.query(FollowBar)
        return bool(bars) and bars.first().consume_wrote()

    async def on_follow_bar_grew(self, event: FollowBar.Grew) -> None:
        if event.session != self.session:
            self.load_sessions_then(event.session)
            return
        await self.query_one(TimelineView).grew()
        self.run_worker(self._load_rest(event.session), group="badges", exclusive=True, exit_on_error=False)

    # -- loading ---------------------------------------------------------------------------

    @work(group="sessions", exclusive=True, exit_on_error=False)
    async def load_sessions(self) -> None:
        items = await sessions.list_sessions(self.store)
        self.session_ids = [s.id for s in items]
        target = self.initial_session or (items[0].id if items else None)
        if self.initial_session is not None and self.initial_session not in self.session_ids:
            raise NotFound(f"no session {self.initial_session!r} in {self.store.path.name}")
        self.query_one(SessionsList).load(items, target)
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
        # The status line first: it is on screen. The tabs behind follow; the budget, which
        # reads every event, is computed only when its tab is shown (BudgetView.show).
        await self._load_badges(session)
        items = await sessions.list_sessions(self.store)  # its versions and counts follow every act
        self.session_ids = [s.id for s in items]
        self.query_one(SessionsList).load(items, session)
        await self._load_candidates(session)
        await self._load_drift(session)
        self.query_one(HandoffsList).load(await handoffs.list_handoffs(self.store, session))
        await self._load_actions(session)
        self.query_one(DeletionsList).load(await deletions.list_requests(self.store, session))
        self.query_one(BudgetView).show(self.store, session)

    async def _load_candidates(self, session: str) -> None:
        found = await candidates.list_candidates(self.store, session)
        self.query_one(CandidatesList).load(found)
        pending = sum(1 for c, _ in found if c["status"] == "pending")
        self.query_one(TabbedContent).get_tab("tab-candidates").label = (
            f"Candidates ({pending} pending)" if pending else f"Candidates ({len(found)})")

    async def _load_actions(self, session: str) -> None:
        rows = await reconciling.list_actions(self.store, session)
        self.query_one(ActionsList).load(rows)
        unknown = sum(1 for a in rows if a.status == "unknown")
        self.query_one(TabbedContent).get_tab("tab-actions").label = (
            f"Actions ({unknown} unknown)" if unknown else "Actions")

    async def _load_drift(self, session: str) -> None:
        findings, timeline, self.generation_texts = await drift_overview(self.store, session)
        self.query_one(DriftView).load(findings, timeline)
        latest = findings[max(findings)] if findings else []
        count = sum(1 for f in latest if f.severity == "finding")
        self.query_one(TabbedContent).get_tab("tab-drift").label = f"Drift ({count})" if count else "Drift"
        if count and session == self.session and self._drift_said != (session, count):
            self._drift_said = (session, count)  # said once per count, not again at each followed batch
            self.notify(f"The latest summary drifted ({count} finding(s)): d shows them; R rebuilds a generation "
                        "from the raw log.", severity="warning", timeout=5)
        with self.query_one(ProgressLine).task("Survival of each summary generation") as step:
            reports = await survival_all(self.store, session, progress=step)
        self.query_one(SurvivalView).reports = reports
        lost = sum(1 for v in (reports[0].verdicts if reports else []) if v.verdict in ("missing", "contradicted"))
        self.query_one(TabbedContent).get_tab("tab-survival").label = f"Survival ({lost} lost)" if lost else "Survival"

    async def _load_badges(self, session: str) -> None:
        info, badges = await overview.overview(self.store, session)
        if session == self.session:
            self.query_one(HeaderBar).show(info, badges)
            await self.query_one(TimelineView).load_totals()

    # -- events from widgets -----------------------------------------------------------------

    def on_sessions_list_chosen(self, event: SessionsList.Chosen) -> None:
        self.open_session(event.item_id)

    def on_candidates_list_chosen(self, event: CandidatesList.Chosen) -> None:
        if self.session:
            self.review(event.item_id)

    def on_handoffs_list_chosen(self, event: HandoffsList.Chosen) -> None:
        if self.session:
            self.check_handoff(event.item_id)

    def on_deletions_list_chosen(self, event: DeletionsList.Chosen) -> None:
        if self.session:
            self.review_deletion(event.item_id)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if isinstance(event.option_list, ActionsList) and event.option.id and self.session:
            self.reconcile_action(event.option.id)

    def reconcile_action(self, action: str) -> None:
        row = self.query_one(ActionsList).rows.get(action)
        if row is None:
            return
        if row.status not in ("unknown", "in_flight"):
            self.notify(f"{action} is {row.status}: only an unknown or in-flight outcome is reconciled.",
                        severity="warning")
            return

        def done(recorded: bool | None) -> None:
            if recorded and self.session is not None:
                self.open_session(self.session)

        self.app.with_reviewer(lambda who: self.app.push_screen(  # type: ignore[attr-defined]
            ReconcileDialog(self.store, self.session or "", row, who), done))

    def review_deletion(self, request: str) -> None:
        def done(deleted: bool | None) -> None:
            if deleted and self.session is not None:
                self.open_session(self.session)

        self.app.with_reviewer(lambda who: self.app.push_screen(  # type: ignore[attr-defined]
            DeletionDialog(self.store, self.session or "", request, who), done))

    def check_handoff(self, handoff: str) -> None:
        def done(new_session: str | None) -> None:
            if new_session:
                self.load_sessions_then(new_session)  # the new session appears in the list and opens
            elif self.session is not None:
                self.open_session(self.session)  # an action may have been reconciled from the dialog

        self.app.with_reviewer(lambda who: self.app.push_screen(  # type: ignore[attr-defined]
            HandoffDialog(self.store, self.session or "", handoff, who), done))

    def load_sessions_then(self, session: str) -> None:
        self.initial_session = session
        self.load_sessions()

    def review(self, candidate: str) -> None:
        listing = self.query_one(CandidatesList)

        async def decided() -> None:  # versions, badges and lists all change after a decision, behind the dialog too
            if self.session is not None:
                listing.cursor_after = listing.next_pending_after(candidate) or candidate
                await self._open(self.session, rest_inline=True)

        self.app.with_reviewer(lambda who: self.app.push_screen(  # type: ignore[attr-defined]
            ReviewDialog(self.store, self.session or "", candidate, who, on_decided=decided)))

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
                    raise NotFound(f"{ref!r} is not a reference to follow (expected {prefix}N)")
                self.query_one(TimelineArea).conversation = False  # a reference names a row
                await self.query_one(TimelineView).jump_to_event(int(number), source)
                self.action_focus_timeline()
                return
        evidence = self.query_one(EvidenceChannel)
        if evidence.hits or evidence.query_one(Input).value:
            evidence.query_one(Input).value = ""
            evidence.load(await channels.evidence(self.store, self.session))
        if not evidence.select_material(ref):
            raise NotFound(f"{ref} is not a material of session {self.session!r}: it may never have been stored, "
                           "or it belongs to another session")
        self.focus_on(evidence.records)

    def on_evidence_channel_search_requested(self, event: EvidenceChannel.SearchRequested) -> None:
        self.run_worker(self._search(event.query), group="search", exclusive=True, exit_on_error=False)

    async def _search(self, query: str) -> None:
        await asyncio.sleep(SEARCH_DEBOUNCE_S)  # typing replaces this worker; only the last query runs
        if self.session is None:
            return
        evidence = self.query_one(EvidenceChannel)
        if not query:
            evidence.load(await channels.evidence(self.store, self.session))
            return
        evidence.show_results(await search(self.store, self.session, query))

    async def on_timeline_view_row_opened(self, event: TimelineView.RowOpened) -> None:
        row: TimelineRow = event.row
        if row.source == "ledger" or self.session is None:
            await self.app.push_screen(MessageDialog(f"Ledger entry L{row.seq}",
                                                     plain(f"{row.kind} by {row.actor}\n{row.at}\n\n{row.text}")))
            return
        if "deleted" in row.marks:
            await self.app.push_screen(MessageDialog(f"Event #{row.seq} · deleted", row.text))
            return
        session, seq = self.session, row.seq
        view = await event_view.event_head(self.store, session, seq)  # bounded: a 50 MB event opens at once
        if view is None:
            await self.app.push_screen(MessageDialog(f"Event #{seq} · {row.kind}", "not found"))
            return
        tail = ""
        original = await channels.original_text(self.store, session, view.record.get("origin") or {})
        if original is not None:
            line = view.record.get("origin", {}).get("line")
            tail = f"\n\n── original, line {line} of the imported file, verified ──\n{original}"

        async def more(start: int, count: int) -> str:
            return await event_view.content_window(self.store, session, seq, start, count)

        lead = await event_lead(self.store, session, row, view.record)  # what it links to, its thinking
        await self.app.push_screen(EventDialog(f"Event #{seq} · {row.kind}", view, tail, more, lead=lead))

    # -- actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Writing acts are greyed out on a read-only store (the header says why)."""
        if action in WRITING_ACTIONS and self.store.read_only:
            return None
        return True

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

    def action_focus_candidates(self) -> None:
        self.query_one(TabbedContent).active = "tab-candidates"
        self.focus_on(self.query_one(CandidatesList))

    def action_search(self) -> None:
        self.focus_on(self.query_one("#evidence-search", Input))

    def action_clear_search(self) -> None:
        """escape: clear the search and leave the box, so the next keys are keys again (issue 15, 6)."""
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
        if self.session is not None:
            self.open_session(self.session)

    def action_expand(self) -> None:
        stub = self.query_one(EvidenceChannel).selected_stub()
        if stub is None or self.session is None:
            self.notify("Select a stub (↳) in Raw evidence first (3, then ↑↓).", severity="warning")
            return
        session = self.session
        self.app.with_reviewer(lambda who: self.app.push_screen(  # type: ignore[attr-defined]
            ExpandDialog(self.store, session, stub, who)))

    @work(group="history", exclusive=True, exit_on_error=False)
    async def action_history(self) -> None:
        record = self.query_one(StateChannel).selected()
        if record is None or self.session is None:
            self.notify("Select a protected state record first (1, then ↑↓).", severity="warning")
            return
        lines = []
        for v in await corrections.history(self.store, self.session, record.key):
            lines.append(f"v{v['version']}  {v['status']:<10} {v['value']}\n      by {v['writer'] or 'unknown'} at "
                         f"{v['at'] or 'unknown'} · sources {', '.join(v['sources']) or 'none'}")
            lines += [f"      L{a['ledger']} {a['kind']} by {a['actor']}: {a['decision'] or ''} {a['reason'] or ''}"
                      for a in v["acts"]]
        await self.app.push_screen(MessageDialog(f"History of {record.key}", "\n".join(lines)))

    def action_focus_deletions(self) -> None:
        self.query_one(TabbedContent).active = "tab-deletions"
        self.focus_on(self.query_one(DeletionsList))

    def action_focus_budget(self) -> None:
        self.query_one(TabbedContent).active = "tab-budget"
        self.focus_on(self.query_one("#budget-plan"))  # not an input: 1 2 3 … stay keys (issue 15, 6)

    def action_focus_handoffs(self) -> None:
        self.query_one(TabbedContent).active = "tab-handoffs"
        self.focus_on(self.query_one(HandoffsList))

    def action_focus_actions(self) -> None:
        self.query_one(TabbedContent).active = "tab-actions"
        self.focus_on(self.query_one(ActionsList))

    def action_focus_survival(self) -> None:
        self.query_one(TabbedContent).active = "tab-survival"
        self.focus_on(self.query_one("#survival-generations", OptionList))

    def action_rebuild(self) -> None:
        """R: append a generation rebuilt from the raw log (offered when the chain drifted)."""
        if self.session is not None:
            self.app.with_reviewer(self.rebuild)  # type: ignore[attr-defined]

    @work(group="rebuild", exclusive=True, exit_on_error=False)
    async def rebuild(self, reviewer: str) -> None:
        if self.session is None:
            return
        built = await rebuilding.rebuild_generation(self.store, self.session, actor=reviewer)
        self.notify(f"Generation {built.generation} rebuilt from the raw log; context v{built.context_version}.")
        self.open_session(self.session)

    def action_focus_drift(self) -> None:
        self.query_one(TabbedContent).active = "tab-drift"
        self.focus_on(self.query_one("#drift-findings", OptionList))

    def action_correct(self) -> None:
        """c: correct what is selected — a drift finding's generation, or a protected record."""
        if self.session is not None:
            self.app.with_reviewer(self.correct)  # type: ignore[attr-defined]

    def correct(self, reviewer: str) -> None:
        if self.session is None:
            return
        focused = self.focused
        picked = self.query_one(DriftView).selected() if focused is self.query_one("#drift-findings") else None
        summary = self.query_one(SummaryChannel)
        chosen_gen = summary.selected() if focused is summary.records or focused is summary.sources else None
        if picked is None and chosen_gen is None and summary.has_focus_within:
            self.notify("Select a summary generation (2, then ↑↓) to correct it.", severity="warning")
            return
        if picked is not None or chosen_gen is not None:
            generation = picked[0] if picked is not None else chosen_gen.generation  # type: ignore[union-attr]
            gen = next(g for g in self.generation_texts if g.generation == generation)
            records = list(self.query_one(StateChannel).items.values())
            findings = list(self.query_one(DriftView).findings[k] for k in self.query_one(DriftView).findings
                            if k.startswith(f"{generation}:"))
            fixed = corrected_text(gen, findings, records)
            dialog = CorrectionDialog(self.store, self.session, reviewer, generation=generation,
                                      prefill=fixed.text, unresolved=fixed.unresolved)
        else:
            record = self.query_one(StateChannel).selected()
            if record is None:
                self.notify("Select a protected record (1) or a drift finding (d) first.", severity="warning")
                return
            dialog = CorrectionDialog(self.store, self.session, reviewer, record=record)

        def done(filed: bool | None) -> None:
            if filed and self.session is not None:
                self.open_session(self.session)

        self.app.push_screen(dialog, done)

    @work(group="verify", exclusive=True, exit_on_error=False)
    async def action_verify(self) -> None:
        with self.query_one(ProgressLine).task("Verifying the ledger chain and projections") as step:
            report = await verifying.verify_store(self.store, progress=step)
        if report.ok:
            await self.app.push_screen(MessageDialog(
                "Store verified",
                f"{report.entries} ledger entries: the chain, the replayed projections and SQLite's "
                f"{report.integrity} hold.\n\nLedger head {report.head['seq']}:{report.head['hash']}\n(keep it to "
                f"pin: inspector verify STORE --head {report.head['seq']}:{report.head['hash']})"))
        else:
            body = "\n".join(p["message"] for p in report.problems[:20])
            await self.app.push_screen(MessageDialog("Store does NOT verify", body, error=True))

    @work(group="report", exclusive=True, exit_on_error=False)
    async def action_write_report(self) -> None:
        """ctrl+e: the open session as one HTML file a colleague can open, written beside the store."""
        if self.session is None:
            self.notify("Open a session first.", severity="warning")
            return
        path = default_report_path(self.store.path, self.session)
        written = await write_report(self.store, self.session, path)
        self.notify(f"{path} ({written.bytes:,} bytes): open it in any browser.", title="Report written",
                    timeout=10)
