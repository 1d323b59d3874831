"""What a transcript is about, read from its first bytes only (for listing, never importing).

Listing hundreds of transcripts must not parse them: each reader looks at a prefix of the
file (the caller decides how many bytes) and returns the tool, the session id, the project
folder the agent ran in, the first prompt and the start time — whatever the prefix holds.
Lines cut off at the end of the prefix are ignored; big lines that cannot be the first
prompt are skipped without being parsed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from inspector.domain.formats.titles import content_text, prompt_title

# Counted in the whole file (cheap byte search, done apart from listing): one per compaction.
COMPACTION_MARKERS = {"claude-code": re.compile(rb'"subtype"\s*:\s*"compact_boundary"'),
                      "codex": re.compile(rb'"type"\s*:\s*"compacted"')}


def count_compactions(tool: str, data: bytes) -> int:
    marker = COMPACTION_MARKERS.get(tool)
    return len(marker.findall(data)) if marker is not None else 0


@dataclass(slots=True)
class Header:
    tool: str  # claude-code | codex | gemini | sif
    session: str | None = None
    project: str | None = None  # the folder the agent ran in, when the file says
    title: str | None = None  # the first prompt (or a title the tool gave the session)
    started: str | None = None
    ended: str | None = None  # the last time the file records (from its last bytes)


def _clean(text: str) -> str | None:
    return prompt_title(text)  # the same title the import stores (titles.py)


def _lines(prefix: bytes) -> list[bytes]:
    lines = prefix.split(b"\n")
    return lines[:-1] if len(lines) > 1 else lines  # the last piece may be cut off


def _loads(line: bytes) -> Any:
    try:
        return json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past Python's limit: the import says
        return None  # too_deep; here it ended `sessions --discover` (and the app's start) in a traceback


def _text(content: Any) -> str:
    return content_text(content) or ""


def claude_code(prefix: bytes) -> Header:
    h = Header("claude-code")
    for line in _lines(prefix):
        cheap = line[:200]
        if b'"type":"file-history-snapshot"' in cheap or b'"type":"progress"' in cheap:
            continue
        rec = _loads(line)
        if not isinstance(rec, dict):
            continue
        h.session = h.session or rec.get("sessionId")
        h.project = h.project or rec.get("cwd")
        h.started = h.started or rec.get("timestamp")
        kind = rec.get("type")
        if kind in ("ai-title", "custom-title") and not h.title:  # not "summary": see formats/claude_code.py
            h.title = _clean(str(rec.get("aiTitle") or rec.get("customTitle") or ""))
        elif kind == "user" and not h.title and not rec.get("isMeta") and not rec.get("isCompactSummary"):
            h.title = _clean(_text((rec.get("message") or {}).get("content")))
        if h.title and h.session and h.project:
            break
    return h


def codex(prefix: bytes) -> Header:
    h = Header("codex")
    for line in _lines(prefix):
        rec = _loads(line)
        if not isinstance(rec, dict) or not isinstance(rec.get("payload"), dict):
            continue
        p = rec["payload"]
        if rec.get("type") == "session_meta":
            h.session = h.session or p.get("id")
            h.project = h.project or p.get("cwd")
            h.started = h.started or p.get("timestamp") or rec.get("timestamp")
        elif rec.get("type") == "response_item" and p.get("type") == "message" and p.get("role") == "user":
            h.title = h.title or _clean(_text(p.get("content")))
        elif rec.get("type") == "event_msg" and p.get("type") == "user_message":
            h.title = h.title or _clean(str(p.get("message") or ""))
        if h.title and h.session:
            break
    return h


_GEMINI_FIELD = re.compile(rb'"(sessionId|projectHash|startTime|lastUpdated)"\s*:\s*"([^"]*)"')
_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"([0-9][0-9T:.+\-Z]{9,40})"')
_GEMINI_USER = re.compile(rb'"type"\s*:\s*"user"\s*,\s*"content"\s*:\s*("(?:[^"\\]|\\.)*")')


def gemini(prefix: bytes) -> Header:
    """A Gemini CLI chat file is one JSON document: its header fields come first, then the
    messages; the first user message's content is taken from the raw text."""
    h = Header("gemini")
    fields = {m.group(1).decode(): m.group(2).decode("utf-8", "replace") for m in _GEMINI_FIELD.finditer(prefix[:4096])}
    h.session, h.started, h.ended = fields.get("sessionId"), fields.get("startTime"), fields.get("lastUpdated")
    h.project = fields.get("projectHash")
    match = _GEMINI_USER.search(prefix)
    if match:
        content = _loads(match.group(1))
        h.title = _clean(content) if isinstance(content, str) else None
    return h


def sif(prefix: bytes) -> Header:
    h = Header("sif")
    for line in _lines(prefix)[:50]:
        rec = _loads(line)
        if isinstance(rec, dict) and rec.get("type") == "session":
            h.session, h.title, h.started = rec.get("id"), _clean(str(rec.get("title") or "")), rec.get("created_at")
            break
    return h


def last_time(tail: bytes) -> str | None:
    """The last record time in a file's last bytes (line formats write it on every record)."""
    times = _TIMESTAMP.findall(tail)
    return times[-1].decode("ascii") if times else None


def read_header(prefix: bytes) -> Header | None:
    """The header of a transcript from its first bytes, or None when it is none we list."""
    head = prefix.lstrip()[:2048]
    if head.startswith(b"{") and b'"projectHash"' in head and b'"sessionId"' in head:
        return gemini(prefix)
    first = head.split(b"\n", 1)[0]
    if b'"type":"header"' in first.replace(b" ", b"") and b"sif/" in first:
        return sif(prefix)
    if b'"payload"' in first and (b'"session_meta"' in first or b'"response_item"' in first):
        return codex(prefix)
    if b'"sessionId"' in head or b'"type":"summary"' in first or b'"type":"file-history-snapshot"' in first:
        return claude_code(prefix)
    return None
