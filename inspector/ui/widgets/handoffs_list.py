"""The Handoffs tab: each handoff with its verdict, or where the session continued."""

from __future__ import annotations

from typing import Any

from textual.widgets.option_list import Option

from inspector.domain.handoff import HandoffCheck
from inspector.services.lookup import FROM_SIF_ONLY
from inspector.ui.safe import markup
from inspector.ui.widgets.item_list import ItemList


class HandoffsList(ItemList):
    class Chosen(ItemList.Chosen):
        """A handoff was chosen to check."""

    def load(self, found: list[tuple[dict[str, Any], HandoffCheck]]) -> None:
        keep = self.highlighted_id()
        options: list[Option] = []
        for h, check in found:
            if h["status"] == "accepted":
                verdict = markup("[$accent]● accepted → continued in $s[/]", s=h["to_session"])
            elif check.acceptable:
                verdict = markup("[$success]✓ acceptable[/]")
            else:
                verdict = markup("[$error]✗ $c[/]", c=", ".join(r.code for r in check.refusals))
            options.append(Option(markup("[b]$id[/b] → $to  ", id=h["id"], to=h["to_session"]) + verdict,
                                  id=h["id"]))
        self.set_items(options, markup("[dim]no handoffs from this session: $o[/]", o=FROM_SIF_ONLY["handoff"]), keep)
