"""A pending request whose targets another request removed says nothing is left (review-15).

The Deletions tab said "del-4 pending · 1 copy to remove" for a request whose only copy was its
own reason text: its event had been deleted by an earlier request, so carrying it out deleted
nothing ("deleted 0 cop(ies)")."""

from __future__ import annotations

from textual.app import App, ComposeResult

from inspector.services.deletion_scan import Copy, Coverage
from inspector.ui.widgets.deletions_list import DeletionsList


class _Host(App[None]):
    def compose(self) -> ComposeResult:
        yield DeletionsList(id="deletions")


async def test_a_request_with_its_targets_gone_says_nothing_is_left() -> None:
    reason = Copy("deletion_requests", "del-4", "its reason text (kept only as a keyed digest)")
    gone = Coverage("del-4", "s1", "pending", copies=[reason], missing=["evt:4"])
    live = Coverage("del-5", "s1", "pending", copies=[Copy("events", "evt:5", "the target event"), reason])
    app = _Host()
    async with app.run_test(size=(120, 10)):
        box = app.query_one(DeletionsList)
        box.load([gone, live])
        first, second = (str(box.get_option_at_index(i).prompt) for i in (0, 1))
    assert first == "del-4  pending · nothing left to remove: its targets are gone already", first
    assert "pending · 2 copies to remove" in second
