"""The Actions tab: the agent's tool calls against a rule it was given (✗ does it, ? may, · dry run;
enter jumps to the call on the timeline), then the session's action ledger, unknown outcomes first
(enter reconciles one)."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.domain.action_against_rule import RuleHit
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


RULE_MARK = {"✗": "$error", "?": "$accent", "·": "$text-muted"}
RULE_ROW = "rule-hit:"  # an option id for a call against a rule: "rule-hit:evt:12:constraint.x"


def rule_line(h: RuleHit) -> Content:
    """One call against one rule: its mark, the event, what ran, the rule's key and why the mark."""
    head = {"against": "does", "unsure": "may do", "dry_run": "dry-runs"}[h.verdict]
    status = "confirmed" if h.status == "active" else "pending"
    return markup(f"[{RULE_MARK[h.mark]}]$m[/] [b]evt:$seq[/b] $tool [b]$ran[/b]  $head what the $st rule [b]$key[/b] "
                  "forbids (“$rule”) [dim]— $why · enter: the event[/]", m=h.mark, seq=str(h.seq),
                  tool=one_line(h.tool or "call"), ran=one_line(h.ran), head=head, st=status, key=one_line(h.key),
                  rule=one_line(h.rule), why=one_line(h.why()))


class ActionsList(OptionList):
    DEFAULT_CSS = "ActionsList { height: 1fr; border: none; }"

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows: dict[str, ActionRow] = {}

    def load(self, rows: list[ActionRow], against: list[RuleHit] | None = None,
             not_read: list[dict[str, Any]] | None = None) -> None:
        """``against``: calls that do, may do or dry-run what a rule forbids; ``not_read``: rules
        whose act no call can show (rules_read.not_read), said so they never read as checked."""
        self.rows = {a.id: a for a in rows}
        self.clear_options()
        hits = sorted(against or [], key=lambda h: ("✗?·".index(h.mark), h.seq))
        unread = [n for n in not_read or [] if n.get("calls_after")]
        if hits or unread:
            self.add_option(Option(markup("[b]Tool calls against a rule[/b] [dim](docs/verdicts.md, “A call against a "
                                          "rule”)[/]"), disabled=True))
            self.add_options([Option(rule_line(h), id=f"{RULE_ROW}evt:{h.seq}:{h.key}") for h in hits])
            self.add_options([Option(markup("[dim]– $key (“$rule”) not checked against the $n tool call$s after it: "
                                            "its act is not one a call's words can show[/]", key=one_line(n["key"]),
                                            rule=one_line(n["rule"]), n=str(n["calls_after"]),
                                            s="s" if n["calls_after"] > 1 else ""), disabled=True) for n in unread])
            self.add_option(Option(markup("[b]Action ledger[/b]"), disabled=True))
        if not rows:
            self.add_option(Option(markup("[dim]no actions recorded for this session (the action ledger holds what "
                                          "a sif/1 file or a handoff records; a transcript's tool calls, whatever "
                                          "they changed, are on the timeline)[/]"), disabled=True))
        else:
            wide = column_cells([a.id for a in rows], 2, ID_CELLS)
            self.add_options([Option(action_line(a, wide), id=a.id) for a in rows])
        if hits:
            self.highlighted = 1
        elif rows:
            self.highlighted = len(unread) + 2 if unread else 0
