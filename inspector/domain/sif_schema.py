"""Field rules for each sif/1 record type (DESIGN §5).

A rule is a small predicate plus the sentence shown when it fails, so every import
error names the line, the field and what was expected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from inspector.domain import vocabulary as v


@dataclass(frozen=True, slots=True)
class Field:
    check: Callable[[Any], bool]
    expected: str
    required: bool = False
    plain_str: bool = False  # lets the parser test a string field without a call


def _is_str(x: Any) -> bool:
    return isinstance(x, str)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_nonneg_int(x: Any) -> bool:
    return _is_int(x) and x >= 0


def _is_str_list(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(i, str) for i in x)


def _is_dict(x: Any) -> bool:
    return isinstance(x, dict)


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool)


# The last text _is_time took (one entry: the events of one transcript line, or of a harness's
# batch, carry the same time, and parsing it again is most of a record's check).
_last_time: list[str | None] = [None]


def _is_time(x: Any) -> bool:
    if type(x) is str and x == _last_time[0]:
        return True
    if not isinstance(x, str):
        return False
    try:
        parsed = datetime.fromisoformat(x)
    except ValueError:
        return False
    if parsed.tzinfo is None:
        return False
    if type(x) is str:
        _last_time[0] = x  # only a time that passed, so an answer from it is always True
    return True


def _is_pair(x: Any) -> bool:
    return isinstance(x, list) and len(x) == 2 and all(_is_nonneg_int(i) for i in x) and x[0] <= x[1]


class _OneOf:
    """A string from a fixed set; the set is kept so the parser can test it inline."""

    __slots__ = ("values",)

    def __init__(self, values: frozenset[str] | tuple[str, ...]) -> None:
        self.values = frozenset(values)

    def __call__(self, x: Any) -> bool:
        return isinstance(x, str) and x in self.values


def _one_of(values: frozenset[str] | tuple[str, ...]) -> Callable[[Any], bool]:
    return _OneOf(values)


def inline_failure(check: Callable[[Any], bool]) -> tuple[str, Any] | None:
    """For the parser's compiled fast check (inspector/domain/sif.py): an expression over ``v``
    (and ``k``, the returned value) that is true whenever ``check(v)`` is false, without a call
    — possibly also for a few values the check takes (a subclass of int or str), which then go
    through the full path, which decides. None when the check has no such form."""
    if isinstance(check, _OneOf):
        return "type(v) is not str or v not in k", check.values
    simple = {_is_str: "type(v) is not str", _is_nonneg_int: "type(v) is not int or v < 0",
              _is_dict: "type(v) is not dict", _is_bool: "type(v) is not bool"}
    expression = simple.get(check)
    return (expression, None) if expression is not None else None


def _continuation(x: Any) -> bool:
    return isinstance(x, list) and all(
        isinstance(i, dict) and i.get("kind") in v.CONTINUATION_KINDS for i in x
    )


def _claims(x: Any) -> bool:
    return isinstance(x, list) and all(
        isinstance(c, dict) and isinstance(c.get("key"), str) and isinstance(c.get("text"), str) for c in x
    )


def _str_map(x: Any) -> bool:
    return isinstance(x, dict) and all(isinstance(val, str) for val in x.values())


def _choices(values: frozenset[str] | tuple[str, ...]) -> str:
    return "one of " + ", ".join(sorted(values))


STR = Field(_is_str, "a string", plain_str=True)
REQ_STR = Field(_is_str, "a string", required=True, plain_str=True)
TIME = Field(_is_time, "an RFC 3339 time with a zone, e.g. 2025-05-01T08:00:00Z")
STR_LIST = Field(_is_str_list, "a list of strings")
INT = Field(_is_nonneg_int, "a whole number ≥ 0")
REQ_INT = Field(_is_nonneg_int, "a whole number ≥ 0", required=True)

SCHEMAS: dict[str, dict[str, Field]] = {
    "session": {
        "id": REQ_STR,
        "title": STR,
        "created_at": TIME,
        "adapter": Field(_one_of(v.ADAPTERS), _choices(v.ADAPTERS)),
        "owner": STR,
        "goal_revision": INT,
    },
    "event": {
        "session": REQ_STR,
        "seq": REQ_INT,
        "kind": Field(_one_of(v.EVENT_KINDS), _choices(v.EVENT_KINDS), required=True),
        "content": STR,
        "at": TIME,
        "trust": Field(_one_of(v.TRUST_LEVELS), _choices(v.TRUST_LEVELS)),
        "call_id": STR,
        "tool": STR,
        "args": Field(_is_dict, "an object"),
        "reasoning_content": STR,
        "tools_present": Field(_is_bool, "true or false"),
        "continuation": Field(_continuation, "a list of {kind, data} items"),
        "origin": Field(_is_dict, "an object"),
    },
    "tool_def": {
        "session": REQ_STR,
        "name": REQ_STR,
        "definition_hash": REQ_STR,
        "schema": Field(_is_dict, "an object"),
    },
    "material": {
        "session": REQ_STR,
        "id": REQ_STR,
        "source_event": INT,
        "source_version": STR,
        "retrieved_at": TIME,
        "disclosure_scope": STR,
        "media_type": STR,
        "encoding": Field(_one_of(v.ENCODINGS), _choices(v.ENCODINGS)),
        "content": REQ_STR,
        "content_hash": STR,
    },
    "stub": {
        "session": REQ_STR,
        "id": REQ_STR,
        "material": REQ_STR,
        "content_hash": STR,
        "source_version": STR,
        "read_slice": Field(_is_pair, "a pair [start, end] of byte offsets with start ≤ end"),
        "retrieved_at": TIME,
        "disclosure_scope": STR,
        "outline": STR,
    },
    "state": {
        "session": REQ_STR,
        "key": REQ_STR,
        "kind": Field(_one_of(v.STATE_KINDS), _choices(v.STATE_KINDS), required=True),
        "value": REQ_STR,
        "sources": STR_LIST,
        "writer": Field(_one_of(v.WRITERS), _choices(v.WRITERS)),
        "at": TIME,
        "scope": STR,
        "version": Field(lambda x: _is_int(x) and x >= 1, "a whole number ≥ 1"),
        "status": Field(_one_of(v.STATE_STATUSES), _choices(v.STATE_STATUSES)),
        "rationale": STR,
        "alternatives": STR_LIST,
    },
    "action": {
        "session": REQ_STR,
        "id": REQ_STR,
        "intent": STR,
        "call_id": STR,
        "status": Field(_one_of(v.ACTION_STATUSES), _choices(v.ACTION_STATUSES), required=True),
        "result_ref": STR,
    },
    "summary": {
        "session": REQ_STR,
        "generation": REQ_INT,
        "parent": INT,
        "kind": Field(_one_of(v.SUMMARY_KINDS), _choices(v.SUMMARY_KINDS)),
        "text": REQ_STR,
        "covers": Field(_is_pair, "a pair [first_seq, last_seq]"),
        "base_version": INT,
        "unresolved": STR_LIST,
        "sources": STR_LIST,
        "claims": Field(_claims, "a list of {key, text, sources} objects"),
    },
    "candidate": {
        "session": REQ_STR,
        "id": REQ_STR,
        "base_version": REQ_INT,
        "goal_revision": REQ_INT,
        "exact_fields": Field(_is_dict, "an object of key → value", required=True),
        "open_actions": STR_LIST,
        "unknowns": STR_LIST,
        "summary": Field(lambda x: True, "any JSON value"),
        "sources": STR_LIST,
        "status": Field(_one_of(v.DECISION_STATUSES), _choices(v.DECISION_STATUSES)),
    },
    "handoff": {
        "session": REQ_STR,
        "id": REQ_STR,
        "to_session": REQ_STR,
        "goal_revision": INT,
        "context_version": INT,
        "material": Field(_is_dict, "an object", required=True),
        "tool_mapping": Field(_str_map, "an object of tool name → definition hash"),
        "status": Field(_one_of(v.DECISION_STATUSES), _choices(v.DECISION_STATUSES)),
    },
    "deletion_request": {
        "session": REQ_STR,
        "id": REQ_STR,
        "targets": Field(_is_str_list, "a list of references", required=True),
        "requested_by": STR,
        "reason": STR,
        "status": Field(_one_of(v.DELETION_STATUSES), _choices(v.DELETION_STATUSES)),
    },
    "ledger": {
        "session": REQ_STR,
        "kind": REQ_STR,
        "actor": REQ_STR,
        "at": TIME,
        "payload": Field(_is_dict, "an object"),
    },
}

# Fields that are projections of later acts, not part of what the harness recorded:
# they may differ between a stored record and a re-imported one without a conflict.
PROJECTION_FIELDS: dict[str, tuple[str, ...]] = {
    "session": ("goal_revision",),
    "state": ("status",),
    "action": ("status",),
    "candidate": ("status",),
    "handoff": ("status",),
    "deletion_request": ("status",),
}

IDENTITY_FIELDS: dict[str, tuple[str, ...]] = {
    "session": ("id",),
    "event": ("session", "seq"),
    "tool_def": ("session", "name"),
    "material": ("session", "id"),
    "stub": ("session", "id"),
    "state": ("session", "key", "version"),
    "action": ("session", "id"),
    "summary": ("session", "generation"),
    "candidate": ("session", "id"),
    "handoff": ("session", "id"),
    "deletion_request": ("session", "id"),
}

# Per type: the names of required fields, precomputed for the parser's hot loop.
REQUIRED: dict[str, tuple[str, ...]] = {
    t: tuple(n for n, f in fields.items() if f.required) for t, fields in SCHEMAS.items()
}
