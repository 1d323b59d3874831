"""Claude Code session transcripts (``~/.claude/projects/<cwd>/<session>.jsonl``) to sif/1.

- The blocks of one API message arrive on separate ``assistant`` lines sharing
  ``message.id``; they become one ``assistant_message`` (text, thinking text as
  ``reasoning_content``, signatures and redacted thinking as continuation items, byte for
  byte) plus one ``tool_call`` per ``tool_use``. ``usage`` is repeated per line and is
  not summed.
- ``tool_result`` blocks pair with ``tool_use`` on ``tool_use_id``; large ones are folded.
- ``compact_boundary`` + the following ``isCompactSummary`` line become a summary
  generation covering every event before the boundary. Old ``summary`` records are the
  one-line titles Claude Code gave a conversation for its resume list (FORMATS.md §1
  "titles / summaries"), never sent to the model: kept as ``other`` events, not generations
  (as generations, survival judged a six-word title as a compaction that "lost" every fact).
  Unknown record types are kept as ``other`` events.
"""

from __future__ import annotations

from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import (
    AssistantBlocks,
    Builder,
    Line,
    text_of,
)
from inspector.domain.formats.readable import block_text, encrypted_parts, readable
from inspector.domain.formats.titles import content_text, first_title
from inspector.domain.formats.tolerant import (
    TIME_TYPE,
    LineProblem,
    Loads,
    Row,
    field_problem,
    fields_ok,
    items_problem,
    read_jsonl,
)

FORMAT = "claude-code"


def _describe(rec: dict[str, Any]) -> str:
    kind = rec.get("type")
    sub = rec.get("subtype") or (rec.get("data") or {}).get("type") if isinstance(rec.get("data"), dict) else rec.get("subtype")
    if kind == "system" and rec.get("subtype") == "microcompact_boundary":
        meta = rec.get("microcompactMetadata") or {}
        return (f"micro-compaction ({meta.get('trigger', '?')}): cleared {len(meta.get('compactedToolIds') or [])} tool "
                f"result(s) from the model's context, {meta.get('tokensSaved', '?')} tokens saved")
    if kind == "system" and rec.get("subtype") == "compact_boundary":
        meta = rec.get("compactMetadata") or {}
        return f"conversation compacted ({meta.get('trigger', '?')}, {meta.get('preTokens', '?')} tokens before)"
    if kind == "system":
        return f"system: {rec.get('subtype') or ''} {text_of(rec.get('content'))}".strip()
    return f"{kind}{': ' + str(sub) if sub else ''}"  # a subtype of another type (a number) is said as it is


# Kinds this converter has a rule for (FORMATS.md §1); any other is read as text and counted as not understood.
RECORD_TYPES = frozenset({"user", "assistant", "system", "summary", "progress", "file-history-snapshot",
                          "queue-operation", "last-prompt", "ai-title", "custom-title", "agent-name", "mode",
                          "permission-mode", "attachment",
                          "x-inspector-resume"})  # the line formats/tail.py puts before an appended part
SYSTEM_SUBTYPES = frozenset({"stop_hook_summary", "turn_duration", "local_command", "away_summary", "compact_boundary",
                             "microcompact_boundary"})
PROGRESS_TYPES = frozenset({"hook_progress", "bash_progress", "agent_progress"})
# The envelope every line repeats (session, place in the tree, client): not the record's own text.
_ENVELOPE = frozenset({"parentUuid", "logicalParentUuid", "isSidechain", "userType", "cwd", "sessionId", "version",
                       "gitBranch", "slug", "entrypoint", "type", "subtype", "uuid", "timestamp", "level", "isMeta",
                       "toolUseID", "parentToolUseID", "requestId", "snapshot", "messageId", "isSnapshotUpdate"})


def _name(value: Any) -> str:
    """A kind as a name to look up: a field of another type (a number, an object) never matches."""
    return value if isinstance(value, str) else f"<{type(value).__name__}>"


def _with_text(described: str, rec: dict[str, Any]) -> str:
    """The record's label, then whatever text it carries that the label does not already say
    (a hook's command, an attachment's content, a field a newer version added)."""
    more = readable(rec, skip=_ENVELOPE)
    lines = [ln for ln in more.splitlines() if ln.split(": ", 1)[-1] not in described] if more else []
    return described + ("\n" + "\n".join(lines) if lines else "")


def _agent_text(data: dict[str, Any]) -> str | None:
    """A sub-agent's message carried in an ``agent_progress`` record, as text: who, what it said,
    the tools it called with their input, the results it got."""
    outer = data.get("message") if isinstance(data.get("message"), dict) else {}
    inner = outer.get("message") if isinstance(outer.get("message"), dict) else outer
    content = inner.get("content")
    if content is None and not data.get("prompt"):
        return None
    role = inner.get("role") or outer.get("type") or "message"
    parts = [f"sub-agent {data.get('agentId') or '?'} ({role})"]
    if isinstance(data.get("prompt"), str):
        parts.append(f"prompt: {data['prompt']}")
    blocks = content if isinstance(content, list) else [content]
    for block in blocks:
        if isinstance(block, dict) and block.get("type") == "tool_use":
            parts.append(block_text(block))
        elif block is not None:
            parts.append(text_of([block]))
    return "\n".join(p for p in parts if p)


