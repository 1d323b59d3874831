"""The Handoffs tab: each handoff with its verdict, or where the session continued."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.domain.handoff import HandoffCheck
from inspector.ui.safe import markup


class HandoffsList(OptionList):
    def load(self, found: list[tuple[dict[str, Any], HandoffCheck]]) -> None:
        self.clear_options()
        if not found:
            self.add_option(Option(markup("[dim]no handoffs from this session[/]"), disabled=True))
            return
        for h, check in found:
            if h["status"] == "accepted":
                verdict = markup("[$accent]● accepted → continued in $s[/]", s=h["to_session"])
            elif check.acceptable:
                verdict = markup("[$success]✓ acceptable[/]")
            else:
                verdict = markup("[$error]✗ $c[/]", c=", ".join(r.code for r in check.refusals))
            self.add_option(Option(markup("[b]$id[/b] → $to  ", id=h["id"], to=h["to_session"]) + verdict,
                                   id=h["id"]))
        self.highlighted = 0
