"""The Budget tab: the next request's blocks, the raw evidence picked (each with why), and
everything it does not load.

Edit the numbers and press enter to recompute; nothing is written.
"""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Input, Label, Static

from inspector.domain.budget import BudgetPlan
from inspector.domain.errors import InspectorError
from inspector.services.budget import DEFAULT_SPLIT, budget
from inspector.store.connection import Store
from inspector.ui.dialogs import ShowsWorkerErrors
from inspector.ui.safe import markup

DEFAULTS = {"window": 128_000, "fixed": 8_000, "reserve": 4_000}


def plan_content(plan: BudgetPlan) -> Content:
    if plan.refusals:
        return Content("\n").join(markup("[b $error]$c[/] $m", c=r.code, m=r.message)
                                  for r in plan.refusals)
    lines = [markup("history budget [b]$h[/b] tokens · loaded $l · ratio $r [dim](length only)[/]",
                    h=f"{plan.history_budget:,}", l=f"{plan.loaded:,}",
                    r=str(plan.ratio) if plan.ratio is not None else "—")]
    for block in plan.blocks:
        width = 30
        filled = min(width, width * block.used // block.budget) if block.budget else 0
        bar = markup("[$success]$f[/][dim]$e[/]", f="█" * filled, e="░" * (width - filled))
        lines.append(Content(f"{block.name:<16} ") + bar + Content(f" {block.used:,} / {block.budget:,}"))
    raw = plan.blocks[2]
    lines.append(markup("\n[b]raw evidence picked for the task[/b] [dim](most relevant first)[/]"))
    lines += [markup("  [$success]$r[/] [dim]$t tokens[/] · $why", r=i.ref, t=f"{i.tokens:,}",
                                  why=i.reason or i.label) for i in raw.items] or [Content("  nothing fits")]
    lines.append(markup("\n[b]not loaded[/b]"))
    lines += [markup("  [$warning]$r[/] $w [dim]($t tokens)[/]", r=n["ref"], w=n["why"],
                                  t=f"{n['tokens']:,}") for n in plan.not_loaded] or [Content("  nothing")]
    lines.append(markup("[dim]$t[/]", t="tokens: " + plan.as_dict()["tokenizer"]))
    return Content("\n").join(lines)


class BudgetView(ShowsWorkerErrors, Vertical):
    """Bad numbers and refusals show inline; any other failure reaches the error dialog."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.store: Store | None = None
        self.session: str | None = None
        self._stale = False  # a session was shown but its plan not yet computed

    def compose(self) -> ComposeResult:
        with Horizontal(id="budget-inputs"):
            for name, value in DEFAULTS.items():
                yield Label(name)
                yield Input(str(value), id=f"budget-{name}", type="integer")
            yield Label("split")
            yield Input(",".join(map(str, DEFAULT_SPLIT)), id="budget-split")
        with VerticalScroll():
            yield Static("", id="budget-text")

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
        try:
            plan = await budget(self.store, self.session, split=split, **numbers)  # type: ignore[arg-type]
        except InspectorError as error:
            text.update(markup("[$error]$m[/]", m=error.message))
            return
        text.update(plan_content(plan))
