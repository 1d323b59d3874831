"""The searchable text of a tool call's input: what the agent *ran*, not what it said.

A reviewer looks for the moment an agent ran ``mise run test`` or edited ``src/auth.py``;
those words are in the call's arguments (a Bash command, an Edit's path and old/new strings,
a WebFetch URL), which the raw log keeps as the event's ``args``, not in its text. This is
the one definition of the text the search indexes for them, used by the index's writer, by
the search (hits are found and shown in it) and by ``verify`` (which rebuilds it and compares),
so all three agree byte for byte on both backends.

The text is the argument *values*, never the keys: a key such as ``command`` or ``file_path``
is in every call of its tool, so matching it would list every call. Strings are taken as they
are, numbers as their JSON text (a timeout, a line number), booleans and nulls left out (``true``
would match every flag). Objects are walked in their stored key order (canonical JSON: sorted),
lists in order; values are separated by a newline, so a query does not silently join the end of
one value to the start of the next unless it holds the newline itself. Arguments stored as one
string (a provider's unparsed ``arguments``) are that string.
"""

from __future__ import annotations

import json
from typing import Any

SEPARATOR = "\n"
MAX_DEPTH = 64  # deeper nesting is not what a tool call holds; left out rather than recursed without end


def _values(value: Any, out: list[str], depth: int) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, (int, float)):
        out.append(json.dumps(value))
    elif depth >= MAX_DEPTH:
        return
    elif isinstance(value, dict):
        for item in value.values():
            _values(item, out, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _values(item, out, depth + 1)


def call_input_text(args: Any) -> str | None:
    """The searchable text of a call's ``args``; None when the event has no input to search
    (no ``args``, JSON null, or nothing but keys, flags and nulls in them)."""
    if args is None:
        return None
    out: list[str] = []
    _values(args, out, 0)
    text = SEPARATOR.join(v for v in out if v)
    return text or None


def call_input_of_extra(extra: str | None) -> str | None:
    """:func:`call_input_text` of an event row's ``extra`` column (canonical JSON of the sif fields
    without a column of their own, ``args`` among them); None when it holds no call input or is
    not JSON (verify reports such a row; the index simply leaves it out)."""
    if not extra or '"args"' not in extra:  # most events: no JSON parse
        return None
    try:
        fields = json.loads(extra)
    except ValueError:
        return None
    return call_input_text(fields.get("args")) if isinstance(fields, dict) else None


def matched_label(tool: str | None) -> str:
    """Where a call-input hit matched, in the words the CLI, ``--json`` and the app show."""
    return f"call input of {tool}" if tool else "call input"
