"""Gemini CLI checkpoints (``/chat save TAG`` → ``~/.gemini/tmp/<hash>/checkpoint-TAG.json``) to sif/1.

A checkpoint is not the chat file (gemini.py): it is the model's history as the Gemini API
takes it, a JSON list of ``Content`` objects — ``{"role": "user" | "model", "parts": [...]}``
where a part is ``{"text"}`` (``"thought": true`` marks reasoning), ``{"functionCall": {id?,
name, args}}``, ``{"functionResponse": {id?, name, response}}``, ``{"inlineData"}``,
``{"executableCode"}``, ``{"codeExecutionResult"}`` or a kind added since. Read as a saved
message list would be (it has no times or ids of its own): user text → ``user_message``,
model text → ``assistant_message`` with thought parts as ``reasoning_content`` and
``thoughtSignature`` as a continuation item, calls paired with responses on ``id`` when
given, else on the oldest open call of the same name. Before this reader a checkpoint was
taken for an OpenAI chat list, whose ``content`` it lacks: every word of it was dropped.
"""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

from inspector.domain.formats.builder import Builder, parse_arguments
from inspector.domain.formats.readable import readable
from inspector.domain.formats.spans import document_spans, whole

FORMAT = "gemini"
_SET_UP = "This is the Gemini CLI. We are setting up the context for our chat."
_PART_KINDS = ("text", "functionCall", "functionResponse", "inlineData", "fileData", "executableCode",
               "codeExecutionResult")


def looks_like(doc: Any) -> bool:
    """A non-empty list of Content objects: every item has a role of user/model and a list of parts."""
    return isinstance(doc, list) and bool(doc) and all(
        isinstance(c, dict) and c.get("role") in ("user", "model") and isinstance(c.get("parts"), list) for c in doc)


def convert(doc: list[Any], data: bytes, file_name: str) -> list[dict[str, Any]]:
    stem = PurePath(file_name).name.split(".")[0]
    b = Builder(stem, FORMAT, file_name)
    # The title is the checkpoint's name: its first user turn is the CLI's own set-up text, not the person's.
    b.records.append({"type": "session", "id": stem, "title": f"gemini checkpoint {stem}", "adapter": "generic",
                      "goal_revision": 1})
    spans = document_spans(data, doc, None)  # each turn's events point at its own bytes (spans.py)
    pending: list[tuple[str, str]] = []  # (call id, tool name) not answered yet
    for index, content in enumerate(doc):
        _content(b, content, [spans.items[index] if spans else whole(data)], pending)
    b.keep_original(data)
    return b.records


def _content(b: Builder, content: dict[str, Any], lines: list[Any], pending: list[tuple[str, str]]) -> None:
    texts: list[str] = []
    thoughts: list[str] = []
    calls: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for part in content["parts"]:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            (thoughts if part.get("thought") else texts).append(part["text"])
        elif isinstance(part.get("functionCall"), dict):
            calls.append(part["functionCall"])
        elif isinstance(part.get("functionResponse"), dict):
            results.append(part["functionResponse"])
        elif isinstance(part.get("inlineData"), dict):
            texts.append(f"[{part['inlineData'].get('mimeType') or 'inline data'}]")
        elif isinstance(part.get("executableCode"), dict):
            code = part["executableCode"]
            texts.append(f"[code {code.get('language') or ''}]\n{code.get('code') or ''}")
        elif isinstance(part.get("codeExecutionResult"), dict):
            res = part["codeExecutionResult"]
            texts.append(f"[code result {res.get('outcome') or ''}]\n{res.get('output') or ''}")
        else:
            kind = next(iter(part), "empty")
            if kind not in _PART_KINDS:
                b.not_understood("part", kind, None)
            texts.append(readable(part))
    signature = content.get("thoughtSignature") or next(
        (p.get("thoughtSignature") for p in content["parts"] if isinstance(p, dict) and p.get("thoughtSignature")), None)
    if content.get("role") == "user":
        if texts and texts[0].startswith(_SET_UP):  # the CLI's environment context, not the person's words
            b.event("system_message", "\n".join(texts), at=None, trust="system", lines=lines)
        elif texts:
            b.event("user_message", "\n".join(texts), at=None, trust="user", lines=lines)
    elif texts or thoughts or not calls:
        b.event("assistant_message", "\n".join(texts), at=None, trust="model", lines=lines,
                reasoning_content="\n".join(thoughts) if thoughts else None,
                continuation=[{"kind": "signature", "data": signature}] if isinstance(signature, str) else [])
    for call in calls:
        call_id = call.get("id") if isinstance(call.get("id"), str) else f"call-{b.seq + 1}"
        pending.append((call_id, str(call.get("name") or "")))
        b.event("tool_call", None, at=None, trust="model", lines=lines, call_id=call_id, tool=call.get("name"),
                args=parse_arguments(call.get("args")))
    for res in results:
        call_id = res.get("id") if isinstance(res.get("id"), str) else None
        match = next((p for p in pending if p[0] == call_id), None) or next(
            (p for p in pending if call_id is None and p[1] == res.get("name")), None)
        if match:
            pending.remove(match)
            call_id = match[0]
        response = res.get("response")
        text = response.get("output") if isinstance(response, dict) and isinstance(response.get("output"), str) else (
            response.get("error") if isinstance(response, dict) and isinstance(response.get("error"), str)
            else json.dumps(response, ensure_ascii=False))
        failed = isinstance(response, dict) and "error" in response and "output" not in response
        b.tool_result(call_id, text, at=None, tool=res.get("name"), lines=lines, is_error=True if failed else None)
