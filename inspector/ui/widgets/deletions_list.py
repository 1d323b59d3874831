"""The Deletions tab: each request with its status and how many copies it covers."""

from __future__ import annotations

from textual.widgets.option_list import Option

from inspector.services.deletions import Coverage
from inspector.ui.safe import markup
from inspector.ui.widgets.item_list import ItemList


class DeletionsList(ItemList):
    class Chosen(ItemList.Chosen):
        """A deletion request was chosen to review."""

    def load(self, found: list[Coverage]) -> None:
        keep = self.highlighted_id()
        options: list[Option] = []
        for cov in found:
            state = (markup("[dim]done: only the ledger's tombstone remains[/]") if cov.status == "done"
                     else markup("[$error]pending · $k cop(ies) cannot be removed (copy_kept)[/]",
                                 k=str(len(cov.kept))) if cov.kept
                     else markup("[$warning]pending · $n cop(ies) to remove[/]", n=str(len(cov.copies))))
            options.append(Option(markup("[b]$r[/b]  ", r=cov.request) + state, id=cov.request))
        self.set_items(options, markup("[dim]no deletion requests in this session[/]"), keep)
