"""The Deletions tab: each request with its status and how many copies it covers."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from inspector.services.deletions import Coverage
from inspector.ui.safe import markup


class DeletionsList(OptionList):
    def load(self, found: list[Coverage]) -> None:
        self.clear_options()
        if not found:
            self.add_option(Option(markup("[dim]no deletion requests in this session[/]"), disabled=True))
            return
        for cov in found:
            state = (markup("[dim]done: only the ledger's tombstone remains[/]") if cov.status == "done"
                     else markup("[$warning]pending · $n cop(ies) to remove[/]", n=str(len(cov.copies))))
            self.add_option(Option(markup("[b]$r[/b]  ", r=cov.request) + state, id=cov.request))
        self.highlighted = 0
