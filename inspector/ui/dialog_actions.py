"""The main screen's acts that open a dialog (a mixin of :class:`MainScreen`).

Reviewing a candidate, checking a handoff, reconciling an action, carrying out a deletion,
expanding a stub, correcting a record or a drifted generation, rebuilding a summary, the
history of a record, verifying the store, writing the report, opening an event. Each
dialog's module (and the services behind it) loads when the act is first asked for, not
before the first paint (issue 18). Keys and behaviour are the main screen's as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work

from inspector.ui.dialogs import MessageDialog
from inspector.ui.safe import plain

if TYPE_CHECKING:
    from textual.screen import Screen

    from inspector.services.timeline import TimelineRow
    from inspector.store.connection import Store
    from inspector.ui.widgets.timeline_view import TimelineView

    _Base = Screen[None]
else:
    _Base = object


class OpensDialogs(_Base):
    """Needs ``self.store``, ``self.session``, ``self.generation_texts`` and the screen's loaders."""

    store: Store
    session: str | None
    generation_texts: list[Any]

    def _reopen_when(self, changed: bool | None) -> None:
        if changed and self.session is not None:
            self.open_session(self.session)  # type: ignore[attr-defined]

    def _with_reviewer(self, dialog: Any, done: Any = None) -> None:
        """Ask who reviews (once), then push the dialog ``dialog(reviewer)`` builds."""
        self.app.with_reviewer(lambda who: self.app.push_screen(dialog(who), done))  # type: ignore[attr-defined]

    def reconcile_action(self, action: str) -> None:
        from inspector.ui.reconcile_dialog import ReconcileDialog

        actions = self.tab("#actions")  # type: ignore[attr-defined]
        row = actions.rows.get(action) if actions is not None else None
        if row is None:
            return
        if row.status not in ("unknown", "in_flight"):
            self.notify(f"{action} is {row.status}: only an unknown or in-flight outcome is reconciled.",
                        severity="warning")
            return
        self._with_reviewer(lambda who: ReconcileDialog(self.store, self.session or "", row, who), self._reopen_when)

    def review_deletion(self, request: str) -> None:
        from inspector.ui.deletion_dialog import DeletionDialog

        self._with_reviewer(lambda who: DeletionDialog(self.store, self.session or "", request, who),
                            self._reopen_when)

    def deletion_target(self) -> str | None:
        """What ``D`` would request deleted: the event on the focused timeline row, or the material
        (a stub's material, a search hit's event or material) on the focused Raw evidence row."""
        from inspector.ui.widgets.evidence_channel import EvidenceChannel
        from inspector.ui.widgets.timeline_view import TimelineView

        focused = self.focused
        if isinstance(focused, TimelineView):
            row = focused.current
            ok = row is not None and row.source != "ledger" and "deleted" not in row.marks
            return f"evt:{row.seq}" if ok and row is not None else None
        evidence = self.query_one(EvidenceChannel)
        return evidence.selected_target() if focused is evidence.records else None

    def action_request_deletion(self) -> None:
        from inspector.ui.request_deletion_dialog import RequestDeletionDialog
        from inspector.ui.widgets.timeline_area import TimelineArea

        target = self.deletion_target()
        if target is None or self.session is None:
            rows = "T back to rows, then ↑↓" if self.query_one(TimelineArea).conversation else "t, then ↑↓"
            self.notify(f"Select an event in the Timeline ({rows}) or a row in Raw evidence (3, then ↑↓) first: "
                        "D requests its deletion.", severity="warning")
            return
        session = self.session

        def filed(request: str | None) -> None:
            if request:
                self.run_worker(self._show_filed(session, request), group="deletions", exit_on_error=False)

        self._with_reviewer(lambda who: RequestDeletionDialog(self.store, session, target, who), filed)

    async def _show_filed(self, session: str, request: str) -> None:
        """The Deletions tab, on the request just filed; then the rest of the session read again
        (the timeline's new ledger row)."""
        if self.tab("#deletions") is not None:  # type: ignore[attr-defined]
            await self.load_deletions(session, select=request)  # type: ignore[attr-defined]
        await self.action_focus_deletions()  # type: ignore[attr-defined]
        self.open_session(session)  # type: ignore[attr-defined]

    def check_handoff(self, handoff: str) -> None:
        from inspector.ui.handoff_dialog import HandoffDialog

        def done(new_session: str | None) -> None:
            if new_session:
                self.load_sessions_then(new_session)  # type: ignore[attr-defined]  # the new session appears and opens
            elif self.session is not None:
                self.open_session(self.session)  # type: ignore[attr-defined]  # an action may have been reconciled

        self._with_reviewer(lambda who: HandoffDialog(self.store, self.session or "", handoff, who), done)

    def review(self, candidate: str) -> None:
        from inspector.ui.review_dialog import ReviewDialog

        listing = self.tab("#candidates")  # type: ignore[attr-defined]

        async def decided() -> None:  # versions, badges and lists all change after a decision, behind the dialog too
            if self.session is not None:
                if listing is not None:
                    listing.cursor_after = listing.next_pending_after(candidate) or candidate
                await self._open(self.session, rest_inline=True)  # type: ignore[attr-defined]

        self._with_reviewer(lambda who: ReviewDialog(self.store, self.session or "", candidate, who,
                                                     on_decided=decided))

    async def _ledger_detail(self, row: TimelineRow) -> str:
        """The entry's whole payload: the timeline row holds one line cut at 160 characters, and the
        dialog opened to read it showed that cut line ("format=\"cla…") with the screen to spare."""
        import json

        from inspector.services.sessions import session_ledger

        if row.source != "ledger" or self.session is None:
            return row.text
        if row.folded:  # a follow's run of imports: every entry it holds, one paragraph each
            first, last = row.folded
            return "\n\n".join(f"L{e['seq']} {e['kind']} by {e['actor']} · {e['at']}\n"
                                 + json.dumps(e["payload"], ensure_ascii=False, sort_keys=True)
                                 for e in await session_ledger(self.store, self.session)
                                 if first <= e["seq"] <= last)
        entry = next((e for e in await session_ledger(self.store, self.session)
                      if e["seq"] == row.seq), None)
        return row.text if entry is None else json.dumps(entry["payload"], ensure_ascii=False, indent=2)

    async def on_timeline_view_row_opened(self, event: TimelineView.RowOpened) -> None:
        from inspector.services import channels, event_view
        from inspector.ui.event_detail import event_lead
        from inspector.ui.event_dialog import EventDialog

        row = event.row
        if row.source == "ledger" or self.session is None:
            title = (f"Ledger entries L{row.folded[0]}–L{row.folded[1]} (a follow's imports)" if row.folded
                     else f"Ledger entry L{row.seq}")
            lead = row.text if row.folded else f"{row.kind} by {row.actor}\n{row.at}"
            await self.app.push_screen(MessageDialog(title, plain(f"{lead}\n\n" + await self._ledger_detail(row))))
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

    def action_expand(self) -> None:
        from inspector.ui.expand_dialog import ExpandDialog
        from inspector.ui.widgets.evidence_channel import EvidenceChannel

        stub = self.query_one(EvidenceChannel).selected_stub()
        if stub is None or self.session is None:
            self.notify("Select a stub (↳) in Raw evidence first (3, then ↑↓).", severity="warning")
            return
        session = self.session
        self._with_reviewer(lambda who: ExpandDialog(self.store, session, stub, who), self._reopen_when)

    @work(group="history", exclusive=True, exit_on_error=False)
    async def action_history(self) -> None:
        from inspector.services import corrections
        from inspector.ui.widgets.state_channel import StateChannel

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

    def action_rebuild(self) -> None:
        """R: append a generation rebuilt from the raw log (offered when the chain drifted)."""
        if self.session is not None:
            self.app.with_reviewer(self.rebuild)  # type: ignore[attr-defined]

    @work(group="rebuild", exclusive=True, exit_on_error=False)
    async def rebuild(self, reviewer: str) -> None:
        from inspector.services import rebuilding

        if self.session is None:
            return
        built = await rebuilding.rebuild_generation(self.store, self.session, actor=reviewer)
        self.notify(f"Generation {built.generation} rebuilt from the raw log; context v{built.context_version}.")
        self.open_session(self.session)  # type: ignore[attr-defined]

    def action_correct(self) -> None:
        """c: correct what is selected — a drift finding's generation, or a protected record."""
        if self.session is not None:
            self.app.with_reviewer(self.correct)  # type: ignore[attr-defined]

    def correct(self, reviewer: str) -> None:
        from inspector.ui.correction_dialog import CorrectionDialog, corrected_text
        from inspector.ui.widgets.state_channel import StateChannel
        from inspector.ui.widgets.summary_channel import SummaryChannel

        if self.session is None:
            return
        focused = self.focused
        drift = self.tab("#drift")  # type: ignore[attr-defined]
        picked = drift.selected() if drift is not None and focused is self.query_one("#drift-findings") else None
        summary = self.query_one(SummaryChannel)
        chosen_gen = summary.selected() if focused is summary.records or focused is summary.sources else None
        if picked is None and chosen_gen is None and summary.has_focus_within:
            self.notify("Select a summary generation (2, then ↑↓) to correct it.", severity="warning")
            return
        if picked is not None or chosen_gen is not None:
            generation = picked[0] if picked is not None else chosen_gen.generation  # type: ignore[union-attr]
            gen = next(g for g in self.generation_texts if g.generation == generation)
            records = list(self.query_one(StateChannel).items.values())
            findings = ([drift.findings[k] for k in drift.findings if k.startswith(f"{generation}:")]
                        if drift is not None else [])
            fixed = corrected_text(gen, findings, records)
            dialog = CorrectionDialog(self.store, self.session, reviewer, generation=generation,
                                      prefill=fixed.text, unresolved=fixed.unresolved)
        else:
            record = self.query_one(StateChannel).selected()
            if record is None:
                self.notify("Select a protected record (1) or a drift finding (d) first.", severity="warning")
                return
            dialog = CorrectionDialog(self.store, self.session, reviewer, record=record)

            def filed(changed: bool | None) -> None:
                # the cursor on the version just filed: kept on the old row's id, the detail showed the
                # superseded value the reviewer had just replaced (flow-nine)
                if changed and dialog.new_row:
                    self.query_one(StateChannel).cursor_after = dialog.new_row
                self._reopen_when(changed)

            self.app.push_screen(dialog, filed)
            return
        self.app.push_screen(dialog, self._reopen_when)

    @work(group="verify", exclusive=True, exit_on_error=False)
    async def action_verify(self) -> None:
        from inspector.services import verifying
        from inspector.ui.widgets.progress_line import ProgressLine

        with self.query_one(ProgressLine).task("Verifying the ledger chain and projections") as step:
            report = await verifying.verify_store(self.store, progress=step)
        if report.ok:
            await self.app.push_screen(MessageDialog(
                "Store verified",
                f"{report.entries:,} ledger {'entry' if report.entries == 1 else 'entries'}: {report.checked()} hold."
                + (f"\n{report.not_covered()}" if report.not_covered() else "")
                + "".join(f"\n\n! {note}" for note in report.notes())
                + f"\n\nLedger head {report.head['seq']}:{report.head['hash']}\n(keep it to "
                f"pin: inspector verify STORE --head {report.head['seq']}:{report.head['hash']})"))
        else:
            body = "\n".join(p["message"] for p in report.problems[:20]) + (
                f"\n… and {len(report.problems) - 20:,} more (inspector verify STORE --json lists them all)"
                if len(report.problems) > 20 else "")
            if any(p.get("code") == "remembered_head_differs" for p in report.problems):
                body += ("\n\nTo forget the remembered head (only if you replaced the file on purpose): press F "
                         "(or \"Forget remembered head\" in ctrl+p); it asks first, then verifies again.")
            await self.app.push_screen(MessageDialog("Store does NOT verify", body, error=True))

    def action_forget_head(self) -> None:
        """F: after restoring the store from a backup at the same path, forget the head this
        machine remembers for it — asked first (ForgetHeadDialog), then verified at once."""
        from inspector.services import verify_remembered
        from inspector.ui.forget_head_dialog import ForgetHeadDialog

        head = verify_remembered.remembered_head(self.store)
        if head is None:
            self.notify(f"This machine remembers no ledger head for {plain(self.store.path.name)}: nothing to "
                        "forget.", title="Forget remembered head")
            return

        def answered(confirmed: bool | None) -> None:
            if not confirmed:
                return
            verify_remembered.forget_head(self.store)
            self.notify(f"Forgot the head of entry {head['seq']}; verifying now.", title="Forget remembered head")
            self.action_verify()

        self.app.push_screen(ForgetHeadDialog(self.store.path.name, head), answered)

    @work(group="report", exclusive=True, exit_on_error=False)
    async def action_write_report(self) -> None:
        """ctrl+e: the open session as one HTML file a colleague can open, written beside the store."""
        from inspector.services.report import default_report_path, write_report

        if self.session is None:
            self.notify("Open a session first.", severity="warning")
            return
        path = default_report_path(self.store.path, self.session)
        written = await write_report(self.store, self.session, path)
        self.notify(f"{path} ({written.bytes:,} bytes): open it in any browser.", title="Report written",
                    timeout=10)
