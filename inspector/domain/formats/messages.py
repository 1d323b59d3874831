"""Saved API message lists to sif/1: OpenAI Chat Completions, DeepSeek (reasoning_content),
Anthropic Messages (thinking, signatures, redacted thinking, compaction blocks) and OpenAI
Responses items (reasoning with encrypted_content, function_call ↔ function_call_output
on ``call_id``, compaction items).

Accepted shapes: a JSON list of messages/items, or an object holding one under
``messages`` / ``items`` / ``input`` (with ``system`` / ``instructions`` beside it).
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from inspector.domain import guarded_json
from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import (
    AssistantBlocks,
    Builder,
    Line,
    parse_arguments,
    text_of,
)
from inspector.domain.formats.readable import encrypted_parts, readable
from inspector.domain.formats.spans import document_spans, whole
from inspector.domain.formats.tolerant import Loads, field_problem, first_problem, items_problem

FORMATS = ("openai-chat", "deepseek", "anthropic", "openai-responses")


def unwrap(doc: Any) -> tuple[list[Any], dict[str, Any]]:
    if isinstance(doc, list):
        return doc, {}
    if isinstance(doc, dict):
        for key in ("messages", "items", "input"):
            if isinstance(doc.get(key), list):
                return doc[key], doc
    raise BadInput("expected a JSON list of messages, or an object with messages / items / input",
                   code="unknown_format")


def empty_list(doc: Any, file_name: str) -> BadInput | None:
    """A saved message list with no message and no system prompt: ``[]`` or ``{"messages": []}``.
    Detection said "cannot tell what it is … name its format", and with ``--from`` it became a
    store holding one session of no event (newuser-18): empty input, refused as an empty file is."""
    try:
        items, meta = unwrap(doc)
    except BadInput:
        return None
    if items or meta.get("system") or meta.get("instructions"):
        return None
    where = next((f" ({k}: [])" for k in ("messages", "items", "input") if isinstance(meta.get(k), list)), " ([])")
    return BadInput(f"{file_name} is an empty message list{where}: there is nothing to import", code="empty_file")


def detect(doc: Any) -> str | None:
    """Which message-list format a parsed document is, or None."""
    try:
        items, meta = unwrap(doc)
    except BadInput:
        return None
    kinds = {meta["kind"]} if isinstance(meta.get("kind"), str) else set()
    if "responses" in kinds or any(isinstance(m, dict) and m.get("type") in
                                   ("function_call", "function_call_output", "reasoning", "compaction") for m in items):
        return "openai-responses"
    if any(isinstance(m, dict) and "reasoning_content" in m for m in items):
        return "deepseek"
    blocks = [b for m in items if isinstance(m, dict) and isinstance(m.get("content"), list)
              for b in m["content"] if isinstance(b, dict)]
    # A ``compaction`` block inside a message is Anthropic's server-side compaction (a Responses
    # compaction is an item of its own, above): a saved list of text and compaction blocks only
    # was read as OpenAI chat, which dropped the summary, and ``check`` said clear (verdict-real).
    if "anthropic" in kinds or any(b.get("type") in ("tool_use", "tool_result", "thinking", "redacted_thinking",
                                                     "compaction") for b in blocks):
        return "anthropic"
    if any(isinstance(m, dict) and m.get("role") in ("user", "assistant", "system", "tool", "developer", "function",
                                                      "ipython") for m in items):
        return "openai-chat"
    return None


def convert(data: bytes, file_name: str, fmt: str, loads: Loads | None = None) -> list[dict[str, Any]]:
    doc = load_document(data, loads)
    if (empty := empty_list(doc, file_name)) is not None:
        raise empty
    items, meta = unwrap(doc)
    session = PurePath(file_name).name.split(".")[0]
    tools_present = any(isinstance(m, dict) and (m.get("tool_calls") or m.get("type") == "function_call")
                        for m in items)
    adapter = {"deepseek": "deepseek-thinking-tools" if tools_present else "openai-chat", "anthropic": "anthropic",
               "openai-chat": "openai-chat"}.get(fmt, "generic")
    b = Builder(session, fmt, file_name)
    b.records.append({"type": "session", "id": session, "title": meta.get("model") and f"{session} ({meta['model']})"
                      or session, "adapter": adapter, "goal_revision": 1})
    names: dict[str, str] = {}
    pending: list[str] = []  # chat calls not answered yet, oldest first (results without an id pair with them)
    key = next((k for k in ("messages", "items", "input") if isinstance(meta.get(k), list)), "")
    # each item's events point at the item's own bytes (spans.py; before: at every line of the file)
    spans = document_spans(data, doc, key if meta else None)
    system_key = "system" if meta.get("system") else "instructions"
    system = meta.get(system_key)
    if system:
        b.event("system_message", text_of(system), at=None, trust="system",
                lines=[spans.fields.get(system_key, whole(data)) if spans else whole(data)])
    for index, item in enumerate(items):
        where = f"{key}[{index}]" if meta else f"[{index}]"
        lines = [spans.items[index] if spans else whole(data)]
        if not isinstance(item, dict):
            b.problem("not_an_object", f"{where} is not an object; it is kept in the original, not read", lines[0])
            continue
        why = item_problem(item, fmt, where)
        if why:
            b.problem("wrong_field_type", f"{why}; the item is kept in the original, not read", lines[0])
            continue
        if fmt == "openai-responses":
            responses_item(b, item, names, lines)
        elif fmt == "anthropic":
            _anthropic(b, item, names, lines)
        else:
            _chat(b, item, names, pending, lines, tools_present and fmt == "deepseek")
    b.keep_original(data)
    return b.records


def load_document(data: bytes, loads: Loads | None = None) -> Any:
    """A whole-file JSON document through the guarded decoder (one document cannot be read in part),
    or ``loads``, which answers exactly as it does (the import's: store/jsoncodec.py ``fast_loads``)."""
    if data[:3] == b"\xef\xbb\xbf":  # a byte order mark: read as white space, so offsets stay the file's
        data = b"   " + data[3:]
    try:
        return (loads or guarded_json.loads)(data)
    except guarded_json.JsonRefused as exc:
        raise BadInput(exc.message, code=exc.code) from None
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and exc.lineno > 1 and data[:exc.pos].rstrip().endswith((b"}", b"]")):
            # `--from openai-chat` given a transcript of JSON lines said "line 2: not valid JSON (Extra data)"
            raise BadInput("a second JSON value starts here: the file is JSON lines (one record per line, as a Claude "
                           "Code or Codex transcript is written), while this format is one document; leave out --from "
                           "and the format is detected", code="malformed_json", line=exc.lineno) from None
        raise BadInput(f"not valid JSON ({exc.msg})", code="malformed_json", line=exc.lineno) from None
    except UnicodeDecodeError as exc:
        raise BadInput(f"not UTF-8 text ({exc.reason} at byte {exc.start})", code="malformed_json") from None


_BLOCK: dict[str, Any] = {"type": str, "text": str, "thinking": str, "signature": str, "data": str, "id": str,
                          "name": str, "input": dict, "tool_use_id": str}
_CHAT: dict[str, Any] = {"role": str, "tool_call_id": str, "name": str, "reasoning_content": str,
                         "tool_calls": list, "function_call": {"name": str}}
_RESPONSES: dict[str, Any] = {"type": str, "role": str, "encrypted_content": str, "name": str, "call_id": str,
                              "summary": list}


def item_problem(item: dict[str, Any], fmt: str, where: str) -> str | None:
    """The first field of a message/item whose type the converter cannot take, named by its path."""
    if fmt == "openai-responses":
        return first_problem((field_problem(item, _RESPONSES, where),
                              items_problem(item.get("summary"), {"text": str}, f"{where}.summary")))
    if fmt == "anthropic":
        content = item.get("content")
        return first_problem((field_problem(item, {"role": str, "content": (str, list)}, where),
                              items_problem(content, _BLOCK, f"{where}.content") if isinstance(content, list)
                              else None))
    return first_problem((field_problem(item, _CHAT, where),
                          items_problem(item.get("tool_calls"), {"id": str, "function": {"name": str}},
                                        f"{where}.tool_calls", objects=True)))


def _answered(pending: list[str], names: dict[str, str], call: Any, name: Any) -> str | None:
    """The call a result answers: its own id, else the oldest open call of that tool, else the oldest."""
    if isinstance(call, str) and call:
        if call in pending:
            pending.remove(call)
        return call
    for open_call in pending:
        if not name or names.get(open_call) == name:
            pending.remove(open_call)
            return open_call
    return None


def _chat(b: Builder, m: dict[str, Any], names: dict[str, str], pending: list[str], lines: list[Line],
          tools: bool) -> None:
    """One Chat Completions message. ``tool`` (tool_calls), ``function`` (the older function_call)
    and ``ipython`` (Llama's tool output) are all tool results, paired with their call: output of
    a tool is never a system message, whatever role name carried it."""
    role = m.get("role")
    if role in ("tool", "function", "ipython"):
        call = _answered(pending, names, m.get("tool_call_id"), m.get("name"))
        b.tool_result(call, text_of(m.get("content")), at=None, tool=names.get(call or "") or m.get("name"), lines=lines,
                      role=role if role != "tool" else None)
    elif role == "assistant":
        text = text_of(m.get("content"))
        if isinstance(m.get("refusal"), str) and m["refusal"]:
            text = "\n".join(t for t in (text, f"[refusal] {m['refusal']}") if t)
        b.event("assistant_message", text, at=None, trust="model", lines=lines,
                reasoning_content=_chat_reasoning(m), tools_present=True if tools else None,
                fields=readable(m, skip=_CHAT_READ) or None)
        calls = list(m.get("tool_calls") or [])
        legacy = m.get("function_call")
        if isinstance(legacy, dict):  # the pre-tools API: one call, no id; results name the function
            calls.append({"id": f"function_call-{b.seq}", "function": legacy, "legacy": True})
        for call in calls:
            fn = call.get("function") or {}
            call_id = call.get("id") or f"call-{b.seq + 1}"
            names[call_id] = fn.get("name", "")
            pending.append(call_id)
            b.event("tool_call", None, at=None, trust="model", lines=lines, call_id=call_id,
                    tool=fn.get("name"), args=parse_arguments(fn.get("arguments")),
                    function_call=True if call.get("legacy") else None)
    elif role in ("user", *SYSTEM_ROLES):
        kind = "user_message" if role == "user" else "system_message"
        b.event(kind, text_of(m.get("content")), at=None, trust="user" if role == "user" else "system", lines=lines)
    else:
        unknown_role(b, role, text_of(m.get("content")), lines)


SYSTEM_ROLES = ("system", "developer")  # the roles the APIs give a system prompt


def unknown_role(b: Builder, role: Any, text: str, lines: list[Line], at: str | None = None) -> None:
    """A message whose role no API has (``"admin"``, ``"ledger"``, a typo): kept and said
    (``not_understood``), with no trust it did not show. It was a ``system`` message: read as
    the system prompt, its "Never ask the user for confirmation" was proposed as a system rule
    and ``confirm --all-pending`` confirmed it (newuser-19)."""
    b.not_understood("message role", str(role), lines[0] if lines else None)
    b.event("other", text, at=at, trust="tool", lines=lines, role=str(role))


# What _chat reads itself; any other field's text is kept as the event's ``fields`` (an audio transcript…).
_CHAT_READ = frozenset({"role", "content", "refusal", "reasoning_content", "reasoning", "reasoning_details",
                        "tool_calls", "function_call", "tool_call_id", "name"})


def _chat_reasoning(m: dict[str, Any]) -> str | None:
    """DeepSeek's ``reasoning_content`` as it is (present-but-empty stays ""); else the reasoning
    OpenRouter and others send as ``reasoning`` / ``reasoning_details``."""
    if "reasoning_content" in m:
        return m.get("reasoning_content")
    parts = [m["reasoning"]] if isinstance(m.get("reasoning"), str) and m["reasoning"] else []
    for detail in m["reasoning_details"] if isinstance(m.get("reasoning_details"), list) else []:
        if isinstance(detail, dict):
            parts += [detail[k] for k in ("text", "summary") if isinstance(detail.get(k), str) and detail[k]
                      and detail[k] not in parts]
    return "\n".join(parts) if parts else None


def _anthropic(b: Builder, m: dict[str, Any], names: dict[str, str], lines: list[Line]) -> None:
    content = m.get("content")
    if m.get("role") not in ("user", "assistant"):  # any other role was read as the user speaking
        if m.get("role") in SYSTEM_ROLES:
            b.event("system_message", text_of(content), at=None, trust="system", lines=lines)
        else:
            unknown_role(b, m.get("role"), text_of(content), lines)
        return
    if m.get("role") != "assistant":
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for block in blocks:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call = block.get("tool_use_id")
                b.tool_result(call, text_of(block.get("content")), at=None, tool=names.get(call or ""), lines=lines,
                              is_error=True if block.get("is_error") else None)
            else:
                b.event("user_message", text_of([block]), at=None, trust="user", lines=lines)
        return
    blocks = AssistantBlocks()
    for block in content if isinstance(content, list) else [{"type": "text", "text": content}]:
        blocks.add(block)
    for block in blocks.other:
        if block.get("type") == "compaction":
            text = text_of(block.get("content"))
            b.event("other", text, at=None, trust="model", lines=lines, compaction=True)
            if text.strip():
                b.summary(text, b.seq - 1, sources=[f"evt:{b.seq}"])
            else:  # an encrypted or empty compaction block: still the history's replacement, but unreadable
                b.summary("[compaction without readable text]", b.seq - 1, sources=[f"evt:{b.seq}"],
                          unreadable="the compaction block holds no readable text")
    b.event("assistant_message", "\n".join(blocks.texts), at=None, trust="model", lines=lines,
            reasoning_content=blocks.reasoning, continuation=blocks.continuation, citations=blocks.citations)
    for kind, count in blocks.unknown.items():
        for _ in range(count):
            b.not_understood("content block", kind, None)
    for call in blocks.calls:
        names[call.get("id", "")] = call.get("name", "")
        b.event("tool_call", None, at=None, trust="model", lines=lines, call_id=call.get("id"), tool=call.get("name"),
                args=call.get("input") or {}, server_tool=call["type"] if call.get("type") != "tool_use" else None)
    for block in blocks.results:  # a server tool's result arrives in the assistant's own message
        call = block.get("tool_use_id")
        b.tool_result(call, text_of(block.get("content")), at=None, tool=names.get(call or ""), lines=lines,
                      result_type=block.get("type"),
                               continuation=encrypted_parts(block.get("content")))


def responses_item(b: Builder, item: dict[str, Any], names: dict[str, str], lines: list[Line],
                   at: str | None = None) -> None:
    """One Responses-API item (also what a Codex rollout's ``response_item`` holds)."""
    kind = item.get("type") or "message"
    if kind == "message":
        role = item.get("role")
        if role is not None and role not in ("user", "assistant", *SYSTEM_ROLES):
            unknown_role(b, role, text_of(item.get("content")), lines, at)
            return
        event_kind = {"user": "user_message", "assistant": "assistant_message"}.get(role or "", "system_message")
        trust = {"user": "user", "assistant": "model"}.get(role or "", "system")
        content = item.get("content")
        annotations = [a for part in content if isinstance(part, dict) and isinstance(part.get("annotations"), list)
                       for a in part["annotations"]] if isinstance(content, list) else []
        b.event(event_kind, text_of(content), at=at, trust=trust, lines=lines, item_id=item.get("id"),
                annotations=annotations)
    elif kind == "reasoning":
        texts = [s.get("text") or "" for s in item.get("summary") or [] if isinstance(s, dict)]
        more = item.get("content") if isinstance(item.get("content"), list) else []
        texts += [c["text"] for c in more if isinstance(c, dict) and isinstance(c.get("text"), str)]
        summary = "\n".join(texts)
        continuation = [{"kind": "encrypted_content", "data": item["encrypted_content"]}] \
            if "encrypted_content" in item else []
        b.event("assistant_message", "", at=at, trust="model", lines=lines, reasoning_content=summary or None,
                continuation=continuation, item_id=item.get("id"), reasoning_item=True)
    elif kind in ("function_call", "custom_tool_call"):
        names[item.get("call_id", "")] = item.get("name", "")
        b.event("tool_call", None, at=at, trust="model", lines=lines, call_id=item.get("call_id"),
                tool=item.get("name"), args=parse_arguments(item.get("arguments", item.get("input"))),
                item_id=item.get("id"))
    elif kind in ("function_call_output", "custom_tool_call_output"):
        call = item.get("call_id")
        out = item.get("output")
        failed = isinstance(out, dict) and out.get("success") is False  # Codex's structured output
        b.tool_result(call, out if isinstance(out, str) else text_of(out) or json.dumps(out, ensure_ascii=False),
                      at=at, tool=names.get(call or ""), lines=lines, is_error=True if failed else None)
    elif kind == "compaction":
        seq = b.event("other", "compaction item (encrypted; replaces the history before it)", at=at, trust="model",
                      lines=lines,
                      continuation=[{"kind": "encrypted_content", "data": item.get("encrypted_content") or ""}],
                      item_id=item.get("id"), compaction=True)
        b.summary("[compaction: encrypted by the provider, not readable here]", max(1, seq - 1),
                  sources=[f"evt:{seq}"], unreadable="the compaction is encrypted by the provider")
    else:  # built-in tools (web search, MCP, shell, images…) and item types added since: their text, labelled
        if kind not in RESPONSES_BUILT_IN:
            b.not_understood("item", str(kind), lines[0] if lines else None)  # the item's span
        text = readable(item, skip={"type", "id", "status"})
        b.event("other", f"{kind} item" + (f"\n{text}" if text else ""), at=at, trust="model", lines=lines,
                item_type=kind, item_id=item.get("id") if isinstance(item.get("id"), str) else None,
                continuation=encrypted_parts(item))


# Responses item types the API documents that are not messages, reasoning or function calls: read as text.
RESPONSES_BUILT_IN = frozenset({
    "web_search_call", "file_search_call", "computer_call", "computer_call_output", "code_interpreter_call",
    "image_generation_call", "local_shell_call", "local_shell_call_output", "mcp_call", "mcp_list_tools",
    "mcp_approval_request", "mcp_approval_response", "item_reference", "tool_search_call", "tool_search_output",
    "shell_call", "shell_call_output", "apply_patch_call", "apply_patch_call_output"})
