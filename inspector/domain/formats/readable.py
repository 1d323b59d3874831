"""The text a person can read in a record or content block the converter has no rule for.

Tools add record types and content blocks release after release (``server_tool_use``,
``document``, ``attachment``, a Codex line type, a Responses item type). A converter that
keeps such a thing only as a label ("worktree-state") keeps its bytes in the original but
hides its text from the timeline and from search: a silent loss. Every converter runs the
unknown through :func:`readable`, which lists its string fields as ``name: value`` lines,
leaving out what is not text for a person — ids, times, enum values, usage counters —
and what is opaque (signatures, encrypted content, base64 media), which the converters
keep byte for byte elsewhere or only in the original.

:func:`block_text` is the readable text of one content block or part of any provider.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Fields whose strings are ids, times, enum values or settings (not text a person reads).
META = frozenset("""
uuid parentUuid logicalParentUuid sessionId timestamp id requestId type role model stop_reason stop_sequence version
gitBranch userType entrypoint slug level subtype media_type mediaType mimeType status call_id tool_use_id tool_call_id
sourceToolAssistantUUID messageId promptId agentId toolUseID parentToolUseID projectHash startTime lastUpdated leafUuid
service_tier format detail page_age operation object created system_fingerprint finish_reason window_id file_id
started_at completed_at created_at isSidechain isMeta cwd
""".split())
# Subtrees of counters and bookkeeping.
META_TREES = frozenset("usage tokens thinkingMetadata compactMetadata microcompactMetadata hookInfos rate_limits".split())
# Opaque continuation data: kept byte for byte by the converters (or in the original), never shown as text.
OPAQUE = frozenset("signature encrypted_content encrypted_index thoughtSignature".split())
_BASE64ISH = re.compile(r"^[A-Za-z0-9+/=_-]{64,}$")
MAX_VALUE_CHARS = 1_000_000  # a single unknown field longer than this is cut here (the original keeps it whole)


def _opaque(key: str, value: str, parent: dict[str, Any]) -> bool:
    if key in OPAQUE or value.startswith("data:"):
        return True
    if key in ("data", "result", "file_data", "image_url") and (
            parent.get("type") in ("redacted_thinking", "base64") or _BASE64ISH.match(value[:200])):
        return True
    return False


def _leaves(value: Any, key: str, parent: dict[str, Any], out: list[str], depth: int) -> None:
    if depth > 60:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if k in META_TREES or (k in META and not isinstance(v, (dict, list))):
                continue
            _leaves(v, k, value, out, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, key, parent, out, depth + 1)
    elif isinstance(value, str):
        if value.strip() and not _opaque(key, value, parent):
            text = value if len(value) <= MAX_VALUE_CHARS else value[:MAX_VALUE_CHARS] + " […cut]"
            out.append(f"{key}: {text}" if key else text)


def readable(value: Any, *, skip: frozenset[str] | set[str] = frozenset()) -> str:
    """The string fields of a record or block as ``name: value`` lines (top-level names in
    ``skip`` left out); empty when it holds no text for a person. Numbers and flags are left
    out: counters and durations are not what a person searches a transcript for, and they
    stay in the event's original line."""
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in skip or k in META_TREES or (k in META and not isinstance(v, (dict, list))):
                continue
            _leaves(v, k, value, out, 1)
    else:
        _leaves(value, "", {}, out, 0)
    return "\n".join(out)


def block_text(block: dict[str, Any]) -> str:
    """Readable text of one content block/part that has no ``text`` or ``content`` of its own."""
    kind = block.get("type")
    if kind in ("image", "input_image", "image_url"):
        url = block.get("image_url")
        url = url.get("url") if isinstance(url, dict) else url
        return f"[image: {url}]" if isinstance(url, str) and url.startswith("http") else "[image]"
    if kind == "document":
        source = block.get("source") if isinstance(block.get("source"), dict) else {}
        head = f"[document: {block.get('title') or source.get('media_type') or 'untitled'}]"
        parts = [head]
        if isinstance(block.get("context"), str):
            parts.append(block["context"])
        if source.get("type") == "text" and isinstance(source.get("data"), str):
            parts.append(source["data"])
        elif source.get("type") == "content":
            from inspector.domain.formats.builder import text_of  # one module imports the other's helper

            parts.append(text_of(source.get("content")))
        elif source.get("type") == "url" and isinstance(source.get("url"), str):
            parts.append(source["url"])
        return "\n".join(p for p in parts if p)
    if kind == "refusal" or (kind is None and isinstance(block.get("refusal"), str)):
        return f"[refusal] {block.get('refusal') or ''}"
    if kind == "input_audio":
        return "[audio]"
    if kind == "file" or kind == "input_file":
        info = block.get("file") if isinstance(block.get("file"), dict) else block
        return f"[file: {info.get('filename') or info.get('file_id') or 'unnamed'}]"
    if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
        return f"[{kind} {block.get('name') or ''}] {json.dumps(block.get('input'), ensure_ascii=False)}"
    text = readable(block)
    return f"[{kind}]\n{text}" if kind and text else (f"[{kind}]" if kind else text)


def encrypted_parts(value: Any) -> list[dict[str, str]]:
    """Continuation items for the opaque strings inside a server tool's result (a web search
    result's ``encrypted_content`` goes back to the provider byte for byte, like a signature)."""
    out: list[dict[str, str]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for k, v in item.items():
                if k in ("encrypted_content", "encrypted_index") and isinstance(v, str):
                    out.append({"kind": "encrypted_content", "data": v})
                elif isinstance(v, (dict, list)):
                    stack.append(v)
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return out
