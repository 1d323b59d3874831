"""The whole of one raw event, readable: what it links to first, then its text, its thinking,
what a micro-compaction cleared, then the record (opaque blobs abbreviated) and its original line.

A call names its result (and a result its call) with status and size; thinking is text, not a
JSON string under the signature blob; a micro-compaction lists the results it cleared (issue 15,
item 4). Everything from the transcript is shown as plain text (never markup).
"""

from __future__ import annotations

import json
from typing import Any

from textual.content import Content

from inspector.ui.safe import markup, plain
from inspector.domain.short_ids import human_size, short_id
from inspector.services import channels, conversation_window
from inspector.services.timeline import TimelineRow
from inspector.store.connection import Store

TEXT_CHARS = 20_000


def _section(title: str) -> Content:
    return markup("\n[b]$t[/b]", t=title)


def _capped(text: str) -> Content:
    if len(text) <= TEXT_CHARS:
        return plain(text)
    return plain(text[:TEXT_CHARS]) + markup(
        "\n[$warning]… $n more characters (the original line below is read from the kept file)[/]",
        n=f"{len(text) - TEXT_CHARS:,}")


def _record(detail: dict[str, Any]) -> str:
    shown = {k: v for k, v in detail.items() if k not in ("reasoning_content", "content")}
    if isinstance(shown.get("continuation"), list):
        shown["continuation"] = [
            {**item, "data": f"<{len(str(item.get('data', '')))} characters, opaque>"} if "data" in item else item
            for item in shown["continuation"] if isinstance(item, dict)]
    return json.dumps(shown, ensure_ascii=False, indent=2)


async def event_body(store: Store, session: str, row: TimelineRow) -> Content:
    detail = await channels.event_detail(store, session, row.seq)
    if detail is None:
        return Content("not found")
    lines: list[Content] = [markup("[b]#$s[/b] · $k · $at · trust $t", s=str(row.seq), k=row.kind,
                                                at=detail.get("at") or "time unknown", t=detail.get("trust") or "?")]
    if row.call_id:
        lines.append(markup("call id [b]$short[/b]  [dim]$full[/]", short=short_id(row.call_id),
                                         full=row.call_id))
    if row.kind == "tool_call":
        if row.pair_seq is None:
            lines.append(markup("[$error]no result in the log (unresolved call)[/]"))
        else:
            result = await channels.event_detail(store, session, row.pair_seq) or {}
            text = str(result.get("content") or "")
            status = "failed" if result.get("is_error") else "result"
            lines.append(markup("→ $st [b]#$p[/b] · $size", st=status, p=str(row.pair_seq),
                                             size=human_size(len(text.encode("utf-8")))))
    elif row.kind == "tool_result":
        if row.pair_seq is None:
            lines.append(markup("[$error]orphan: its call is not in the log[/]"))
        else:
            lines.append(markup("← call [b]#$p[/b] $tool", p=str(row.pair_seq), tool=row.tool or ""))
    thinking = detail.get("reasoning_content")
    if isinstance(thinking, str) and thinking:
        lines += [_section("THINKING"), _capped(thinking)]
    origin = detail.get("origin") or {}
    if "micro-compaction" in str(detail.get("content") or ""):
        cleared = await conversation_window.cleared_results(store, session, origin)
        lines.append(_section(f"CLEARED {len(cleared)} TOOL RESULT(S)"))
        for c in cleared:
            if c.call_seq is None and c.result_seq is None:
                lines.append(markup("  $id [dim]not in this log (before this file begins)[/]",
                                                 id=short_id(c.call_id)))
            else:
                lines.append(markup("  $id #$c → #$r $tool", id=short_id(c.call_id),
                                                 c=str(c.call_seq or "?"), r=str(c.result_seq or "?"),
                                                 tool=c.tool or ""))
    content = detail.get("content")
    if content:
        lines += [_section("TEXT"), _capped(str(content))]
    lines += [_section("RECORD"), plain(_record(detail))]
    original = await channels.original_text(store, session, origin)
    if original is not None:
        lines += [_section(f"ORIGINAL, line {origin.get('line')} of the imported file, verified"), plain(original)]
    return Content("\n").join(lines)