# The fields the converter reads, with the types it can take (tolerant.field_problem).
_RECORD: dict[str, Any] = {
    "type": str, "sessionId": str, "timestamp": TIME_TYPE, "uuid": str, "summary": str, "aiTitle": str,
    "customTitle": str, "compactMetadata": dict, "microcompactMetadata": {"compactedToolIds": list},
    "message": {"content": (str, list)},
}
_BLOCK: dict[str, Any] = {"type": str, "text": str, "thinking": str, "signature": str, "data": str, "id": str,
                          "name": str, "input": dict, "tool_use_id": str}


_RECORD_OK = fields_ok(_RECORD)
_BLOCK_OK = fields_ok(_BLOCK)


def _record_problem(rec: dict[str, Any]) -> str | None:
    content = rec["message"].get("content") if isinstance(rec.get("message"), dict) else None
    if _RECORD_OK(rec) and (not isinstance(content, list)
                            or all(_BLOCK_OK(b) for b in content if isinstance(b, dict))):
        return None  # the common case, without building a sentence per field (issue #18)
    found = field_problem(rec, _RECORD)
    return found or (items_problem(content, _BLOCK, "message.content") if isinstance(content, list) else None)


def read(data: bytes, loads: Loads | None = None) -> list[Row | LineProblem]:
    """Every readable record; a problem in place of each unreadable part or record of the wrong shape."""
    out: list[Row | LineProblem] = []
    for item in (read_jsonl(data) if loads is None else read_jsonl(data, loads)):
        why = None if isinstance(item, LineProblem) else _record_problem(item[1])
        if why and not isinstance(item, LineProblem):
            item = LineProblem(item[0], "wrong_field_type", f"line {item[0].number}: {why}; the record is kept in "
                               "the original, not read")
        out.append(item)
    return out


def convert(data: bytes, file_name: str, loads: Loads | None = None) -> list[dict[str, Any]]:
    entries = read(data, loads)
    parsed = [e for e in entries if not isinstance(e, LineProblem)]
    session = next((r["sessionId"] for _, r in parsed if isinstance(r.get("sessionId"), str)), None)
    if session is None:
        raise BadInput("no sessionId on any readable line: this does not look like a Claude Code transcript",
                       code="unknown_format")
    b = Builder(session, FORMAT, file_name)
    # A title the tool gave this session, else the first thing the person typed (titles.py). Old
    # ``summary`` records are not titles of this file: a resumed session starts with the summaries of
    # the conversations it came from (their leafUuid names lines of other files).
    title = first_title(r.get("aiTitle") or r.get("customTitle") for _, r in parsed
                        if r.get("type") in ("ai-title", "custom-title"))
    title = title or first_title(content_text((r.get("message") or {}).get("content")) for _, r in parsed
                                 if r.get("type") == "user" and isinstance(r.get("message"), dict)
                                 and not r.get("isMeta") and not r.get("isCompactSummary"))
    b.records.append({"type": "session", "id": session, "title": title or session,
                      "created_at": next((r["timestamp"] for _, r in parsed if r.get("timestamp")), None),
                      "adapter": "anthropic", "goal_revision": 1})
    _Walker(b, entries, session).run()
    b.keep_original(data)
    return b.records


