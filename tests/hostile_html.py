"""A session whose every text field carries live-looking HTML: script, event handlers,
a stylesheet, a remote image and a javascript: link. The report must show all of it
as text, run none of it and fetch nothing."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import event_record, session_record, write_sif

SCRIPT = "<script>window.__pwned = 1; document.title = 'pwned';</script>"
PAYLOADS = [
    SCRIPT,
    '<img src="http://127.0.0.1:9/track.png" onerror="window.__pwned = 2">',
    "<style>body { display: none !important; }</style>",
    '<link rel="stylesheet" href="http://127.0.0.1:9/x.css">',
    "[click me](javascript:window.__pwned=3) ![pixel](http://127.0.0.1:9/pixel.png)",
    '"><svg onload="window.__pwned=4">',
    "invoice_\u202etxt.exe zero\u200bwidth",  # reorders / hides what the reader sees
]
HOSTILE = "\n\n".join(PAYLOADS)
SID = "s-hostile"


def write_hostile_session(path: Path) -> Path:
    at = "2025-05-01T00:00:00Z"
    return write_sif(path, [
        session_record(SID, title=f"title {SCRIPT}"),
        event_record(1, SID, content=f"user says\n\n{HOSTILE}"),
        event_record(2, SID, kind="assistant_message", trust="model", content=f"**bold** answer\n\n{HOSTILE}",
                     reasoning_content=f"thinking about {SCRIPT}"),
        event_record(3, SID, kind="tool_call", trust="model", content=None, call_id="c1", tool="run",
                     args={"cmd": SCRIPT}),
        event_record(4, SID, kind="tool_result", trust="tool", content=f"RESULT-MARKER {HOSTILE}", call_id="c1",
                     tool="run"),
        event_record(5, SID, kind="tool_call", trust="model", content=None, call_id="c2", tool="never_answered",
                     args={}),
        {"type": "state", "session": SID, "key": "constraint.x", "kind": "constraint", "value": f"keep {SCRIPT}",
         "sources": ["evt:1"], "writer": "user", "at": at, "scope": "task", "version": 1, "status": "active"},
        {"type": "summary", "session": SID, "generation": 1, "kind": "recursive", "text": f"summary {HOSTILE}",
         "covers": [1, 4], "base_version": 1, "unresolved": [], "sources": ["evt:1"]},
    ])
