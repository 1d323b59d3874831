"""Inspect AI evaluation logs (``.json``, or ``.eval`` zip archives) to sif/1.

Each sample's ``messages`` is a transcript: one session per sample and epoch. Strings
moved to ``attachment://<md5>`` are put back from the sample's ``attachments``; reasoning
parts keep their signature byte for byte; tool calls pair with tool messages on
``tool_call_id``. The whole log file is kept as each session's original.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import PurePath
from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder, parse_arguments

FORMAT = "inspect-ai"
ATTACHMENT = "attachment://"


def looks_like(doc: Any) -> bool:
    return isinstance(doc, dict) and "samples" in doc and "eval" in doc and "version" in doc


def _samples(data: bytes) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    if data[:4] == b"PK\x03\x04":
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            names = sorted(n for n in archive.namelist() if n.startswith("samples/") and n.endswith(".json"))
            samples = [json.loads(archive.read(n)) for n in names]
            header = json.loads(archive.read("header.json")) if "header.json" in archive.namelist() else {}
        except (zipfile.BadZipFile, KeyError, ValueError) as exc:
            raise BadInput(f"not a readable Inspect AI .eval archive ({exc})", code="malformed_json") from None
        return samples, header
    try:
        doc = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadInput(f"not valid JSON ({exc})", code="malformed_json") from None
    return list(doc.get("samples") or []), doc


def _resolve(value: Any, attachments: dict[str, str]) -> Any:
    if isinstance(value, str) and value.startswith(ATTACHMENT):
        return attachments.get(value[len(ATTACHMENT):], value)
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def _parts(content: Any) -> tuple[str, str | None, list[dict[str, str]]]:
    """Text, reasoning and continuation items of a message's content."""
    if isinstance(content, str):
        return content, None, []
    texts, thoughts, continuation = [], [], []
    for part in content or []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "reasoning":
            thoughts.append(part.get("reasoning", ""))
            if part.get("signature"):
                kind = "redacted_thinking" if part.get("redacted") else "signature"
                continuation.append({"kind": kind, "data": part["signature"]})
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
        else:
            texts.append(f"[{part.get('type', 'part')}]")
    return "\n".join(texts), "\n".join(thoughts) if thoughts else None, continuation


def convert(data: bytes, file_name: str) -> list[dict[str, Any]]:
    samples, header = _samples(data)
    if not samples:
        raise BadInput(f"{file_name} is an Inspect AI log with no samples: there is no transcript in it",
                       code="not_a_transcript")
    stem = PurePath(file_name).name.split(".")[0]
    task = (header.get("eval") or {}).get("task", "") if isinstance(header, dict) else ""
    records: list[dict[str, Any]] = []
    for sample in samples:
        sid = f"{stem}#{sample.get('id')}.{sample.get('epoch', 1)}"
        b = Builder(sid, FORMAT, file_name)
        b.records.append({"type": "session", "id": sid, "title": f"{task or stem} · sample {sample.get('id')}",
                          "adapter": "generic", "goal_revision": 1})
        attachments = sample.get("attachments") or {}
        names: dict[str, str] = {}
        for raw in sample.get("messages") or []:
            m = _resolve(raw, attachments)
            text, reasoning, continuation = _parts(m.get("content"))
            role = m.get("role")
            if role == "tool":
                call = m.get("tool_call_id")
                b.tool_result(call, text, at=None, tool=m.get("function") or names.get(call or ""), lines=[],
                              error=m.get("error"))
            elif role == "assistant":
                b.event("assistant_message", text, at=None, trust="model", lines=[], reasoning_content=reasoning,
                        continuation=continuation, model=m.get("model"))
                for call in m.get("tool_calls") or []:
                    names[call.get("id", "")] = call.get("function", "")
                    b.event("tool_call", None, at=None, trust="model", lines=[], call_id=call.get("id"),
                            tool=call.get("function"), args=parse_arguments(call.get("arguments")))
            else:
                b.event("user_message" if role == "user" else "system_message", text, at=None,
                        trust="user" if role == "user" else "system", lines=[])
        b.keep_original(data)
        records += b.records
    return records
