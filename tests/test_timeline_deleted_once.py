"""A deleted event's timeline row says "deleted" once (review-15).

The row read "✕ deleted deleted by ledger entry L6: only its tombstone remains": the mark
and the service's sentence each began with the word."""

from __future__ import annotations

from inspector.services.timeline import TimelineRow
from inspector.ui.widgets.timeline_view import format_row


def test_the_deleted_mark_and_sentence_say_it_once() -> None:
    row = TimelineRow(key="evt:3", source="event", seq=3, at="2025-05-01T08:03:00Z", kind="user_message",
                      text="deleted by ledger entry L6: only its tombstone remains", call_id=None, tool=None,
                      trust="user", pair_seq=None, marks=["deleted"], actor=None, folded=False)
    plain = format_row(row).plain
    assert "✕ deleted by ledger entry L6: only its tombstone remains" in plain, plain
    assert "deleted deleted" not in plain
