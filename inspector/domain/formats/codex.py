"""Codex rollout files (``~/.codex/sessions/…/rollout-*.jsonl``) to sif/1.

Each line is ``{"timestamp", "type", "payload"}``. ``response_item`` payloads are
Responses-API items (what the model saw), paired on ``call_id``; ``compacted`` carries the
``replacement_history`` that replaced the context, shown as a summary generation over every
event before it; ``event_msg`` lines duplicate UI text and are kept as ``other`` events so
nothing is lost, without doubling the conversation; ``session_meta`` may repeat (resumes).
"""

from __future__ import annotations

from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder, text_of
from inspector.domain.formats.messages import responses_item
from inspector.domain.formats.titles import content_text, first_title
from inspector.domain.formats.tolerant import (
    TIME_TYPE,
    LineProblem,
    Loads,
    Row,
    field_problem,
    first_problem,
    items_problem,
    read_jsonl,
)
from inspector.domain.sif_schema import TIME

TIME_CHECK = TIME.check

FORMAT = "codex"


def looks_like(first: Any) -> bool:
    return isinstance(first, dict) and set(first) >= {"timestamp", "type", "payload"} and first.get("type") in (
        "session_meta", "turn_context", "response_item", "event_msg", "compacted")


# The fields the converter reads (tolerant.field_problem); payloads of response_item are Responses items.
_LINE: dict[str, Any] = {"timestamp": TIME_TYPE, "type": str, "payload": dict}
_ITEM: dict[str, Any] = {"type": str, "role": str, "encrypted_content": str, "name": str, "call_id": str,
                         "message": str, "replacement_history": list, "summary": list}


def _problem(rec: dict[str, Any]) -> str | None:
    if not isinstance(rec.get("payload"), dict):
        return "field payload is missing or not an object"
    p = rec["payload"]
    return first_problem((field_problem(rec, _LINE), field_problem(p, _ITEM, "payload"),
                          items_problem(p.get("summary"), {"text": str}, "payload.summary")))


def convert(data: bytes, file_name: str, loads: Loads | None = None) -> list[dict[str, Any]]:
    entries: list[Row | LineProblem] = []
    for item in (read_jsonl(data) if loads is None else read_jsonl(data, loads)):
        why = None if isinstance(item, LineProblem) else _problem(item[1])
        if why and not isinstance(item, LineProblem):
            item = LineProblem(item[0], "wrong_field_type", f"line {item[0].number}: {why}; the record is kept in "
                               "the original, not read")
        entries.append(item)
    rows = [e for e in entries if not isinstance(e, LineProblem)]
    meta = next((r["payload"] for _, r in rows if r.get("type") == "session_meta"), None)
    if meta is None or not meta.get("id"):
        raise BadInput("no readable session_meta line with an id: not a Codex rollout", code="unknown_format")
    b = Builder(str(meta["id"]), FORMAT, file_name)
    created = meta.get("timestamp") if TIME_CHECK(meta.get("timestamp")) else rows[0][1].get("timestamp")
    # What the person typed first (titles.py skips the environment context and AGENTS.md), else the folder.
    title = first_title(content_text(r["payload"].get("content")) for _, r in rows
                        if r.get("type") == "response_item" and r["payload"].get("type") == "message"
                        and r["payload"].get("role") == "user")
    b.records.append({"type": "session", "id": str(meta["id"]),
                      "title": title or f"codex {meta.get('cwd') or meta['id']}",
                      "created_at": created, "adapter": "generic", "goal_revision": 1})
    names: dict[str, str] = {}
    for entry in entries:
        if isinstance(entry, LineProblem):
            b.problem(entry.code, entry.message, entry.line)
            continue
        line, rec = entry
        kind, at, p = rec.get("type"), rec.get("timestamp"), rec["payload"]
        if kind == "response_item":
            responses_item(b, p, names, [line], at)
        elif kind == "compacted":
            history = p.get("replacement_history") or []
            text = p.get("message") or "\n".join(text_of(i.get("content")) for i in history if isinstance(i, dict))
            seq = b.event("other", f"context compacted: {len(history)} item(s) replace the history", at=at,
                          trust="system", lines=[line], compacted=True)
            b.summary(text or "[replacement history without text]", seq - 1, sources=[f"evt:{seq}"],
                      replaced={"from": 1, "to": seq - 1, "boundary": f"evt:{seq}"})
        else:
            label = p.get("type") if kind == "event_msg" else kind
            b.event("other", f"{kind}: {label}", at=at, trust="system", lines=[line], record_type=kind)
    b.keep_original(data)
    return b.records
