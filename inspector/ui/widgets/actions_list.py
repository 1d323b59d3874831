"""The Actions tab: the session's action ledger, unknown outcomes first; enter reconciles one."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.domain.cell_width import column_cells, fitted
from inspector.domain.reconcile import UNSETTLED_STATUSES
from inspector.services.reconciling import ActionRow
from inspector.ui.safe import markup, one_line

ID_CELLS = 24  # an action id's column: a longer one is cut with "…" in its middle
MARK = {"unknown": ("?", "$accent"), "in_flight": ("◷", "$warning"), "planned": ("○", "$text-muted"),
        "succeeded": ("●", "$success"), "failed": ("✗", "$error"), "not_done": ("–", "$text-muted")}


def action_line(a: ActionRow, id_cells: int = 0) -> Content:
    """One action: its status, its id in a column of ``id_cells`` (cell_width.fitted: a tool call id
    of 30 characters pushed its intent past the others', flow-19; the reconcile dialog names it
    whole), its intent."""
    glyph, colour = MARK.get(a.status, ("·", "$text-muted"))
    line = markup(f"[{colour}]$g $st[/]  [b]$id[/b]  $intent", g=glyph, st=f"{a.status:<9}",
                  id=fitted(a.id, id_cells) if id_cells else a.id, intent=one_line(a.intent or ""))
    if a.status in UNSETTLED_STATUSES:
        line += markup("  [dim]enter reconciles[/]")
    if a.settled_by:
        s = a.settled_by
        line += markup("  [dim]reconciled L$l by $who ($role) on $ev: $why[/]", l=str(s["ledger"]),
                                    who=s["actor"], role=s["role"] or "", ev=s["evidence"], why=s["reason"])
    return line


class ActionsList(OptionList):
    DEFAULT_CSS = "ActionsList { height: 1fr; border: none; }"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows: dict[str, ActionRow] = {}

    def load(self, rows: list[ActionRow]) -> None:
        self.rows = {a.id: a for a in rows}
        self.clear_options()
        if not rows:
            self.add_option(Option(markup("[dim]no actions recorded for this session (the action ledger holds what "
                                          "a sif/1 file or a handoff records; a transcript's tool calls, whatever "
                                          "they changed, are on the timeline)[/]"), disabled=True))
            return
        wide = column_cells([a.id for a in rows], 2, ID_CELLS)
        self.add_options([Option(action_line(a, wide), id=a.id) for a in rows])
        self.highlighted = 0