class _Walker:
    def __init__(self, b: Builder, parsed: list[Row | LineProblem], session: str) -> None:
        self.b, self.parsed, self.session = b, parsed, session
        self.foreign: set[str] = set()  # other sessions' ids met on lines of this file
        self.tools: dict[str, str] = {}  # tool_use id -> tool name
        self.pending_boundary: int | None = None

    def run(self) -> None:
        groups: dict[str, list[tuple[Line, dict[str, Any]]]] = {}
        order: list[tuple[str, Any]] = []
        for entry in self.parsed:
            if isinstance(entry, LineProblem):
                order.append(("problem", entry))
                continue
            line, rec = entry
            msg = rec.get("message") if isinstance(rec.get("message"), dict) else None
            if rec.get("type") == "assistant" and msg and isinstance(msg.get("id"), str):
                if msg["id"] not in groups:
                    groups[msg["id"]] = []
                    order.append(("assistant", msg["id"]))
                groups[msg["id"]].append((line, rec))
            else:
                order.append(("line", (line, rec)))
        for kind, item in order:
            if kind != "problem":
                self._other_session(*(groups[item][0] if kind == "assistant" else item))
            if kind == "assistant":
                self.assistant(groups[item])
            elif kind == "problem":
                self.b.problem(item.code, item.message, item.line)
            else:
                self.record(*item)

    def _other_session(self, line: Line, rec: dict[str, Any]) -> None:
        """A Claude Code file holds one session; records of another (two files run together) are
        read into this one in file order, and the first line of each other session says so."""
        other = rec.get("sessionId")
        if isinstance(other, str) and other != self.session and other not in self.foreign:
            self.foreign.add(other)
            self.b.problem("other_session", f"line {line.number} belongs to session {other}, not {self.session} "
                           "(this file's first); its records are read into this session in file order", line)

    def assistant(self, group: list[tuple[Line, dict[str, Any]]]) -> None:
        blocks = AssistantBlocks()
        calls: list[tuple[Line, dict[str, Any], dict[str, Any]]] = []
        for line, rec in group:
            content = rec["message"].get("content")
            # a string is the API's short form of one text block (before: iterated as characters, all dropped)
            for block in ([{"type": "text", "text": content}] if isinstance(content, str) else content or []):
                before = len(blocks.calls)
                blocks.add(block)
                if len(blocks.calls) > before:
                    calls.append((line, rec, block))
        blocks.texts += [block_text(b) for b in blocks.other if b.get("type") == "compaction"]
        _first_line, first = group[0]
        msg = first["message"]
        lines = [ln for ln, _ in group]
        self.b.event("assistant_message", "\n".join(blocks.texts), at=first.get("timestamp"), trust="model",
                     lines=lines, reasoning_content=blocks.reasoning,
                     continuation=blocks.continuation, model=msg.get("model"), message_id=msg.get("id"),
                     sidechain=True if first.get("isSidechain") else None, citations=blocks.citations)
        for kind, count in blocks.unknown.items():
            for _ in range(count):
                self.b.not_understood("content block", kind, group[0][0])
        for block in blocks.other:  # server-side compaction: a rule of the message-list converter, not of this one
            if block.get("type") == "compaction":
                self.b.not_understood("content block", "compaction", group[0][0])
        for line, rec, block in calls:
            self.tools[block.get("id", "")] = block.get("name", "")
            self.b.event("tool_call", None, at=rec.get("timestamp"), trust="model", lines=[line],
                         call_id=block.get("id"), tool=block.get("name"), args=block.get("input") or {},
                         server_tool=block["type"] if block.get("type") != "tool_use" else None)
        for block in blocks.results:  # a server tool's result arrives in the assistant's own message
            line = next((ln for ln, r in group if isinstance(r["message"].get("content"), list)
                         and block in r["message"]["content"]), group[0][0])
            call_id = block.get("tool_use_id")
            self.b.tool_result(call_id, text_of(block.get("content")), at=first.get("timestamp"),
                               tool=self.tools.get(call_id or ""), lines=[line], result_type=block.get("type"),
                               continuation=encrypted_parts(block.get("content")))

    def record(self, line: Line, rec: dict[str, Any]) -> None:
        kind, at = rec.get("type"), rec.get("timestamp")
        msg = rec.get("message") if isinstance(rec.get("message"), dict) else {}
        if kind == "user":
            self.user(line, rec, msg, at)
        elif kind == "summary":
            text = str(rec.get("summary", ""))
            self.b.event("other", f"summary record: {text}", at=at, trust="system", lines=[line])
        elif kind == "system":
            if _name(rec.get("subtype")) not in SYSTEM_SUBTYPES:
                self.b.not_understood("system record", f"system/{rec.get('subtype')}", line)
            seq = self.b.event("system_message", _with_text(_describe(rec), rec), at=at, trust="system", lines=[line],
                               subtype=rec.get("subtype"))
            if rec.get("subtype") == "compact_boundary":
                self.pending_boundary = seq
        else:  # progress, file-history-snapshot, queue-operation, titles, and types not seen yet
            data = rec.get("data") if isinstance(rec.get("data"), dict) else {}
            if kind not in RECORD_TYPES:
                self.b.not_understood("record", str(kind), line)
            elif kind == "progress" and _name(data.get("type")) not in PROGRESS_TYPES:
                self.b.not_understood("progress record", f"progress/{data.get('type')}", line)
            text = _agent_text(data) if data.get("type") == "agent_progress" else None
            self.b.event("other", text or _with_text(_describe(rec), rec), at=at, trust="system", lines=[line],
                         record_type=kind, agent_id=data.get("agentId") if text else None)

    def user(self, line: Line, rec: dict[str, Any], msg: dict[str, Any], at: str | None) -> None:
        content = msg.get("content")
        if rec.get("isCompactSummary"):
            text = text_of(content)
            seq = self.b.event("other", text, at=at, trust="system", lines=[line], compact_summary=True)
            boundary = self.pending_boundary or seq
            self.b.summary(text, boundary - 1, sources=[f"evt:{boundary}", f"evt:{seq}"],
                           replaced={"from": 1, "to": boundary - 1, "boundary": f"evt:{boundary}"})
            self.pending_boundary = None
            return
        if isinstance(content, str):
            self.b.event("user_message", content, at=at, trust="user", lines=[line],
                         sidechain=True if rec.get("isSidechain") else None)
            return
        for block in content or []:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                call_id = block.get("tool_use_id")
                self.b.tool_result(call_id, text_of(block.get("content")), at=at, tool=self.tools.get(call_id or ""),
                                   lines=[line], is_error=True if block.get("is_error") else None)
            else:
                self.b.event("user_message", text_of([block]), at=at, trust="user", lines=[line])
