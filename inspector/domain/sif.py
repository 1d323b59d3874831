"""Reading sif/1 lines into validated, normalised records (DESIGN §5).

Parsing is pure: it never touches a store, so a malformed file is refused before
anything is opened for writing (rule 7: bad input changes nothing).
"""

from __future__ import annotations

import base64
import binascii
import json
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspector.domain import known_text
from inspector.domain.canonical import canonical_json, content_hash, sha256_hex
from inspector.domain.errors import BadInput
from inspector.domain.guarded_json import JsonRefused
from inspector.domain.guarded_json import loads as guarded_loads
from inspector.domain.known_text import OriginalText
from inspector.domain.sif_schema import (
    IDENTITY_FIELDS,
    PROJECTION_FIELDS,
    REQUIRED,
    SCHEMAS,
    inline_failure,
)
from inspector.domain.terminal_safe import inert
from inspector.domain.trust import imported_status
from inspector.domain.vocabulary import SIF_FORMAT

# Defaults filled in on reading, so that export writes them and re-import is identical.
DEFAULTS: dict[str, dict[str, Any]] = {
    "session": {"adapter": "generic", "goal_revision": 1},
    "state": {"version": 1, "status": "active"},
    "summary": {"kind": "recursive"},
    "material": {"encoding": "utf-8"},
    "candidate": {"status": "pending"},
    "handoff": {"status": "pending"},
    "deletion_request": {"status": "pending"},
}


@dataclass(slots=True)
class SifRecord:
    """One validated line: its normalised record, identity and identity digest."""

    type: str
    line: int
    record: dict[str, Any]
    identity: tuple[Any, ...]
    digest: str
    payload: bytes | None = None  # a material's decoded bytes
    row: tuple[Any, ...] | None = None  # the table row, when a parser process built it already
    claimed: str | None = None  # a state record's status as the file wrote it, when it is not taken (trust.py)

    @property
    def session(self) -> str:
        return str(self.record["id"] if self.type == "session" else self.record["session"])


@dataclass(slots=True)
class SifFile:
    """All records of one file in file order."""

    records: list[SifRecord] = field(default_factory=list)


# Fields a record's identity digest leaves out: projections of later acts, and a
# material's bytes (its content_hash stands for them).
_LEFT_OUT: dict[str, frozenset[str]] = {t: frozenset(f) for t, f in PROJECTION_FIELDS.items()}
_LEFT_OUT["material"] = frozenset({"content"})


Encoder = Callable[[Any], str | bytes]  # the canonical text, or its UTF-8 bytes


def identity_digest(type_: str, record: dict[str, Any], encode: Encoder = canonical_json) -> str:
    """Digest over what the harness recorded: projections and bulky bytes left out."""
    left_out = _LEFT_OUT.get(type_)
    body = record if left_out is None else {k: val for k, val in record.items() if k not in left_out}
    text = encode(body)
    return sha256_hex(text if type(text) is bytes else text.encode("utf-8"))


def decode_material(record: dict[str, Any], line: int) -> bytes:
    """The original bytes of a material, checked against its declared hash."""
    text = record["content"]
    held = known_text.known(text) if record["encoding"] == "utf-8" and type(text) is str else None
    if type(text) is OriginalText:  # a converter's original as its bytes, proved UTF-8 (domain/known_text.py)
        if record["encoding"] != "utf-8":
            raise BadInput(f"material {inert(record['id'])}: content is not {record['encoding']} text", line=line)
        held = text.data, text.digest
        data, actual = held
    elif held is not None:  # a converter's original, still the very text it decoded (domain/known_text.py)
        known_text.forget(text)
        data, actual = held
    elif record["encoding"] == "base64":
        try:
            data = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise BadInput(f"material {inert(record['id'])}: content is not valid base64 ({exc})", line=line) from None
    else:
        data = text.encode("utf-8", errors="surrogatepass")
    if held is None:
        actual = content_hash(data)
    declared = record.get("content_hash")
    if declared is not None and declared != actual:
        raise BadInput(
            f"material {inert(record['id'])}: content_hash {declared} does not match the content ({actual})",
            code="hash_mismatch",
            line=line,
        )
    record["content_hash"] = actual
    return data


