"""Synthetic sif/1 files for the benchmarks (never used by tests)."""

from __future__ import annotations

import json
from pathlib import Path

TEXTS = ["目标：修复订单导出超时。", "Run the export again with batch=500.", "exit 0 · 41s", "P95 仍待测 — measure later"]


def write_events_file(path: Path, events: int, session: str = "s-bench") -> Path:
    """One session with ``events`` events, calls paired with results."""
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n')
        fh.write(json.dumps({"type": "session", "id": session, "title": "bench", "owner": "bench",
                             "created_at": "2025-05-01T00:00:00Z"}) + "\n")
        for seq in range(1, events + 1):
            rec: dict[str, object] = {"type": "event", "session": session, "seq": seq, "at": "2025-05-01T00:00:00Z"}
            if seq % 4 == 1:
                rec.update(kind="tool_call", call_id=f"c{seq}", tool="run", args={"n": seq}, trust="model")
            elif seq % 4 == 2:
                rec.update(kind="tool_result", call_id=f"c{seq - 1}", content=f"result {seq} " + TEXTS[seq % 4],
                           trust="tool")
            else:
                rec.update(kind="user_message" if seq % 4 == 3 else "assistant_message",
                           content=f"{TEXTS[seq % 4]} #{seq}", trust="user")
            fh.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path
