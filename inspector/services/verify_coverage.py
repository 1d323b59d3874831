"""The one list of what ``inspector verify`` does not bind row by row, and why.

Every table and column of a store is either bound by verify (an edit of it is a break with a
stable code naming the table: verify_report.py ``CODES``) or named here, with its reason:

- ``DERIVED``: data verify rebuilds from what it is derived from and compares (the search
  indexes from the events and materials, a material's layout from its chunks, statuses and
  versions from the ledger). An edit of it is still a break, reported under the projection's
  name (``where``); an edit that leaves everything the projection holds unchanged (a byte of
  an FTS5 page no search ever reads) is not an edit of the projection.
- ``NOT_BOUND``: values and positions nothing reads and no entry binds. verify does not
  check them; an edit of them changes nothing a person sees (tests/test_verify_mutations.py
  checks that for each one it finds: export, ledger, sessions and searches byte for byte).
- ``RELIES_ON``: what no check of the file alone can see, by design (docs/store-format.md):
  verify says so in every report (``relies_on``), with what it relies on instead.

tests/test_verify_mutations.py edits every table and column a store's schema has (read from
``sqlite_master``), so a column added later fails that test until it is bound or named here.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class Declared:
    table: str  # a table name, or a glob over names (events_fts_*)
    column: str  # a column, "*" (whole rows) or "rowid"
    projection: str  # DERIVED: what verify rebuilds and names; NOT_BOUND: "" (nothing compares it)
    reason: str


DERIVED: tuple[Declared, ...] = (
    Declared("events_fts_*", "*", "events_fts", "FTS5's own tables of the trigram index over events.content: verify "
             "runs FTS5's integrity-check against the events' text (or compares each entry's size above 4 Mi "
             "characters), so any change of a term, document or position is a break; bytes no read of the index "
             "ever returns are not checked"),
    Declared("events_grams_*", "*", "events_grams", "FTS5's own tables of the one- and two-character index: "
             "rebuilt from the events in a temporary table and compared (each gram's events, each event's grams)"),
    Declared("materials_fts_*", "*", "materials_fts", "FTS5's own tables of the material index: each entry's "
             "stored text compared with the searchable prefix of its material's bytes, and FTS5's "
             "integrity-check of the index against that text"),
    Declared("calls_fts_*", "*", "calls_fts", "FTS5's own tables of the call-input index (store format 5): each "
             "entry's stored text compared with the text rebuilt from its event's arguments, every call at or below "
             "the watermark indexed and nothing else, and FTS5's integrity-check of the index against that text"),
    Declared("calls_grams_*", "*", "calls_grams", "FTS5's own tables of the call-input short-query index: rebuilt "
             "from calls_fts's text in a temporary table and compared pair by pair, and its coverage of the calls"),
    Declared("reasoning_fts_*", "*", "reasoning_fts", "FTS5's own tables of the thinking index (store format 6): "
             "each entry's stored text compared with its event's reasoning_content, every event with thinking at or "
             "below the watermark indexed and nothing else, and FTS5's integrity-check of the index against that text"),
    Declared("reasoning_grams_*", "*", "reasoning_grams", "FTS5's own tables of the thinking short-query index: "
             "rebuilt from reasoning_fts's text in a temporary table and compared, and its coverage of the events"),
    Declared("materials", "size", "materials", "recomputed from the material's chunks"),
    Declared("materials", "chunk_size", "materials", "the format's chunk size (64 KiB); the chunks' sizes checked"),
    Declared("materials", "chunk_count", "materials", "recomputed from the material's chunks"),
    Declared("materials", "chunk_hashes", "materials", "bound to the content hash by chunk_binding, which its "
             "import bound in the ledger; the chunks rehashed against the content hash"),
    Declared("materials", "chunk_binding", "materials", "recomputed from content_hash and chunk_hashes and "
             "compared with the keyed digest its import bound in the ledger"),
    Declared("materials", "indexed_bytes", "materials", "recomputed from the size, encoding and media type"),
    Declared("materials", "deleted_at", "materials", "replayed from the deletions in the ledger (tombstones)"),
    Declared("material_chunks", "*", "materials", "a material's bytes: their count and sizes against its layout, "
             "their hashes against its content hash (rehashed under 64 MiB of materials, or with --full)"),
    Declared("sessions", "context_version", "sessions", "replayed from the ledger's versions"),
    Declared("sessions", "goal_revision", "sessions", "replayed from the ledger's versions"),
    Declared("state_records", "status", "state_records", "replayed from the ledger (initial_status, status_set)"),
    Declared("actions", "status", "actions", "replayed from the ledger (initial_status, status_set)"),
    Declared("candidates", "status", "candidates", "replayed from the ledger (initial_status, status_set)"),
    Declared("handoffs", "status", "handoffs", "replayed from the ledger (initial_status, status_set)"),
    Declared("deletion_requests", "status", "deletion_requests", "replayed from the ledger (status_set)"),
    Declared("search_watermark", "indexed_through", "search_watermark", "compared with the events and both event "
             "indexes: every event at or below it indexed, none above the last event"),
)

NOT_BOUND: tuple[Declared, ...] = (
    Declared("*", "rowid", "", "the rowid of a record row, moved while every session keeps its rows' order: "
             "nothing refers to it (events and materials are named by event_id / material_id, which the search "
             "indexes and chunks check) and the seals cover each session's order, not the numbers"),
    Declared("material_chunks", "rowid", "", "chunks are read by (material_id, idx), never by rowid"),
    Declared("search_watermark", "rowid", "", "the watermark is read by its name"),
    Declared("search_watermark", "indexed_through", "", "moved between two states a catch-up itself passes "
             "through (over rows with nothing to index, e.g. a transcript's original): every row at or below it "
             "with searchable text is checked to be indexed, none above it to be, and it never passes the last row"),
    Declared("store_meta", "rowid", "", "store_meta is read by key"),
    Declared("store_meta", "value:created_at", "", "the store's creation time: informational, nothing reads it "
             "and no entry records it"),
    Declared("store_meta", "value:commits", "", "the commit mark (store/wal_commits.py): each write of the "
             "inspector counts itself there so that its commits in a -wal file can be told from another program's; "
             "its number is read by nobody, writing it is the point"),
    Declared("sqlite_stat*", "*", "", "SQLite's query-planner statistics: they change plans, never results"),
)

RELIES_ON_ALWAYS = (
    "entries appended after the last good verify are acts like any other: the ledger's actors are names, not "
    "signatures, so anyone who can write the file can append an act a person could have made (keep the file "
    "where only reviewers can write it)",
)
RELIES_ON_UNKEPT = (
    "no head is kept for this store (none remembered on this machine, no --head): a history rewritten with its "
    "seals and hashes recomputed, a cut tail, or an older copy of the store put in its place cannot be told from "
    "the real one (the store's key is in the store); pin the head this prints, or verify here after each review",
)

# The edit kinds of bench/mutation_edits.py each RELIES_ON sentence covers (unpinned: never verified here).
_CONSISTENT = ("reseal and rechain", "rewrite an entry and rechain", "rewrite the last entry and its hash",
               "cut the last entry", "replaced by an older copy", "the WAL removed")


def relies_on(*, kept_head: bool) -> list[str]:
    """What a passing verify takes on trust, in words."""
    return [*RELIES_ON_ALWAYS, *(() if kept_head else RELIES_ON_UNKEPT)]


def derived(table: str, column: str = "*") -> Declared | None:
    """The DERIVED entry covering ``table.column``, if any (a table glob covers every column)."""
    for item in DERIVED:
        if fnmatch.fnmatchcase(table, item.table) and item.column in ("*", column):
            return item
    return None


def declared(table: str, column: str, kind: str, *, pinned: bool = True) -> str | None:
    """Why verify need not (or cannot) report this edit, or None when it must."""
    if kind.startswith("append an entry"):
        return RELIES_ON_ALWAYS[0]
    if not pinned and any(kind.startswith(k) for k in _CONSISTENT):
        return RELIES_ON_UNKEPT[0]
    rowid = column in ("rowid", "event_id", "material_id", "id") and kind.startswith("reorder")
    for item in NOT_BOUND:
        if not fnmatch.fnmatchcase(table, item.table):
            continue
        if item.column == "rowid":
            if rowid and (item.table != "*" or table_is_record(table)):
                return item.reason
        elif item.column == "*" or item.column == column:
            return item.reason
    item = derived(table, column)
    if item is not None and item.table.endswith("*"):
        return f"derived ({item.projection}): {item.reason}"
    return None


def table_is_record(table: str) -> bool:
    return any(spec.table == table for spec in SPECS.values())


def not_bound() -> list[dict[str, str]]:
    """The NOT_BOUND list as verify --json prints it."""
    return [{"table": d.table, "column": d.column, "why": d.reason} for d in NOT_BOUND]
