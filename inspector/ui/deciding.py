"""Deciding pending protected records from the main screen (a mixin of :class:`MainScreen`).

``y`` / ``n`` decide the highlighted pending record at once, through the same service as the
CLI's ``confirm`` (the owner rule included; a refusal is shown in a dialog and nothing is
written), then move the cursor to the next pending record. With records marked (``space``,
``ctrl+a``) they decide all of them, after a dialog listing what will be decided and what the
reviewer may not decide; the cursor stays on its row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from inspector.ui.dialogs import MessageDialog
from inspector.ui.safe import safe
from inspector.ui.widgets.state_channel import StateChannel

if TYPE_CHECKING:
    from textual.screen import Screen

    from inspector.services.channels import StateRecord
    from inspector.store.connection import Store

    _Base = Screen[None]
else:
    _Base = object


class DecidesPending(_Base):
    """Needs ``self.store`` and ``self.session`` (the open session) from the screen."""

    store: Store
    session: str | None

    def action_decide_pending(self, reject: bool) -> None:
        """y / n: decide the marked pending records (after a confirmation dialog), or the highlighted one."""
        if self.session is None:
            return
        state = self.query_one(StateChannel)
        marked = state.marked_records()
        if marked:
            self.app.with_reviewer(lambda who: self.decide_marked(marked, reject, who))  # type: ignore[attr-defined]
            return
        record = state.selected()
        if record is None or record.status != "pending":
            what = f"{record.key} v{record.version} is {record.status}. " if record is not None else ""
            self.notify(f"{what}Highlight a pending record (◌) in Protected state (1, then ↑↓), or mark several "
                        "with space.", severity="warning")
            return
        self.app.with_reviewer(lambda who: self.decide_one(record, reject, who))  # type: ignore[attr-defined]

    @work(group="decide", exclusive=True, exit_on_error=False)
    async def decide_one(self, record: StateRecord, reject: bool, reviewer: str) -> None:
        from inspector.services import (
            corrections,  # loaded on the first decision, not before the first paint
        )

        session = self.session or ""
        verb = "reject" if reject else "confirm"
        outcome = await corrections.confirm(self.store, session, record.key, version=record.version, actor=reviewer,
                                            reject=reject, reason=f"{verb}ed in the app")
        if outcome.refusals:
            refusal = outcome.refusals[0]
            await self.app.push_screen(MessageDialog(
                f"Cannot {verb} {record.key} ({refusal.code})", f"{refusal.message}\n\nNothing was written.",
                error=True))
            return
        state = self.query_one(StateChannel)
        option_id = f"{record.key}@{record.version}"
        state.cursor_after = state.next_pending_after(option_id) or option_id  # on to the next decision
        self.notify(safe(f"{record.key} v{record.version} {verb}ed ({'now active' if not reject else 'superseded'}); "
                         f"context v{outcome.context_version}."), markup=False)
        self.open_session(session)

    @work(group="decide", exclusive=True, exit_on_error=False)
    async def decide_marked(self, records: list[StateRecord], reject: bool, reviewer: str) -> None:
        from inspector.services import confirmations
        from inspector.ui.decision_dialog import DecisionDialog

        session = self.session or ""
        refused = await confirmations.preview(self.store, session, [(r.key, r.version) for r in records],
                                              actor=reviewer, reject=reject)
        if len(refused) == len(records):
            verb = "reject" if reject else "confirm"
            body = "\n".join(f"{r.key} v{r.version} ({r.refusal.code}): {r.refusal.message}" for r in refused)
            what = f"any of the {len(records):,} marked records" if len(records) > 1 else "the marked record"
            await self.app.push_screen(MessageDialog(f"Cannot {verb} {what}",
                                                     body + "\n\nNothing was written.", error=True))
            return

        def done(decided: bool | None) -> None:
            if decided and self.session is not None:
                self.open_session(self.session)  # the cursor stays on its row; decided marks fall away

        await self.app.push_screen(DecisionDialog(self.store, session, reviewer, records, refused, reject=reject), done)

    def action_toggle_mark(self) -> None:
        self.query_one(StateChannel).action_toggle_mark()

    def action_mark_all(self) -> None:
        self.query_one(StateChannel).action_mark_all()

    if TYPE_CHECKING:
        def open_session(self, session: str) -> None: ...  # the screen's: read the session again
