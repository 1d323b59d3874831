"""Transcripts in a listing that are the same session: copies, cut copies, a file still being written.

A folder gathered from several people or machines holds the same session more than once: a
renamed copy, a duplicate, a copy taken while the agent was still writing. The list showed
them as identical rows (same title, time and size, no file name in the app), so a reviewer
could not tell which to open or that opening both reads one session twice (new-user-16).
Each file sharing its session id with another is now marked with the other's path and how
their bytes compare, and a transcript of JSON lines whose last line is not whole (cut
mid-write) says so. Bytes are compared only between files of one session, so a listing of
distinct sessions reads nothing more than before.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

CHUNK = 1 << 20
TAIL_MOST = 4 << 20  # the most of a file's end read to tell whether its last line is whole
TAIL_PIECE = 64 << 10
LINE_FORMATS = ("claude-code", "codex")  # transcripts of JSON lines, appended to line by line

# the other file, compared with this one
IDENTICAL = "identical"  # the same bytes
LONGER = "longer"  # holds this file's bytes and more: this one is an earlier or cut copy
SHORTER = "shorter"  # its bytes are this file's first ones: an earlier or cut copy of this one
DIFFERS = "differs"  # the same session id, other bytes (a rewritten or edited copy)


def _same_start(shorter: str, longer: str, size: int) -> bool:
    """Whether the first ``size`` bytes of both files are the same (read in chunks)."""
    try:
        with open(shorter, "rb") as a, open(longer, "rb") as b:
            left = size
            while left > 0:
                want = min(CHUNK, left)
                chunk = a.read(want)
                if not chunk or chunk != b.read(len(chunk)):
                    return False
                left -= len(chunk)
    except OSError:
        return False
    return True


# (path, size, time) of both files -> relation: a look again (ctrl+r, ctrl+o back to the list)
# compares again only the files that changed
_known: dict[tuple[Any, ...], str] = {}


def relation(this: Any, other: Any) -> str:
    """How ``other``'s bytes compare with ``this`` one's (``Found`` rows: ``path``, ``size``, ``updated``)."""
    key = (this.path, this.size, this.updated, other.path, other.size, other.updated)
    if key not in _known:
        _known[key] = _compare(this, other)
    return _known[key]


def _compare(this: Any, other: Any) -> str:
    if other.size == this.size:
        return IDENTICAL if _same_start(this.path, other.path, this.size) else DIFFERS
    if other.size > this.size:
        return LONGER if _same_start(this.path, other.path, this.size) else DIFFERS
    return SHORTER if _same_start(other.path, this.path, other.size) else DIFFERS


def cut_short(path: str, tool: str) -> bool:
    """A JSON-lines transcript whose last line is not a whole JSON value (cut mid-write). A last
    line that reads whole without a line end is not (copies trimmed by a script end so); one
    longer than :data:`TAIL_MOST` is not judged, and not said. Read backwards in pieces of
    :data:`TAIL_PIECE`, so a listing never reads a large block at once."""
    if tool not in LINE_FORMATS:
        return False
    try:
        with open(path, "rb") as fh:
            end = at = fh.seek(0, os.SEEK_END)
            tail = b""
            while at > 0 and b"\n" not in tail and end - at < TAIL_MOST:
                step = min(TAIL_PIECE, at)
                at -= step
                fh.seek(at)
                tail = fh.read(step) + tail
                if tail.endswith(b"\n"):
                    return False  # the last line ended
    except OSError:
        return False
    if b"\n" not in tail and at > 0:
        return False  # a last line longer than what was read: not judged
    return last_line_cut(tail)


def last_line_cut(data: bytes) -> bool:
    """Whether ``data`` (JSON lines) ends in a line that is not a whole JSON value."""
    if data.endswith(b"\n"):
        return False
    last = data[data.rfind(b"\n") + 1:]
    if not last.strip():
        return False
    try:
        json.loads(last)
    except ValueError:  # also a UnicodeDecodeError: a character cut in two
        return True
    except RecursionError:  # nested past Python's limit: not judged here (import says too_deep); it
        return False  # ended `sessions --discover` and the app's start screen in a traceback
    return False


def mark_copies(found: Iterable[Any]) -> None:
    """Fill each row's ``copies``: [{"path", "relation"}] of the other files of its session."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for f in found:
        if f.session:
            groups.setdefault((f.tool, f.session), []).append(f)
    for items in groups.values():
        for f in items:
            f.copies = [{"path": o.path, "relation": relation(f, o)} for o in items if o is not f] if len(items) > 1 else []


def copies_said(f: Any, name: Any) -> list[str]:
    """What the list says under a row: its copies and a cut last line (``name`` shows a path)."""
    said = {IDENTICAL: "identical bytes", LONGER: "which holds all of this one and more",
            SHORTER: "an earlier or cut copy of this one", DIFFERS: "with other bytes (rewritten or edited)"}
    lines = [f"same session as {name(c['path'])}, {said.get(c['relation'], c['relation'])}" for c in f.copies]
    if f.cut_short:
        lines.append("its last line is cut short: still being written, or copied part-way")
    return lines
