"""The Deletions tab: each request with its status and how many copies it covers."""

from __future__ import annotations

from textual.widgets.option_list import Option

from inspector.services.deletions import Coverage
from inspector.ui.safe import markup
from inspector.ui.widgets.item_list import ItemList


def copies_said(n: int) -> str:
    """"1 copy", "6 copies": as a person says it (the list and dialogs said "6 cop(ies)")."""
    return f"{n:,} cop{'y' if n == 1 else 'ies'}"


class DeletionsList(ItemList):
    class Chosen(ItemList.Chosen):
        """A deletion request was chosen to review."""

    def load(self, found: list[Coverage], *, select: str | None = None) -> None:
        keep = select or self.highlighted_id()
        options: list[Option] = []
        for cov in found:
            state = (markup("[dim]done: only the ledger's tombstone remains[/]") if cov.status == "done"
                     else markup("[$error]pending · $k cannot be removed (copy_kept)[/]",
                                 k=copies_said(len(cov.kept))) if cov.kept
                     else markup("[$warning]pending · $n to remove[/]", n=copies_said(len(cov.copies))))
            options.append(Option(markup("[b]$r[/b]  ", r=cov.request) + state, id=cov.request))
        self.set_items(options, markup("[dim]no deletion requests in this session: D on a timeline event or a Raw "
                                       "evidence row files one (or `inspector request-deletion`)[/]"), keep)
