"""The tabs behind the timeline (a mixin of :class:`MainScreen`): labelled at once, filled after the first paint.

The tab bar shows every tab from the first frame, but only the Timeline is visible then, so
the other panes start empty and their widgets (and the modules behind them: drift rules,
survival, handoffs…) load and mount once the first frame is on screen (issue 18: "nothing
hidden computed before it is shown"). Everything that reaches into a tab first awaits
:meth:`tabs_ready`, so a key pressed in that moment waits for its tab instead of failing.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING, Any

from textual import events
from textual.widgets import OptionList, TabbedContent, TabPane

from inspector.domain.plurals import counted as _n
from inspector.domain.unreadable import NOT_JUDGED_ALL as NOT_JUDGED
from inspector.ui.widgets.progress_line import ProgressLine

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    from inspector.store.connection import Store

    _Base = Screen[None]
else:
    _Base = object

# (tab label, pane id, "module:class" of its widget, the widget's id); the Timeline pane is composed at once
TABS_BEHIND: tuple[tuple[str, str, str, str], ...] = (
    ("Candidates", "tab-candidates", "candidates_list:CandidatesList", "candidates"),
    ("Drift", "tab-drift", "drift_view:DriftView", "drift"),
    ("Survival", "tab-survival", "survival_view:SurvivalView", "survival"),
    ("Handoffs", "tab-handoffs", "handoffs_list:HandoffsList", "handoffs"),
    ("Actions", "tab-actions", "actions_list:ActionsList", "actions"),
    ("Deletions", "tab-deletions", "deletions_list:DeletionsList", "deletions"),
    ("Budget", "tab-budget", "budget_view:BudgetView", "budget"),
)


FIRST_READ_WAIT_S = 3.0  # a tab key waits at most this long for the tab's first read


def widget_class(spec: str) -> type[Widget]:
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(f"inspector.ui.widgets.{module}"), name)  # type: ignore[no-any-return]


class FocusedPane(TabPane):
    """A pane that shows itself when something in it takes the focus (as TabPane does) only if
    that widget still has the focus: with tab keys typed fast (`b o k … x`) the focus notices
    arrive after the focus has moved on, and the stock pane then switched back to an earlier
    tab, hiding the focused list (the screen ended on Budget with nothing focused)."""

    def _on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self.screen.focused is not event.widget:
            event.prevent_default()  # TabPane's own handler (which Textual calls after this one) is skipped


def empty_panes() -> list[TabPane]:
    return [FocusedPane(label, id=pane) for label, pane, _, _ in TABS_BEHIND]


class FillsTabsLater(_Base):
    """Needs ``self.store`` and ``self.session`` (the open session) from the screen."""

    store: Store
    session: str | None
    generation_texts: list[Any]
    _drift_said: tuple[str, int] | None
    _tabs_filled: asyncio.Task[None] | None = None
    _tab_loaded: dict[str, asyncio.Event] | None = None
    _verdicts_for: str | None = None  # the session whose drift and survival the tabs show (or compute)

    def _loaded(self, pane: str) -> asyncio.Event:
        """Set once the pane's list has been read the first time (load_tabs)."""
        if self._tab_loaded is None:
            self._tab_loaded = {p: asyncio.Event() for _, p, _, _ in TABS_BEHIND}
        return self._tab_loaded[pane]

    async def tabs_ready(self) -> None:
        """Mount the tabs' widgets (once; later calls wait for the first)."""
        if self._tabs_filled is None:
            self._tabs_filled = asyncio.create_task(self._fill_tabs())
        await asyncio.shield(self._tabs_filled)

    async def _fill_tabs(self) -> None:
        with self.app.batch_update():
            await asyncio.gather(*(self.query_one(f"#{pane}", TabPane).mount(widget_class(spec)(id=wid))
                                   for _, pane, spec, wid in TABS_BEHIND))

    def tab(self, selector: str) -> Widget | None:
        """A widget in a tab behind, or None before the tabs are filled."""
        found = self.query(selector)
        return found.first() if found else None

    async def show_tab(self, pane: str, target: str) -> None:
        """Keys typed fast (`b o k a d u x`) each wait for their tab; the last one typed wins, so the
        screen ends on the tab of the last key, with the focus in it."""
        self.focus_asked += 1  # type: ignore[attr-defined]
        asked = self.focus_asked  # type: ignore[attr-defined]
        await self.tabs_ready()
        if self.session is not None and not self._loaded(pane).is_set():
            # its first read is under way: wait for it (bounded), so `enter` typed right behind `k`
            # finds the candidates rather than an empty list and is not lost
            try:
                await asyncio.wait_for(self._loaded(pane).wait(), FIRST_READ_WAIT_S)
            except TimeoutError:
                pass
        if asked != self.focus_asked:  # type: ignore[attr-defined]
            return  # a key typed after this one moved the focus meanwhile
        self.query_one(TabbedContent).active = pane
        self.focus_on(self.query_one(target))  # type: ignore[attr-defined]

    async def action_focus_candidates(self) -> None:
        await self.show_tab("tab-candidates", "#candidates")

    async def action_focus_deletions(self) -> None:
        await self.show_tab("tab-deletions", "#deletions")

    async def action_focus_budget(self) -> None:
        await self.show_tab("tab-budget", "#budget-plan")  # not an input: 1 2 3 … stay keys (issue 15, 6)

    async def action_focus_handoffs(self) -> None:
        await self.show_tab("tab-handoffs", "#handoffs")

    async def action_focus_actions(self) -> None:
        await self.show_tab("tab-actions", "#actions")

    async def action_focus_survival(self) -> None:
        await self.show_tab("tab-survival", "#survival-generations")

    async def action_focus_drift(self) -> None:
        await self.show_tab("tab-drift", "#drift-findings")

    # -- loading ---------------------------------------------------------------------------

    async def load_tabs(self, session: str) -> None:
        """Fill the tabs behind; the budget, which reads every event, is computed only when its
        tab is shown (BudgetView.show)."""
        from inspector.services import handoffs

        await self.tabs_ready()
        try:
            # the lists that are one cheap read each first, the verdicts (which read the raw log)
            # last: a tab key never waits for drift and survival unless it asks for them
            await self._load_candidates(session)
            self._loaded("tab-candidates").set()
            self.query_one("#handoffs").load(await handoffs.list_handoffs(self.store, session))  # type: ignore[attr-defined]
            self._loaded("tab-handoffs").set()
            await self._load_actions(session)
            self._loaded("tab-actions").set()
            await self.load_deletions(session)
            self._loaded("tab-deletions").set()
            self.query_one("#budget").show(self.store, session)  # type: ignore[attr-defined]
            self._loaded("tab-budget").set()
            await self._load_drift(session)
        finally:  # a failed read (its dialog says why) does not make the tab keys wait again
            for pane in self._tab_loaded or {}:
                self._loaded(pane).set()

    # Tab counts carry the header's glyphs (◷ pending, ⚠ drift findings, ✗ facts lost, ? unknown
    # outcomes): "Candidates (8 pending) … Survival (3 lost)" cut "Budget" to "Budge" at 100 columns.
    # The labels' form (name, short name, key) follows the strip's width (tab_labels.py).

    async def load_deletions(self, session: str, select: str | None = None) -> None:
        """The Deletions tab and its count of pending requests (``◷1``): a request filed and not
        carried out needs a reviewer's act, as a pending candidate does (flow-seven)."""
        from inspector.services import deletions

        found = await deletions.list_requests(self.store, session)
        self.query_one("#deletions").load(found, select=select)  # type: ignore[attr-defined]
        pending = sum(1 for cov in found if cov.status == "pending")
        self.set_tab_count("tab-deletions", f"◷{pending}" if pending else "")  # type: ignore[attr-defined]

    async def _load_candidates(self, session: str) -> None:
        from inspector.services import candidates

        found = await candidates.list_candidates(self.store, session)
        self.query_one("#candidates").load(found)  # type: ignore[attr-defined]
        pending = sum(1 for c, _ in found if c["status"] == "pending")
        self.set_tab_count("tab-candidates",  # type: ignore[attr-defined]
                           f"◷{pending}" if pending else f"({len(found)})" if found else "")

    async def _load_actions(self, session: str) -> None:
        from inspector.services import reconciling
        from inspector.services.action_rules import rule_acts

        rows = await reconciling.list_actions(self.store, session)
        acts = await rule_acts(self.store, session)
        hits = acts.hits
        self.query_one("#actions").load(rows, hits, acts.not_read)  # type: ignore[attr-defined]
        unknown = sum(1 for a in rows if a.status == "unknown") + sum(1 for h in hits if h.mark == "?")
        against = sum(1 for h in hits if h.mark == "✗")  # check's ✗: a confirmed rule's act done
        self.set_tab_count("tab-actions",  # type: ignore[attr-defined]
                           f"✗{against}" if against else f"?{unknown}" if unknown else "")

    async def _load_drift(self, session: str) -> None:
        from inspector.services.cleared import cleared_results
        from inspector.services.drift import drift_overview
        from inspector.services.survival import survival_all
        from inspector.services.survival_verdict import mark, survival_verdict

        if self._verdicts_for != session:  # another session's verdicts are not left on screen meanwhile
            self._verdicts_for = session
            self.query_one("#drift").computing()  # type: ignore[attr-defined]
            self.query_one("#survival").computing()  # type: ignore[attr-defined]
        findings, timeline, self.generation_texts = await drift_overview(self.store, session)
        cleared = await cleared_results(self.store, session)
        self.query_one("#drift").load(findings, timeline, cleared)  # type: ignore[attr-defined]
        self._loaded("tab-drift").set()
        latest = findings[max(findings)] if findings else []
        count = sum(1 for f in latest if f.severity == "finding")
        unsure = sum(1 for f in latest if f.code in NOT_JUDGED)  # not judged: "?", never a bare "Drift"
        self.set_tab_count("tab-drift", f"⚠{count}" if count else f"?{unsure}" if unsure else "")  # type: ignore[attr-defined]
        if count and session == self.session and self._drift_said != (session, count):
            self._drift_said = (session, count)  # said once per count, not again at each followed batch
            self.notify(f"The latest summary drifted ({_n(count, 'finding')}): d shows them; R rebuilds a generation "
                        "from the raw log.", severity="warning", timeout=5)
        with self.query_one(ProgressLine).task("Survival of each summary generation") as step:
            reports = await survival_all(self.store, session, progress=step)
        self.query_one("#survival").reports = reports  # type: ignore[attr-defined]
        self._loaded("tab-survival").set()
        # check's rule (services/survival_verdict.py): ✗ for a confirmed fact lost, ? for one not
        # judged or a pending one lost — the tab counted pending losses as ✗ and unknown as nothing
        said = survival_verdict(session, reports[0]) if reports else None
        self.set_tab_count("tab-survival", mark(said) if said else "")  # type: ignore[attr-defined]
        self.query_one("#drift").survival([*said.findings, *said.warnings] if said else [])  # type: ignore[attr-defined]

    # -- events from the tabs --------------------------------------------------------------

    def on_candidates_list_chosen(self, event: Any) -> None:
        if self.session:
            self.review(event.item_id)  # type: ignore[attr-defined]

    def on_handoffs_list_chosen(self, event: Any) -> None:
        if self.session:
            self.check_handoff(event.item_id)  # type: ignore[attr-defined]

    def on_deletions_list_chosen(self, event: Any) -> None:
        if self.session:
            self.review_deletion(event.item_id)  # type: ignore[attr-defined]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "actions" and event.option.id and self.session:
            from inspector.ui.widgets.actions_list import RULE_ROW

            if event.option.id.startswith(RULE_ROW):  # a call against a rule: to the call on the timeline
                self.jump_to(":".join(event.option.id[len(RULE_ROW):].split(":")[:2]))  # type: ignore[attr-defined]
                return
            self.reconcile_action(event.option.id)  # type: ignore[attr-defined]
