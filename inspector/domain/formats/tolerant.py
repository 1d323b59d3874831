"""Reading a third-party transcript record by record, never refusing it whole.

A transcript another tool wrote is not sif/1: real files carry artifacts of
interrupted writes (two records on one line, ``…"}{"type":"summary",…``), a cut-off
last line, a record whose field has a type we do not expect. Every record that can be
read is read; each line (or item) that cannot be read, or is odd, becomes a
:class:`LineProblem` that the converter turns into a visible ``other`` event with a
stable code, pointing at the original bytes (kept byte for byte as the file's
original material). sif/1 itself stays all-or-nothing (``inspector.domain.sif``).

Stable problem codes: ``unreadable_line`` (not UTF-8, not JSON, or a cut-off part),
``several_records_on_line`` (read, but odd), ``duplicate_line`` (a repeated write, read once),
``not_an_object``, ``wrong_field_type``,
and the guarded decoder's ``duplicate_key``, ``lone_surrogate``,
``integer_out_of_range``, ``too_deep``, ``not_json_number``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inspector.domain.formats.builder import Line, split_lines
from inspector.domain.guarded_json import JsonRefused, loads, raw_decode_all
from inspector.domain.sif_schema import TIME

PROBLEM_CODES = ("unreadable_line", "several_records_on_line", "not_an_object", "wrong_field_type", "duplicate_key",
                 "lone_surrogate", "integer_out_of_range", "too_deep", "not_json_number", "duplicate_line")


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line (or part of one) that was not read as a record, or was read but is odd."""

    line: Line
    code: str
    message: str


Row = tuple[Line, dict[str, Any]]
# A decoder that answers exactly as ``guarded_json.loads`` does (value or exception); the
# import passes a faster one that proves its answers the same (store/jsoncodec.py fast_loads).
Loads = Callable[[bytes], Any]


def _sub_line(line: Line, text: str, start: int, end: int) -> Line:
    """The bytes of one record inside a line that holds several."""
    if len(text) == len(line.raw):  # ASCII: characters are bytes
        bs, be = start, end
    else:
        bs = len(text[:start].encode("utf-8"))
        be = bs + len(text[start:end].encode("utf-8"))
    return Line(line.number, line.start + bs, line.start + be, line.raw[bs:be])


def read_line(line: Line, loads: Loads = loads) -> tuple[list[Row], list[LineProblem]]:
    """The records of one non-blank line and the problems found on it."""
    try:
        value = loads(line.raw)
    except UnicodeDecodeError as exc:
        return [], [LineProblem(line, "unreadable_line", f"line {line.number} is not UTF-8 text ({exc.reason} at "
                                f"byte {exc.start}); it is kept in the original, not read")]
    except JsonRefused as exc:
        return [], [LineProblem(line, exc.code, f"line {line.number}: {exc.message}; it is kept in the original, "
                                "not read")]
    except json.JSONDecodeError:
        return _read_parts(line)
    if not isinstance(value, dict):
        return [], [LineProblem(line, "not_an_object", f"line {line.number} is JSON but not an object "
                                f"({type(value).__name__}); it is kept in the original, not read")]
    return [(line, value)], []


def _read_parts(line: Line) -> tuple[list[Row], list[LineProblem]]:
    text = line.raw.decode("utf-8")
    parts, failure = raw_decode_all(text)
    rows: list[Row] = []
    problems: list[LineProblem] = []
    for value, start, end in parts:
        sub = _sub_line(line, text, start, end)
        if isinstance(value, dict):
            rows.append((sub, value))
        else:
            problems.append(LineProblem(sub, "not_an_object", f"line {line.number} holds a JSON value that is not "
                                        "an object; it is kept in the original, not read"))
    if len(parts) > 1:
        problems.insert(0, LineProblem(line, "several_records_on_line",
                                       f"line {line.number} holds {len(parts)} JSON values written back to back "
                                       "(an interrupted write?); each was read on its own"))
    if failure is not None:
        pos, reason = failure
        tail = _sub_line(line, text, pos, len(text))
        what = "the rest of the line" if parts else "the line"
        problems.append(LineProblem(tail, "unreadable_line",
                                    f"line {line.number}: {what} is unreadable: {reason}; it is kept in the "
                                    "original, not read"))
    return rows, problems


