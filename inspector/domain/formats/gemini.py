"""Gemini CLI chat files (``~/.gemini/tmp/<project hash>/chats/session-*.json``) to sif/1.

One JSON document (not JSON lines) that the CLI rewrites as the chat grows:
``sessionId``, ``projectHash``, ``startTime``, ``lastUpdated``, ``messages``. A ``user``
message becomes a ``user_message``; a ``gemini`` message an ``assistant_message`` whose
``thoughts`` (``{subject, description, timestamp}``) are its ``reasoning_content``; each of
its ``toolCalls`` holds the call *and* its result (``result`` = a list of
``{"functionResponse": {id, name, response}}``), so it becomes a ``tool_call`` and, when a
result was recorded, a ``tool_result`` paired on the call's ``id``. ``info`` / ``error`` /
``warning`` notices (and types not seen yet) are kept as system messages.

The document is scanned element by element so every event points at the byte range of
the message it came from in the kept original.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.domain import guarded_json
from inspector.domain.errors import BadInput
from inspector.domain.formats import gemini_checkpoint
from inspector.domain.formats.builder import Builder, Line, parse_arguments, text_of
from inspector.domain.formats.readable import readable
from inspector.domain.formats.spans import Positions, expect, skip
from inspector.domain.formats.titles import first_title
from inspector.domain.formats.tolerant import TIME_TYPE, field_problem, first_problem, items_problem
from inspector.domain.sif_schema import TIME

FORMAT = "gemini"
KEYS = frozenset({"sessionId", "projectHash", "messages"})
_DECODER = guarded_json.DECODER  # duplicate keys and NaN refused; each message then gets check_part


def looks_like(doc: Any) -> bool:
    """A chat file, or a checkpoint (``/chat save``: the API's Content list, gemini_checkpoint.py)."""
    return (isinstance(doc, dict) and KEYS <= set(doc) and isinstance(doc.get("messages"), list)) \
        or gemini_checkpoint.looks_like(doc)


def looks_like_prefix(head: bytes) -> bool:
    """From the first bytes only (the header keys come before the messages)."""
    start = head.lstrip()[:1]
    return start == b"{" and b'"sessionId"' in head and b'"projectHash"' in head


@dataclass(frozen=True, slots=True)
class Span:
    line: int  # 1-based line of the message's first byte
    start: int  # byte offsets in the file
    end: int


def scan(data: bytes) -> tuple[dict[str, Any], list[tuple[dict[str, Any], Span]]]:
    """The top-level fields and every message with the byte span it occupies."""
    text = data.decode("utf-8", errors="surrogatepass").lstrip("\ufeff")
    positions = Positions(text)
    header: dict[str, Any] = {}
    messages: list[tuple[dict[str, Any], Span]] = []
    pos = expect(text, 0, "{")
    while True:
        pos = skip(text, pos)
        if text[pos:pos + 1] == "}":
            break
        key, pos = _DECODER.raw_decode(text, pos)
        pos = skip(text, expect(text, pos, ":"))
        if key == "messages" and text[pos:pos + 1] == "[":
            pos = skip(text, pos + 1)
            while text[pos:pos + 1] != "]":
                start = pos
                message, pos = _DECODER.raw_decode(text, pos)
                guarded_json.check_part(message)
                byte_start, line = positions.at(start)
                byte_end, _ = positions.at(pos)
                messages.append((message, Span(line, byte_start, byte_end)))
                pos = skip(text, pos)
                if text[pos:pos + 1] == ",":
                    pos = skip(text, pos + 1)
            pos += 1
            header[key] = None
        else:
            header[key], pos = _DECODER.raw_decode(text, pos)
            guarded_json.check_part(header[key])
        pos = skip(text, pos)
        if text[pos:pos + 1] == ",":
            pos += 1
    rest = skip(text, pos + 1)
    if rest < len(text):  # `--from gemini` on JSON lines read the first line's object alone, an empty session
        _, line = positions.at(rest)
        raise BadInput("a second JSON value starts here: the file is JSON lines (one record per line, as a Claude Code "
                       "or Codex transcript is written), not one Gemini CLI chat document; leave out --from and the "
                       "format is detected", code="malformed_json", line=line)
    return header, messages


def _thoughts(thoughts: Any) -> str | None:
    parts = []
    for t in thoughts or []:
        if isinstance(t, dict):
            subject, description = str(t.get("subject") or ""), str(t.get("description") or "")
            parts.append(f"{subject}\n{description}" if subject and description else subject or description)
        elif isinstance(t, str):
            parts.append(t)
    return "\n\n".join(parts) if parts else None


def _result_text(result: Any) -> str:
    """The text a tool returned: each functionResponse's output (or error), else the JSON as stored."""
    parts = []
    for item in result if isinstance(result, list) else [result]:
        call = item.get("functionResponse") if isinstance(item, dict) else None
        response = call.get("response") if isinstance(call, dict) else None
        if isinstance(response, dict) and isinstance(response.get("output"), str):
            parts.append(response["output"])
        elif isinstance(response, dict) and isinstance(response.get("error"), str):
            parts.append(response["error"])
        elif isinstance(item, dict) and isinstance(item.get("text"), str):
            parts.append(item["text"])
        elif item is not None:
            parts.append(json.dumps(response if response is not None else item, ensure_ascii=False))
    return "\n".join(parts)


def convert(data: bytes, file_name: str, loads: Callable[[bytes], Any] | None = None) -> list[dict[str, Any]]:
    """A chat file (read message by message, keeping each one's place) or a checkpoint (one
    document: ``loads`` as for ``detect.convert``)."""
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"[":  # a checkpoint, not a chat file
        from inspector.domain.formats.messages import load_document  # messages imports nothing of Gemini's

        doc = load_document(data, loads)
        if not gemini_checkpoint.looks_like(doc):
            raise BadInput("a JSON list, but not a Gemini CLI checkpoint (a list of {role, parts})",
                           code="unknown_format")
        return gemini_checkpoint.convert(doc, data, file_name)
    try:
        header, messages = scan(data)
    except guarded_json.JsonRefused as exc:
        raise BadInput(exc.message, code=exc.code) from None
    except RecursionError:
        raise BadInput(f"nested more than {guarded_json.MAX_DEPTH} levels deep", code="too_deep") from None
    except (ValueError, UnicodeDecodeError, IndexError) as exc:
        raise BadInput(f"not a readable Gemini CLI chat file ({exc})", code="malformed_json") from None
    session = header.get("sessionId")
    if not isinstance(session, str) or not session:
        raise BadInput("no sessionId: not a Gemini CLI chat file", code="unknown_format")
    if "messages" not in header:  # read as a session of no events, said as imported
        raise BadInput("no messages list: not a Gemini CLI chat file", code="unknown_format")
    b = Builder(session, FORMAT, file_name)
    title = first_title(text_of(m.get("content")) for m, _ in messages  # titles.py: what the person typed
                        if isinstance(m, dict) and m.get("type") == "user")
    b.records.append({"type": "session", "id": session, "title": title or f"gemini {session}",
                      "created_at": header.get("startTime") if TIME.check(header.get("startTime")) else None,
                      "adapter": "generic", "goal_revision": 1})
    for message, span in messages:
        _message(b, message, span)
    b.keep_original(data)
    return b.records


def _lines(span: Span) -> list[Line]:
    """The message's span, as the one "line" its events came from."""
    return [Line(span.line, span.start, span.end, b"")]


# Message types the CLI writes besides user / gemini: notices, shown as system messages.
NOTICE_TYPES = frozenset({"info", "error", "warning"})

# The fields the converter reads (tolerant.field_problem).
_MESSAGE: dict[str, Any] = {"type": str, "timestamp": TIME_TYPE, "content": (str, list), "toolCalls": list,
                            "thoughts": list}  # content 12345 was read as the text "12345" (newuser-19)
_CALL: dict[str, Any] = {"id": str, "name": str, "timestamp": TIME_TYPE, "status": str}


def _message(b: Builder, m: Any, span: Span) -> None:
    lines = _lines(span)
    if not isinstance(m, dict):
        b.event("other", json.dumps(m, ensure_ascii=False), at=None, trust="system", lines=lines)
        return
    why = first_problem((field_problem(m, _MESSAGE), items_problem(m.get("toolCalls"), _CALL, "toolCalls")))
    if why:
        b.problem("wrong_field_type", f"message at line {span.line}: {why}; it is kept in the original, not read",
                  lines[0])
        return
    kind, at, content = m.get("type"), m.get("timestamp"), text_of(m.get("content"))
    if kind == "user":
        b.event("user_message", content, at=at, trust="user", lines=lines, message_id=m.get("id"))
        return
    if kind != "gemini":
        if kind not in NOTICE_TYPES:
            b.not_understood("message", str(kind), lines[0])
        more = readable(m, skip={"id", "timestamp", "type", "content"})
        b.event("system_message", content + (f"\n{more}" if more else ""), at=at, trust="system", lines=lines,
                subtype=kind, message_id=m.get("id"))
        return
    b.event("assistant_message", content, at=at, trust="model", lines=lines, reasoning_content=_thoughts(m.get("thoughts")),
            model=m.get("model"), message_id=m.get("id"), tokens=m.get("tokens"))
    for call in m.get("toolCalls") or []:
        if not isinstance(call, dict):
            continue
        call_id, name = call.get("id"), call.get("name")
        b.event("tool_call", None, at=call.get("timestamp") or at, trust="model", lines=lines, call_id=call_id,
                tool=name, args=parse_arguments(call.get("args")))
        if call.get("result") is not None:
            status = call.get("status")
            text = _result_text(call["result"])
            shown = call.get("resultDisplay")  # what the CLI showed the person, when it differs from the model's text
            b.tool_result(call_id, text, at=call.get("timestamp") or at, tool=name,
                          lines=lines, status=status, is_error=True if status not in (None, "success") else None,
                          result_display=shown if isinstance(shown, str) and shown.strip() and shown not in text
                          else None)
