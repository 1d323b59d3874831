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
from inspector.domain.formats.builder import Builder, parse_jsonl, text_of
from inspector.domain.formats.messages import responses_item

FORMAT = "codex"


def looks_like(first: Any) -> bool:
    return isinstance(first, dict) and set(first) >= {"timestamp", "type", "payload"} and first.get("type") in (
        "session_meta", "turn_context", "response_item", "event_msg", "compacted")


def convert(data: bytes, file_name: str) -> list[dict[str, Any]]:
    rows = parse_jsonl(data, what="{timestamp, type, payload}")
    for line, rec in rows:
        if not isinstance(rec.get("payload"), dict):
            raise BadInput("expected {timestamp, type, payload} on every line", line=line.number)
    meta = next((r["payload"] for _, r in rows if r.get("type") == "session_meta"), None)
    if meta is None or not meta.get("id"):
        raise BadInput("no session_meta line with an id: not a Codex rollout", code="unknown_format")
    b = Builder(str(meta["id"]), FORMAT, file_name)
    b.records.append({"type": "session", "id": str(meta["id"]), "title": f"codex {meta.get('cwd') or meta['id']}",
                      "created_at": meta.get("timestamp") or rows[0][1].get("timestamp"), "adapter": "generic",
                      "goal_revision": 1})
    names: dict[str, str] = {}
    for line, rec in rows:
        kind, at, p = rec["type"], rec.get("timestamp"), rec["payload"]
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