def _compile_check(fields: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """One straight-line predicate per record type: True when every field of the schema is
    absent, None or valid and every required one present. It only answers yes or no; the
    loop in :func:`parse_record` finds and names the first bad field when it says no."""
    checks: dict[str, Any] = {}
    body = ["def ok(o):", "    g = o.get"]
    for i, (name, rule) in enumerate(fields.items()):
        body.append(f"    v = g({name!r})")
        inline = inline_failure(rule.check)
        if rule.plain_str:
            test = "type(v) is not str"
        elif inline is not None:
            test = "(" + inline[0].replace(" k", f" k{i}") + ")"
            checks[f"k{i}"] = inline[1]
        else:
            test = f"not c{i}(v)"
        if rule.required:
            body.append("    if v is None: return False")
            body.append(f"    if {test}: return False")
        else:
            body.append(f"    if v is not None and {test}: return False")
        checks[f"c{i}"] = rule.check
    body.append("    return True")
    scope: dict[str, Any] = dict(checks)
    exec("\n".join(body), scope)  # noqa: S102 - the source is built above from the schema's names only
    return scope["ok"]  # type: ignore[no-any-return]


_CHECKS: dict[str, Callable[[dict[str, Any]], bool]] = {t: _compile_check(f) for t, f in SCHEMAS.items()}


def parse_record(obj: Any, line: int, encode: Encoder = canonical_json) -> SifRecord:
    """Validate one decoded JSON line (any line after the header)."""
    if type(obj) is dict:
        type_ = obj.get("type")
        check = _CHECKS.get(type_) if type(type_) is str else None  # type: ignore[arg-type]
        # The common case in one pass: a valid record with "type" first, no nulls, nothing to
        # default or decode. It is then its own normalised record (same keys, same order).
        if (check is not None and type_ not in _SLOW_TYPES and next(iter(obj)) == "type"
                and None not in obj.values() and check(obj)):
            return SifRecord(type_, line, obj, _IDENTITY[type_](obj),  # type: ignore[index]
                             identity_digest(type_, obj, encode))  # type: ignore[arg-type]
    return _parse_record(obj, line, encode)


# A record's identity tuple in one C call (every type on the fast path has two identity fields or more).
_IDENTITY = {t: operator.itemgetter(*f) for t, f in IDENTITY_FIELDS.items() if len(f) > 1}

# Types whose records get defaults, a trust decision or decoded bytes: always the full path.
_SLOW_TYPES = frozenset({*DEFAULTS, "state", "material", "ledger"})


def _parse_record(obj: Any, line: int, encode: Encoder) -> SifRecord:
    if not isinstance(obj, dict):
        raise BadInput("expected a JSON object", line=line)
    type_ = obj.get("type")
    if type_ == "header":
        raise BadInput("a second header line; the header must be the first line only", line=line)
    schema = SCHEMAS.get(type_) if isinstance(type_, str) else None
    if schema is None:
        known = ", ".join(["header", *SCHEMAS])
        raise BadInput(f"unknown record type {inert(type_)} (known: {known})", code="unknown_type", line=line)
    record: dict[str, Any] = {"type": type_}
    for name, value in obj.items():
        if value is None or name == "type":
            continue
        rule = schema.get(name)
        if rule is not None:
            ok = type(value) is str if rule.plain_str else rule.check(value)
            if not ok and type(value) is OriginalText and type_ == "material" and name == "content":
                ok = True  # a converter's original, standing for its text (domain/known_text.py)
            if not ok:
                raise BadInput(f"{type_}.{name} must be {rule.expected}, got {json.dumps(value)[:60]}", line=line)
        record[name] = value
    for name in REQUIRED[type_]:
        if name not in record:
            raise BadInput(f"{type_} record is missing required field {inert(name)}", line=line)
    for name, value in DEFAULTS.get(type_, {}).items():
        record.setdefault(name, value)
    claimed = None
    if type_ == "state":  # trust from the source: a model or tool cannot set a goal or a permission
        status = imported_status(record["kind"], record.get("writer"), record["status"])
        if status != record["status"]:
            claimed, record["status"] = record["status"], status
    payload = decode_material(record, line) if type_ == "material" else None
    digest = identity_digest(type_, record, encode)
    if type_ == "ledger":
        identity: tuple[Any, ...] = (record["session"], digest)
    else:
        identity = tuple(record[f] for f in IDENTITY_FIELDS[type_])
    return SifRecord(type_, line, record, identity, digest, payload, claimed=claimed)


def check_header(obj: Any, line: int) -> None:
    if not isinstance(obj, dict) or obj.get("type") != "header":
        raise BadInput('the first line must be the header {"type":"header","format":"sif/1"}', line=line)
    fmt = obj.get("format")
    if fmt != SIF_FORMAT:
        raise BadInput(
            f"unsupported format {inert(fmt)}; this version reads {inert(SIF_FORMAT)}", code="unknown_format", line=line
        )


def parse_chunk(lines: Sequence[bytes], first_line: int, *, with_header: bool,
                loads: Callable[[bytes], Any] = guarded_loads, encode: Encoder = canonical_json) -> list[SifRecord]:
    """Parse consecutive lines starting at line number ``first_line``, refusing at the first bad one.

    Only the chunk holding line 1 checks the header. Duplicates are not judged here:
    whoever writes the records compares identities across chunks and with the store.
    """
    return [parse_record(obj, number, encode) for _, number, obj in decoded_lines(lines, first_line,
                                                                                  with_header=with_header, loads=loads)]


def decoded_lines(lines: Sequence[bytes], first_line: int, *, with_header: bool,
                  loads: Callable[[bytes], Any] = guarded_loads) -> Iterator[tuple[int, int, Any]]:
    """(index in ``lines``, line number, decoded value) of each record line, as :func:`parse_chunk`
    reads them: blank lines skipped, the header checked, a line that is not JSON refused."""
    header_pending = with_header
    for offset, raw in enumerate(lines):
        if not raw.strip():
            continue
        number = first_line + offset
        try:
            obj = loads(raw)
        except JsonRefused as exc:
            raise BadInput(exc.message, code=exc.code, line=number) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise BadInput(f"not valid JSON ({exc})", code="malformed_json", line=number) from None
        if header_pending:
            check_header(obj, number)
            header_pending = False
            continue
        yield offset, number, obj
    if header_pending:
        raise BadInput('empty file: expected the header {"type":"header","format":"sif/1"}', line=1)


def parse_lines(lines: Iterable[bytes], loads: Callable[[bytes], Any] = guarded_loads,
                encode: Encoder = canonical_json) -> SifFile:
    """Parse a whole sif/1 file held in memory (small files, tests, other tools).

    Identical duplicates inside the file are dropped; a second record with the same
    identity and different content is a conflict, named by both lines.
    """
    result = SifFile()
    seen: dict[tuple[str, tuple[Any, ...]], SifRecord] = {}
    for rec in parse_chunk(list(lines), 1, with_header=True, loads=loads, encode=encode):
        key = (rec.type, rec.identity)
        earlier = seen.get(key)
        if earlier is not None:
            if earlier.digest != rec.digest:
                raise BadInput(
                    f"{rec.type} {inert(rec.identity)} conflicts with the one on line {earlier.line}",
                    code="conflicting_record",
                    line=rec.line,
                )
            continue
        seen[key] = rec
        result.records.append(rec)
    return result
