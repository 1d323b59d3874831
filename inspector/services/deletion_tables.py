"""The rows a deletion reads for copies of a value, by table: one list for the exact, loose and
split scans (deletion_scan.py, deletion_split_scan.py), so a table or column added to one is
read by all of them."""

from __future__ import annotations

# Table, columns read, how a row is named in SQL, and the Copy.where it becomes.
BY_VALUE: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("events", ("content", "extra"), "'evt:' || seq", "events"),
    ("stubs", ("outline", "extra"), "id", "stubs"),
    ("state_records", ("value", "extra"), "key || '@v' || version", "state"),
    ("actions", ("intent", "extra"), "id", "actions"),
    ("summaries", ("text", "claims", "unresolved", "extra"), "'gen:' || generation", "summaries"),
    ("candidates", ("extra",), "id", "candidates"),
    ("handoffs", ("extra",), "id", "handoffs"),
    ("deletion_requests", ("reason", "extra"), "id", "deletion_requests"),
)
