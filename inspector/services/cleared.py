"""The tool results a micro-compaction cleared from the model's context (fresh-eyes F9).

Claude Code's micro-compaction (``system/microcompact_boundary`` with
``microcompactMetadata.compactedToolIds``, FORMATS.md) replaces earlier tool results in the
model's context by a placeholder: the model no longer sees them, though the transcript keeps
them. It was one timeline event ("cleared 42 tool result(s)") and no view said *which*
results the model lost. ``cleared_results`` names each: the micro-compaction event, the call
id, the tool, and the events of the call and of its result (None: not in this log, e.g.
before the file begins). ``check`` and ``drift --json`` list them (``cleared_results``), their
plain output says ``results_cleared``, and the app's Drift tab has a section.

Not a verdict: a result the model no longer sees is missing context, shown as such (DESIGN
rule 6); the summary verdicts are unchanged by it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inspector.domain.errors import InspectorError
from inspector.domain.plurals import counted as _n
from inspector.domain.terminal_safe import inert
from inspector.services.conversation_window import cleared_results as cleared_by
from inspector.store.connection import Store


@dataclass(frozen=True, slots=True)
class ClearedResult:
    at: str  # the micro-compaction event (evt:N)
    call_id: str
    tool: str | None
    call: str | None  # evt:N of the call, None when the log does not hold it
    result: str | None  # evt:N of the result, None when the log does not hold it

    def as_dict(self) -> dict[str, Any]:
        return {"at": self.at, "call_id": self.call_id, "tool": self.tool, "call": self.call, "result": self.result}

    def line(self) -> str:
        if not (self.call or self.result):
            return f"{self.call_id}: not in this log (called before this file begins)"
        return f"{self.call or '?'} → {self.result or '?'} {self.tool or ''}".rstrip() + f" ({self.call_id})"


async def cleared_results(store: Store, session: str) -> list[ClearedResult]:
    """Every result a micro-compaction of the session cleared, in log order."""
    rows = await store.db.execute_fetchall(
        "SELECT seq, extra FROM events WHERE session = ? AND kind IN ('system_message', 'other') "
        "AND extra LIKE '%microcompact_boundary%' ORDER BY seq", (session,))
    out: list[ClearedResult] = []
    for seq, extra_text in rows:
        try:
            extra = json.loads(extra_text) if extra_text else {}
        except ValueError:
            raise InspectorError(f"event {seq} of session {inert(session)} cannot be read: the store is damaged; "
                                 "`inspector verify STORE` says where", code="damaged_store") from None
        if not isinstance(extra, dict) or extra.get("subtype") != "microcompact_boundary":
            continue
        for c in await cleared_by(store, session, extra.get("origin") or {}):
            out.append(ClearedResult(f"evt:{seq}", c.call_id, c.tool, f"evt:{c.call_seq}" if c.call_seq else None,
                                     f"evt:{c.result_seq}" if c.result_seq else None))
    return out


def warnings(session: str, cleared: list[ClearedResult]) -> list[dict[str, Any]]:
    """One ``results_cleared`` warning per micro-compaction (shown, never blocking, no "?")."""
    by_event: dict[str, list[ClearedResult]] = {}
    for c in cleared:
        by_event.setdefault(c.at, []).append(c)
    out = []
    for at, items in by_event.items():
        refs = [c.result or c.call for c in items if c.result or c.call]
        shown = ", ".join(refs[:6]) + (f" and {len(refs) - 6} more" if len(refs) > 6 else "")
        absent = len(items) - len(refs)
        out.append({"code": "results_cleared", "where": "context", "id": session,
                    "message": f"the micro-compaction at {at} cleared {_n(len(items), 'tool result')} from the model's "
                               f"context" + (f": {shown}" if shown else "")
                               + (f"; {absent} not in this log (called before this file begins)" if absent else "")
                               + " (the model no longer saw them; --json: cleared_results)"})
    return out