def read_jsonl(data: bytes, loads: Loads = loads) -> list[Row | LineProblem]:
    """Every record of a JSON-lines file in file order, with a problem in place of each part
    that could not be read. Never raises for the content of a line.

    A line that repeats an earlier line byte for byte (``\r`` aside) is a repeated write, not a
    second record: every record of these formats carries its own time or id. It is read once
    and the repeat is a ``duplicate_line`` problem (before: a repeated tool result refused the
    whole file as a conflicting material, a repeated assistant line doubled its text and calls)."""
    out: list[Row | LineProblem] = []
    seen: dict[bytes, int] = {}
    for line in split_lines(data):
        if not line.raw.strip():
            continue
        key = line.raw[:-1] if line.raw.endswith(b"\r") else line.raw  # no copy of the common line
        first = seen.setdefault(key, line.number)
        if first != line.number:
            out.append(LineProblem(line, "duplicate_line", f"line {line.number} repeats line {first} byte for byte "
                                   "(a repeated write); it was read once"))
            continue
        rows, problems = read_line(line, loads)
        out += problems[:1] if problems and problems[0].code == "several_records_on_line" else []
        out += rows
        out += [p for p in problems if p.code != "several_records_on_line"]
    return out


# -- field types --------------------------------------------------------------------------------------------------

TYPE_NAMES = {str: "text", int: "a number", float: "a number", bool: "true or false", list: "a list",
              dict: "an object", type(None): "null"}
TIME_TYPE = "time"  # a marker: a string that must be an RFC 3339 time with a zone


def _kind(value: Any) -> str:
    return TYPE_NAMES.get(type(value), type(value).__name__)


def field_problem(obj: dict[str, Any], spec: dict[str, Any], where: str = "") -> str | None:
    """The first field of ``obj`` whose type is not what ``spec`` allows, as a sentence.

    ``spec`` maps a field name to a type, a tuple of types, :data:`TIME_TYPE`, or a
    nested spec (the field, when present, must be an object following it). Absent and
    null fields are allowed: converters treat them as missing.
    """
    for name, want in spec.items():
        value = obj.get(name)
        if value is None:
            continue
        path = f"{where}.{name}" if where else name
        if isinstance(want, dict):
            if not isinstance(value, dict):
                return f"field {path} is {_kind(value)}, expected an object"
            found = field_problem(value, want, path)
            if found:
                return found
        elif want == TIME_TYPE:
            if not TIME.check(value):
                return f"field {path} is {json.dumps(value)[:40]}, expected an RFC 3339 time with a zone"
        elif isinstance(value, bool) and bool not in (want if isinstance(want, tuple) else (want,)):
            return f"field {path} is {_kind(value)}, expected {_expected(want)}"
        elif not isinstance(value, want):
            return f"field {path} is {_kind(value)}, expected {_expected(want)}"
    return None


def fields_ok(spec: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """A predicate true exactly when :func:`field_problem` finds nothing, compiled from ``spec``
    into straight-line code: it runs once per record of a transcript (and per content block),
    and builds no field path and no sentence. When it says no, :func:`field_problem` names the
    field."""
    scope: dict[str, Any] = {"time_ok": TIME.check}
    body = ["def ok(o):", "    g = o.get"]
    for i, (name, want) in enumerate(spec.items()):
        body.append(f"    v = g({name!r})")
        if isinstance(want, dict):
            scope[f"s{i}"] = fields_ok(want)
            body.append(f"    if v is not None and not (isinstance(v, dict) and s{i}(v)): return False")
        elif want == TIME_TYPE:
            body.append("    if v is not None and not time_ok(v): return False")
        else:
            scope[f"w{i}"] = want
            kinds = want if isinstance(want, tuple) else (want,)
            no_bool = "" if bool in kinds else "v.__class__ is bool or "
            body.append(f"    if v is not None and ({no_bool}not isinstance(v, w{i})): return False")
    body.append("    return True")
    exec("\n".join(body), scope)  # noqa: S102 - the source is built above from the spec's names only
    return scope["ok"]  # type: ignore[no-any-return]


def _expected(want: Any) -> str:
    kinds = want if isinstance(want, tuple) else (want,)
    return " or ".join(dict.fromkeys(TYPE_NAMES.get(k, k.__name__) for k in kinds))


def items_problem(items: Any, spec: dict[str, Any], where: str, *, objects: bool = False) -> str | None:
    """Like :func:`field_problem` for every object in a list; other items are skipped by the
    converters, unless ``objects`` says every item must be an object."""
    if items is None:
        return None
    if not isinstance(items, list):
        return f"field {where} is {_kind(items)}, expected a list"
    for i, item in enumerate(items):
        if objects and not isinstance(item, dict):
            return f"field {where}[{i}] is {_kind(item)}, expected an object"
        if isinstance(item, dict):
            found = field_problem(item, spec, f"{where}[{i}]")
            if found:
                return found
    return None


def first_problem(checks: Iterable[str | None]) -> str | None:
    return next((c for c in checks if c), None)
