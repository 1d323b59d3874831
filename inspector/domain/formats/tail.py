"""Converting only the lines appended to a transcript that was imported before.

A running agent appends lines to its transcript. Rather than convert the whole file again,
the new complete lines are converted on their own and *rebased* onto what the store holds:
event seqs continue after the last stored one, summary generations after the last stored
generation, ``evt:N`` references and covered ranges move with them, and each event's origin
points at its bytes in the new segment of the original (``original:<name>@<offset>``), so
the segments laid end to end are the file byte for byte.

Line-based formats only (sif/1, Claude Code, Codex). A format that rewrites one JSON
document (Gemini CLI, saved message lists) cannot be followed: what was imported may have
changed under it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats import claude_code, codex
from inspector.domain.formats.builder import ORIGINAL_AS_BYTES, ORIGINAL_MEDIA_TYPE
from inspector.domain.vocabulary import SIF_FORMAT

APPENDABLE = ("sif", "claude-code", "codex")
_EVT = re.compile(r"^evt:(\d+)$")
_GENERATED_ID = re.compile(r"^(res|stub):evt-(\d+)$")


@dataclass(slots=True)
class Resume:
    """Where the store's copy of a transcript ends."""

    fmt: str
    session: str
    file_name: str
    offset: int  # bytes of the file already imported (always a line end)
    line: int  # lines already imported
    seq: int  # last stored event seq of the session
    generation: int  # last stored summary generation
    tools: dict[str, str] = field(default_factory=dict)  # call id -> tool name, for results of earlier calls

    @property
    def segment(self) -> str:
        return f"original:{self.file_name}@{self.offset}"


def complete_lines(data: bytes) -> bytes:
    """The bytes up to and including the last newline: a partial last line waits. A last line
    without its newline that is already a whole JSON object (a finished file that does not end
    in a newline) is complete: a line cut while being written never parses. One nested past
    Python's recursion limit is left whole to the format's reader, which says ``too_deep``: a
    Gemini CLI document 5,000 arrays deep ended ``import`` in a RecursionError traceback."""
    end = data.rfind(b"\n")
    last = data[end + 1:]
    if last.strip():
        try:
            if isinstance(json.loads(last), dict):
                return data
        except RecursionError:
            return data
        except (ValueError, UnicodeDecodeError):
            pass
    return data[: end + 1] if end >= 0 else b""


def _synthetic_first_line(resume: Resume) -> bytes:
    """A line that names the session, so the converter knows it; its one event is dropped."""
    if resume.fmt == "claude-code":
        return json.dumps({"type": "x-inspector-resume", "sessionId": resume.session}).encode()
    return json.dumps({"timestamp": None, "type": "session_meta", "payload": {"id": resume.session}}).encode()


def convert_tail(tail: bytes, resume: Resume) -> list[dict[str, Any]]:
    """sif records for ``tail`` (complete lines only), numbered to follow ``resume``."""
    if resume.fmt not in APPENDABLE:
        raise BadInput(f"{resume.file_name} is a {resume.fmt} file, which its tool rewrites as a whole rather than "
                       "appending to; it cannot be followed (open it again to see its current state in a new store)",
                       code="not_appendable")
    if resume.fmt == "sif":
        raise ValueError("sif/1 tails are imported as they are")  # caller's job: they carry their own seqs
    head = _synthetic_first_line(resume) + b"\n"
    data = head + tail
    # the converter's own original is dropped below: kept as its bytes, not decoded into one text for nothing
    token = ORIGINAL_AS_BYTES.set(True)
    try:
        records = (claude_code.convert if resume.fmt == "claude-code" else codex.convert)(data, resume.file_name)
    finally:
        ORIGINAL_AS_BYTES.reset(token)
    shift_bytes = len(head)
    out: list[dict[str, Any]] = []
    for rec in records:
        if rec["type"] == "session":
            continue
        if rec["type"] == "material" and rec.get("media_type") == ORIGINAL_MEDIA_TYPE:
            continue  # the caller keeps the tail's bytes as the next segment of the original
        if rec["type"] == "event" and rec["seq"] == 1:
            continue  # the synthetic line's event
        out.append(_rebase(rec, resume, shift_bytes))
    return out


def sif_tail(tail: bytes) -> bytes:
    """A sif/1 tail as an importable file: the header line, then the appended records."""
    return json.dumps({"type": "header", "format": SIF_FORMAT}).encode() + b"\n" + tail


def _seq(n: int, resume: Resume) -> int:
    return n - 1 + resume.seq


def _ref(ref: Any, resume: Resume) -> Any:
    match = _EVT.match(ref) if isinstance(ref, str) else None
    return f"evt:{_seq(int(match.group(1)), resume)}" if match else ref


def _generated_id(ident: Any, resume: Resume) -> Any:
    match = _GENERATED_ID.match(ident) if isinstance(ident, str) else None
    return f"{match.group(1)}:evt-{_seq(int(match.group(2)), resume)}" if match else ident


def _rebase(rec: dict[str, Any], resume: Resume, shift_bytes: int) -> dict[str, Any]:
    rec = dict(rec)
    kind = rec["type"]
    if kind == "event":
        rec["seq"] = _seq(rec["seq"], resume)
        if rec.get("kind") == "tool_result" and not rec.get("tool") and rec.get("call_id") in resume.tools:
            rec["tool"] = resume.tools[rec["call_id"]]
        origin = dict(rec.get("origin") or {})
        if "line" in origin:
            origin["line"] = origin["line"] - 1 + resume.line
            if "lines" in origin:
                origin["lines"] = [n - 1 + resume.line for n in origin["lines"]]
            origin["bytes"] = [b - shift_bytes for b in origin["bytes"]]
            origin["material"] = resume.segment
        rec["origin"] = origin
        if "stub" in rec:
            rec["stub"] = _generated_id(rec["stub"], resume)
    elif kind == "material":
        rec["id"] = _generated_id(rec["id"], resume)
        if isinstance(rec.get("source_event"), int):
            rec["source_event"] = _seq(rec["source_event"], resume)
    elif kind == "stub":
        rec["id"] = _generated_id(rec["id"], resume)
        rec["material"] = _generated_id(rec["material"], resume)
    elif kind == "summary":
        rec["generation"] += resume.generation
        if "parent" in rec:
            rec["parent"] += resume.generation
        elif resume.generation:
            rec["parent"] = resume.generation
        rec["covers"] = [rec["covers"][0], max(1, _seq(rec["covers"][1], resume))]
        rec["sources"] = [_ref(s, resume) for s in rec.get("sources", [])]
        if isinstance(rec.get("replaced"), dict):
            replaced = dict(rec["replaced"])
            for key in ("from", "to"):
                if isinstance(replaced.get(key), int) and replaced[key] > 1:
                    replaced[key] = _seq(replaced[key], resume)
            replaced["boundary"] = _ref(replaced.get("boundary"), resume)
            rec["replaced"] = replaced
    return rec
