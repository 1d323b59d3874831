"""Inspect AI evaluation logs (``.json``, or ``.eval`` zip archives) to sif/1.

Each sample's ``messages`` is a transcript: one session per sample and epoch. Strings
moved to ``attachment://<md5>`` are put back from the sample's ``attachments``; reasoning
parts keep their signature byte for byte; tool calls pair with tool messages on
``tool_call_id``. The whole log file is kept as each session's original.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from pathlib import PurePath
from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder, parse_arguments
from inspector.domain.formats.messages import load_document, unknown_role
from inspector.domain.formats.tolerant import Loads, field_problem, first_problem, items_problem

FORMAT = "inspect-ai"
ATTACHMENT = "attachment://"


def looks_like(doc: Any) -> bool:
    return isinstance(doc, dict) and "samples" in doc and "eval" in doc and "version" in doc


MAX_UNCOMPRESSED = 1 << 30  # the most an .eval archive may unpack to, in total
MAX_RATIO = 200  # past RATIO_FLOOR, unpacked bytes per archive byte (real logs: about 5)
RATIO_FLOOR = 32 << 20


def _unpack_budget(archive_size: int) -> int:
    return min(MAX_UNCOMPRESSED, max(RATIO_FLOOR, MAX_RATIO * archive_size))


def _read_member(archive: zipfile.ZipFile, name: str, budget: list[int], archive_size: int) -> Any:
    """One member's JSON, counting the bytes actually unpacked (never the sizes the archive claims)."""
    parts: list[bytes] = []
    with archive.open(name) as member:
        while chunk := member.read(1 << 20):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise BadInput(f"the .eval archive unpacks to more than {_unpack_budget(archive_size):,} bytes from "
                               f"{archive_size:,} (a zip bomb?); refused before reading further", code="too_large")
            parts.append(chunk)
    return load_document(b"".join(parts))


def in_number_order(name: str) -> list[Any]:
    """``samples/2_epoch_1.json`` before ``samples/10_epoch_1.json``: sorted as text, a ten-sample
    log listed its sessions "sample 10, sample 1, sample 2, …" (new-user-17)."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _samples(data: bytes, loads: Loads | None = None) -> tuple[list[Any], dict[str, Any]]:
    if data[:4] == b"PK\x03\x04":
        budget = [_unpack_budget(len(data))]
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
            listed = archive.namelist()
            if "header.json" not in listed and not any(n.startswith("samples/") for n in listed):
                raise BadInput(f"a zip archive, not an Inspect AI .eval log (it has no header.json or samples/): "
                               f"unzip it first and import the transcript inside ({', '.join(listed[:3]) or 'empty'}"
                               f"{' …' if len(listed) > 3 else ''})", code="compressed_file")
            names = sorted((n for n in listed if n.startswith("samples/") and n.endswith(".json")), key=in_number_order)
            header = _read_member(archive, "header.json", budget, len(data)) \
                if "header.json" in archive.namelist() else {}
            samples = [_read_member(archive, n, budget, len(data)) for n in names]
        except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, EOFError, OSError, NotImplementedError,
                RuntimeError, ValueError, zlib.error) as exc:
            raise BadInput(f"not a readable Inspect AI .eval archive ({exc})", code="malformed_json") from None
        return samples, header if isinstance(header, dict) else {}
    doc = load_document(data, loads)  # the .json log, one document (an archive's members: the guarded decoder)
    if not isinstance(doc, dict) or not ({"eval", "samples"} & set(doc)):  # a message list or a chat file given
        # `--from inspect-ai`: "is an Inspect AI log with no samples", which it is not
        raise BadInput("not an Inspect AI log: no eval and no samples field (leave out --from and the format is "
                       "detected)", code="unknown_format")
    if not isinstance(doc.get("samples") or [], list):
        raise BadInput("an Inspect AI log must be an object whose samples field is a list", code="wrong_field_type")
    return list(doc.get("samples") or []), doc


_MESSAGE: dict[str, Any] = {"role": str, "tool_call_id": str, "function": str, "content": (str, list),
                            "tool_calls": list}


def _message_problem(m: Any, where: str) -> str | None:
    if not isinstance(m, dict):
        return f"{where} is not an object"
    content = m.get("content")
    return first_problem((field_problem(m, _MESSAGE, where),
                          items_problem(content, {"reasoning": str, "signature": str, "text": str}, f"{where}.content")
                          if isinstance(content, list) else None,
                          items_problem(m.get("tool_calls"), {"id": str, "function": str}, f"{where}.tool_calls",
                                        objects=True)))


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
            thoughts.append(part.get("reasoning") or "")
            if part.get("signature"):
                kind = "redacted_thinking" if part.get("redacted") else "signature"
                continuation.append({"kind": kind, "data": part["signature"]})
        elif isinstance(part.get("text"), str):
            texts.append(part["text"])
        else:
            texts.append(f"[{part.get('type', 'part')}]")
    return "\n".join(texts), "\n".join(thoughts) if thoughts else None, continuation


def convert(data: bytes, file_name: str, loads: Loads | None = None) -> list[dict[str, Any]]:
    samples, header = _samples(data, loads)
    if not samples:
        raise BadInput(f"{file_name} is an Inspect AI log with no samples: there is no transcript in it",
                       code="not_a_transcript")
    stem = PurePath(file_name).name.split(".")[0]
    evaluation = header.get("eval") if isinstance(header, dict) else None
    task = evaluation.get("task", "") if isinstance(evaluation, dict) else ""
    records: list[dict[str, Any]] = []
    for index, sample in enumerate(samples):
        why = (f"samples[{index}] is not an object" if not isinstance(sample, dict) else
               field_problem(sample, {"attachments": dict, "messages": list}, f"samples[{index}]"))
        if why:
            raise BadInput(f"{why}: the sample cannot be read", code="wrong_field_type")
        sid = f"{stem}#{sample.get('id')}.{sample.get('epoch', 1)}"
        b = Builder(sid, FORMAT, file_name)
        # The epoch only when it is past the first: two epochs of a sample had the same title in every list.
        epoch = sample.get("epoch", 1)
        title = f"{task or stem} · sample {sample.get('id')}" + (f" · epoch {epoch}" if epoch not in (1, None) else "")
        b.records.append({"type": "session", "id": sid, "title": title,
                          "adapter": "generic", "goal_revision": 1})
        attachments = sample.get("attachments") or {}
        names: dict[str, str] = {}
        for number, raw in enumerate(sample.get("messages") or []):
            m = _resolve(raw, attachments)
            why = _message_problem(m, f"samples[{index}].messages[{number}]")
            if why:
                b.problem("wrong_field_type", f"{why}; the message is kept in the original, not read", None)
                continue
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
            elif role in ("user", "system"):
                b.event("user_message" if role == "user" else "system_message", text, at=None,
                        trust="user" if role == "user" else "system", lines=[])
            else:  # a role inspect has not: not its system prompt (messages.unknown_role)
                unknown_role(b, role, text, [])
        b.keep_original(data)
        records += b.records
    return records
