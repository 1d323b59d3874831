"""What one raw event links to, said before its record (the event dialog's lead):

a call names its result (and a result its call) with status and size; thinking is text, not a
JSON string under the signature blob; a micro-compaction lists the results it cleared (issue 15,
item 4). Plain text: the dialog shows it sanitised, never as markup.
"""

from __future__ import annotations

from typing import Any

from inspector.domain.short_ids import human_size, short_id
from inspector.services import channels, conversation_window
from inspector.services.timeline import TimelineRow
from inspector.store.connection import Store

THINKING_CHARS = 20_000


async def event_lead(store: Store, session: str, row: TimelineRow, record: dict[str, Any]) -> str:
    lines: list[str] = []
    if row.call_id:
        lines.append(f"call id {short_id(row.call_id)}  ({row.call_id})")
    if row.kind == "tool_call":
        if row.pair_seq is None:
            lines.append("no result in the log (unresolved call)")
        else:
            result = await channels.event_detail(store, session, row.pair_seq) or {}
            size = len(str(result.get("content") or "").encode("utf-8"))
            lines.append(f"→ {'failed' if result.get('is_error') else 'result'} #{row.pair_seq} · {human_size(size)}")
    elif row.kind == "tool_result":
        lines.append("orphan: its call is not in the log" if row.pair_seq is None
                     else f"← call #{row.pair_seq} {row.tool or ''}".rstrip())
    thinking = record.get("reasoning_content")
    if isinstance(thinking, str) and thinking:
        cut = len(thinking) > THINKING_CHARS
        lines += ["", "THINKING", thinking[:THINKING_CHARS] + (f"\n… {len(thinking) - THINKING_CHARS:,} more "
                                                                "characters" if cut else "")]
    if "micro-compaction" in str(record.get("content") or ""):
        cleared = await conversation_window.cleared_results(store, session, record.get("origin") or {})
        lines += ["", f"CLEARED {len(cleared)} TOOL RESULT(S)"]
        for c in cleared:
            if c.call_seq is None and c.result_seq is None:
                lines.append(f"  {short_id(c.call_id)} not in this log (before this file begins)")
            else:
                lines.append(f"  {short_id(c.call_id)} #{c.call_seq or '?'} → #{c.result_seq or '?'} {c.tool or ''}")
    return "\n".join(lines) + ("\n\n" if lines else "")
