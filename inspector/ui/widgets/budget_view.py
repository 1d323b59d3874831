"""The Budget tab: the next request's blocks, the raw evidence picked (each with why), and
everything it does not load.

Edit the numbers and press enter to recompute; nothing is written.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Input, Label, Static

from inspector.domain.budget import BudgetPlan
from inspector.domain.errors import InspectorError
from inspector.services.budget import DEFAULT_REQUEST, DEFAULT_SPLIT, budget
from inspector.store.connection import Store
from inspector.ui.dialogs import ShowsWorkerErrors
from inspector.ui.hanging import HangingLines, Row
from inspector.ui.safe import markup, plain

DEFAULTS = DEFAULT_REQUEST


def plan_content(plan: BudgetPlan) -> HangingLines:
    """The plan as rows with hanging indents (ui/hanging.py): an item that does not fit the
    width continues under its text, not at column 0 where it read as the next item."""
    blank = Content()
    if plan.refusals:
        return HangingLines([(markup("[b $error]$c[/] ", c=r.code), plain(r.message)) for r in plan.refusals])
    rows: list[Row] = [(blank, markup("history budget [b]$h[/b] tokens · loaded $l of the raw history's $t "
                                      "[dim](ratio $r, length only)[/]",
                                      h=f"{plan.history_budget:,}", l=f"{plan.loaded:,}", t=f"{plan.raw_tokens:,}",
                                      r=str(plan.ratio) if plan.ratio is not None else "—"))]
    for block in plan.blocks:
        width = 30
        filled = min(width, width * block.used // block.budget) if block.budget else 0
        bar = markup("[$success]$f[/][dim]$e[/]", f="█" * filled, e="░" * (width - filled))
        rows.append((Content(f"{block.name:<16} ") + bar, Content(f" {block.used:,} / {block.budget:,}")))
    raw = plan.blocks[2]
    rows += [(blank, blank), (blank, markup("[b]raw evidence picked for the task[/b] [dim](most relevant first)[/]"))]
    rows += [(markup("  [$success]$r[/] ", r=i.ref), markup("[dim]$t tokens[/] · $why", t=f"{i.tokens:,}",
                                                             why=i.reason or i.label))
             for i in raw.items] or [(blank, Content("  nothing fits"))]
    rows += [(blank, blank), (blank, markup("[b]not loaded[/b]"))]
    rows += [(markup("  [$warning]$r[/] ", r=n["ref"]), markup("$w [dim]($t tokens)[/]", w=n["why"],
                                                              t=f"{n['tokens']:,}"))
             for n in plan.not_loaded] or [(blank, Content("  nothing"))]
    rows.append((blank, markup("[dim]$t[/]", t="tokens: " + plan.as_dict()["tokenizer"])))
    return HangingLines(rows)


class BudgetView(ShowsWorkerErrors, Vertical):
    """Bad numbers and refusals show inline; any other failure reaches the error dialog. ``b`` lands on
    the plan, not in a number box (typing 2 there once went into the window field);
    shift+tab reaches the numbers, escape leaves them."""

    BINDINGS = [Binding("escape", "leave_inputs", "Back to the plan", show=False),
                Binding("enter", "recompute", "Recompute", id="budget.recompute")]

    def action_recompute(self) -> None:
        self.recompute()
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: Store | None = None
        self.session: str | None = None
        self._stale = False  # a session was shown but its plan not yet computed
        self._planned_for: str | None = None  # the session whose plan the text shows (or computes)

    def compose(self) -> ComposeResult:
        with Horizontal(id="budget-inputs"):
            for name, value in DEFAULTS.items():
                yield Label(name)
                yield Input(str(value), id=f"budget-{name}", type="integer")
            yield Label("split")
            yield Input(",".join(map(str, DEFAULT_SPLIT)), id="budget-split")
        with VerticalScroll(id="budget-plan", can_focus=True):
            yield Static("", id="budget-text")

    def action_leave_inputs(self) -> None:
        self.query_one("#budget-plan").focus()

    def show(self, store: Store, session: str) -> None:
        """Take the session; the plan (which reads every event) is computed when the view is
        on screen, now or when its tab is next shown, never for a hidden tab."""
        self.store, self.session = store, session
        self._stale = True
        if self.is_on_screen:
            self.recompute()

    def on_show(self) -> None:
        if self._stale:
            self.recompute()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.recompute()

    @work(group="budget", exclusive=True, exit_on_error=False)
    async def recompute(self) -> None:
        if self.store is None or self.session is None:
            return
        self._stale = False
        text = self.query_one("#budget-text", Static)
        try:
            numbers = {n: int(self.query_one(f"#budget-{n}", Input).value) for n in DEFAULTS}
            split = tuple(int(x) for x in self.query_one("#budget-split", Input).value.split(","))
            if len(split) != 3:
                raise ValueError
        except ValueError:
            text.update(markup("[$error]window, fixed, reserve are whole numbers; split is a,b,c[/]"))
            return
        if self._planned_for != self.session:  # a new session's plan reads every event: said meanwhile
            self._planned_for = self.session
            text.update(markup("[dim]computing… (the next request's plan reads every event)[/]"))
        try:
            plan = await budget(self.store, self.session, split=split, **numbers)  # type: ignore[arg-type]
        except InspectorError as error:
            text.update(markup("[$error]$m[/]", m=error.message))
            return
        text.update(plan_content(plan))
