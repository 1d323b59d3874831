"""Codex rollout files (``~/.codex/sessions/…/rollout-*.jsonl``) to sif/1.

Each line is ``{"timestamp", "type", "payload"}``. ``response_item`` payloads are
Responses-API items (what the model saw), paired on ``call_id``; ``compacted`` carries the
``replacement_history`` that replaced the context, shown as a summary generation over every
event before it; ``event_msg`` lines duplicate UI text and are kept as ``other`` events so
nothing is lost, without doubling the conversation; ``session_meta`` may repeat (resumes).
"""

from __future__ import annotations

import json
from typing import Any

from inspector.domain.errors import BadInput
from inspector.domain.formats.builder import Builder, split_lines, text_of

FORMAT = "codex"


def looks_like(first: Any) -> bool:
    return isinstance(first, dict) and set(first) >= {"timestamp", "type", "payload"} and first.get("type") in (
        "session_meta", "turn_context", "response_item", "event_msg", "compacted")


def convert(data: bytes, file_name: str) -> list[dict[str, Any]]:
    rows = []
    for line in split_lines(data):
        if not line.raw.strip():
            continue
        try:
            rec = json.loads(line.raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise BadInput(f"not valid JSON ({exc})", code="malformed_json", line=line.number) from None
        if not isinstance(rec, dict) or not isinstance(rec.get("payload"), dict):
            raise BadInput("expected {timestamp, type, payload} on every line", line=line.number)
        rows.append((line, rec))
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
            item = p.get("type") or "message"
            if item == "message":
                role = p.get("role")
                b.event({"user": "user_message", "assistant": "assistant_message"}.get(role, "system_message"),
                        text_of(p.get("content")), at=at, trust={"user": "user", "assistant": "model"}.get(role, "system"),
                        lines=[line])
            elif item == "reasoning":
                summary = "\n".join(s.get("text", "") for s in p.get("summary") or [] if isinstance(s, dict))
                cont = [{"kind": "encrypted_content", "data": p["encrypted_content"]}] if "encrypted_content" in p else []
                b.event("assistant_message", "", at=at, trust="model", lines=[line], reasoning_content=summary or None,
                        continuation=cont, reasoning_item=True)
            elif item in ("function_call", "custom_tool_call"):
                names[p.get("call_id", "")] = p.get("name", "")
                raw = p.get("arguments", p.get("input"))
                try:
                    args = json.loads(raw) if isinstance(raw, str) else (raw or {})
                except ValueError:
                    args = {"_raw_arguments": raw}
                b.event("tool_call", None, at=at, trust="model", lines=[line], call_id=p.get("call_id"),
                        tool=p.get("name"), args=args if isinstance(args, dict) else {"_value": args})
            elif item in ("function_call_output", "custom_tool_call_output"):
                call = p.get("call_id")
                out = p.get("output")
                b.tool_result(call, out if isinstance(out, str) else text_of(out) or json.dumps(out, ensure_ascii=False),
                              at=at, tool=names.get(call or ""), lines=[line])
            else:
                b.event("other", f"{item} item", at=at, trust="model", lines=[line], item_type=item)
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
