"""How each sif/1 record type maps onto its table, both ways.

A record's well-known fields get their own columns (to query and index them); any
other field, including ones a newer harness adds, is kept in ``extra`` so nothing a
file held is lost and export writes back exactly what was read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from inspector.store.jsoncodec import fast_canonical as canonical_json
from inspector.store.jsoncodec import float_free_canonical


def _json_or_none(value: Any) -> str | None:
    return None if value is None else canonical_json(value)


@dataclass(frozen=True, slots=True)
class TableSpec:
    type: str
    table: str
    columns: tuple[str, ...]  # sif fields with a column of their own, identity first
    json_columns: frozenset[str] = frozenset()
    # Columns that are not sif fields (projections, bookkeeping) but must be filled on insert.
    derived: tuple[str, ...] = ()
    # Fields kept outside the row (a material's bytes live in material_chunks).
    stored_elsewhere: frozenset[str] = frozenset()
    _skip: frozenset[str] = field(init=False, repr=False, compare=False)

    _values: Any = field(init=False, repr=False, compare=False)
    _float_free_values: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_skip", frozenset(self.columns) | {"type"} | self.stored_elsewhere)
        # The whole row as one tuple expression (it runs once per imported record). The fields
        # without a column of their own are found by one set difference, when there are any (the
        # canonical text sorts keys, so the order they are gathered in does not matter).
        parts = ", ".join(f"e(g({n!r}))" if n in self.json_columns else f"g({n!r})" for n in self.columns)
        source = (
            "def row(r, digest, derived):\n"
            "    g = r.get\n"
            "    extra = '{}' if r.keys() <= skip else c({k: r[k] for k in r.keys() - skip})\n"
            f"    if derived:\n        return ({parts}, *derived, extra, digest)\n"
            f"    return ({parts}, extra, digest)")
        for name, encode in (("_values", canonical_json), ("_float_free_values", float_free_canonical)):
            scope: dict[str, Any] = {"e": lambda v, c=encode: None if v is None else c(v), "c": encode,
                                     "skip": self._skip}
            exec(source, scope)  # noqa: S102 - column names only
            object.__setattr__(self, name, scope["row"])

    @property
    def insert_sql(self) -> str:
        names = [*self.columns, *self.derived, "extra", "digest"]
        marks = ", ".join("?" for _ in names)
        return f"INSERT INTO {self.table} ({', '.join(names)}) VALUES ({marks})"

    @property
    def select_columns(self) -> str:
        return ", ".join([*self.columns, "extra"])

    def to_row(self, record: dict[str, Any], digest: str, derived: tuple[Any, ...] = (), *,
               float_free: bool = False) -> tuple[Any, ...]:
        """The record's row; ``float_free``: the record is known to hold no float (its JSON
        columns and ``extra`` are then written without testing for one)."""
        values = self._float_free_values if float_free else self._values
        return values(record, digest, derived)  # type: ignore[no-any-return]

    def to_record(self, row: tuple[Any, ...] | Any) -> dict[str, Any]:
        """Rebuild the sif record (type first, then columns, then extra) from a row."""
        record: dict[str, Any] = {"type": self.type}
        for name, value in zip(self.columns, row, strict=False):
            if value is None:
                continue
            record[name] = json.loads(value) if name in self.json_columns else value
        record.update(json.loads(row[len(self.columns)]))
        return record


SPECS: dict[str, TableSpec] = {
    spec.type: spec
    for spec in (
        TableSpec("session", "sessions", ("id", "title", "created_at", "adapter", "owner", "goal_revision"),
                  derived=("context_version",)),
        TableSpec("event", "events", ("session", "seq", "kind", "content", "at", "trust", "call_id", "tool")),
        TableSpec("tool_def", "tool_defs", ("session", "name", "definition_hash")),
        TableSpec(
            "material",
            "materials",
            ("session", "id", "source_event", "source_version", "retrieved_at", "disclosure_scope",
             "media_type", "encoding", "content_hash"),
            derived=("size", "chunk_size", "chunk_count", "chunk_hashes", "chunk_binding", "indexed_bytes"),
            stored_elsewhere=frozenset({"content"}),
        ),
        TableSpec(
            "stub",
            "stubs",
            ("session", "id", "material", "content_hash", "source_version", "read_slice", "retrieved_at",
             "disclosure_scope", "outline"),
            json_columns=frozenset({"read_slice"}),
        ),
        TableSpec(
            "state",
            "state_records",
            ("session", "key", "version", "kind", "value", "status", "writer", "at", "scope", "sources"),
            json_columns=frozenset({"sources"}),
        ),
        TableSpec("action", "actions", ("session", "id", "intent", "call_id", "status", "result_ref")),
        TableSpec(
            "summary",
            "summaries",
            ("session", "generation", "parent", "kind", "text", "covers", "base_version", "unresolved",
             "sources", "claims"),
            json_columns=frozenset({"covers", "unresolved", "sources", "claims"}),
        ),
        TableSpec("candidate", "candidates", ("session", "id", "base_version", "goal_revision", "status")),
        TableSpec(
            "handoff",
            "handoffs",
            ("session", "id", "to_session", "goal_revision", "context_version", "status"),
        ),
        TableSpec(
            "deletion_request",
            "deletion_requests",
            ("session", "id", "targets", "requested_by", "reason", "status"),
            json_columns=frozenset({"targets"}),
        ),
    )
}

# Order in which record types are written (and exported): sessions first, then what
# other records refer to, so a reader of an exported file meets each id before its use.
WRITE_ORDER: tuple[str, ...] = (
    "session", "tool_def", "event", "material", "stub", "action", "state", "summary",
    "candidate", "handoff", "deletion_request",
)
