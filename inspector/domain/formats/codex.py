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
from inspector.domain.formats.readable import encrypted_parts, readable
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


LINE_TYPES = frozenset({"session_meta", "turn_context", "response_item", "event_msg", "compacted"})
# event_msg payloads that repeat a response_item's text for the UI (FORMATS.md §6): labels only.
EVENT_MSG_ECHOES = frozenset({"user_message", "agent_message", "agent_reasoning", "agent_reasoning_raw_content",
                              "exec_command_end", "exec_command_output_delta", "patch_apply_end", "mcp_tool_call_end",
                              "web_search_end", "task_complete"})
# Other event_msg payloads codex-rs writes: read as text, not flagged.
EVENT_MSG_KNOWN = frozenset({"token_count", "task_started", "turn_aborted", "context_compacted", "exec_command_begin",
                             "patch_apply_begin", "mcp_tool_call_begin", "web_search_begin", "turn_diff",
                             "plan_update", "error", "stream_error", "background_event", "entered_review_mode",
                             "exited_review_mode", "item_completed", "user_message_edit", "shutdown_complete",
                             "agent_message_delta", "agent_reasoning_delta", "agent_reasoning_section_break",
                             "get_history_entry_response", "list_custom_prompts_response", "session_configured",
                             "exec_approval_request", "apply_patch_approval_request", "view_image_tool_call"})

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
                          trust="system", lines=[line], compacted=True, continuation=encrypted_parts(history))
            b.summary(text or "[replacement history without text]", seq - 1, sources=[f"evt:{seq}"],
                      replaced={"from": 1, "to": seq - 1, "boundary": f"evt:{seq}"},
                      **({} if text else {"unreadable": "the replacement history holds no text"}))
        else:
            label = p.get("type") if kind == "event_msg" else kind
            if kind not in LINE_TYPES:
                b.not_understood("line", str(kind), line)
            elif kind == "event_msg" and label not in EVENT_MSG_ECHOES and label not in EVENT_MSG_KNOWN:
                b.not_understood("event_msg line", f"event_msg/{label}", line)
            # event_msg lines echo what response_item lines hold (kept as labels, not searched twice);
            # the rest (session_meta's instructions, turn settings, kinds added since) keep their text.
            more = "" if kind == "event_msg" and label in EVENT_MSG_ECHOES else readable(p, skip={"type"})
            b.event("other", f"{kind}: {label}" + (f"\n{more}" if more else ""), at=at, trust="system", lines=[line],
                    record_type=kind)
    b.keep_original(data)
    return b.records
