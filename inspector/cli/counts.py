"""Record counts said in words: "207 events, 1 session, 8 state records", never "207 event"
(the words live in inspector/domain/plurals.py, which the report's ledger acts say them with too)."""

from __future__ import annotations

from inspector.domain.plurals import record_count as counted
from inspector.domain.plurals import record_counts as counts_text

__all__ = ["counted", "counts_text"]
