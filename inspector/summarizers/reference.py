"""The two reference summarizers: keep everything, or keep only the last K characters.

``keep-all`` writes the previous summary followed by every new event on its own line,
labelled with its seq and kind (``[evt:7 · user_message]``), so each line cites its
source. Tool output and model output are untrusted (DESIGN: an instruction found there
is a candidate, never a rule): every sentence of theirs is labelled ``untrusted`` on its
own line, so a rule quoted from a tool result reads as *reported*, not as an
instruction the summary gives (drift's ``untrusted_in_summary`` honours that label).

``naive-truncate`` renders the same text and keeps only its last K characters — the
sliding window of seed 002 that forgets the one constraint stated at the start.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

DEFAULT_CHARS = 500
# Where a sentence ends (the same cut the verdict rules use): 。！？, ". " and line breaks.
_SENTENCE_END = re.compile(r"[。！？!?]+|\.(?=\s|$)|\n+")
_TRUSTED = frozenset({"user", "reviewer", "system"})


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        piece = text[start:m.end()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def untrusted(event: dict[str, Any]) -> bool:
    return (event.get("kind") in ("tool_result", "assistant_message")
            or event.get("trust") not in _TRUSTED)


def render_event(event: dict[str, Any]) -> list[str]:
    """One event as lines of summary text, each carrying ``evt:N`` and the event kind."""
    seq, kind = event.get("seq"), event.get("kind") or "event"
    tool = f" {event['tool']}" if event.get("tool") else ""
    call = f" · call {event['call_id']}" if event.get("call_id") else ""
    if kind == "tool_call":
        args = json.dumps(event.get("args") or {}, ensure_ascii=False, sort_keys=True)
        return [f"[evt:{seq} · tool_call{tool}{call}] args {args}"]
    content = event.get("content") or ""
    if not untrusted(event):
        return [f"[evt:{seq} · {kind}] {content}".rstrip()]
    label = f"[evt:{seq} · {kind}{tool} · untrusted]"
    return [f"{label} {s}" for s in _sentences(content)] or [f"{label} (empty)"]


def keep_all(request: dict[str, Any]) -> str:
    lines = [request["previous_summary"]] if request.get("previous_summary") else []
    for event in request.get("events") or []:
        lines += render_event(event)
    return "\n".join(lines)


def naive_truncate(request: dict[str, Any], chars: int = DEFAULT_CHARS) -> str:
    return keep_all(request)[-chars:] if chars > 0 else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m inspector.summarizers",
                                     description="Reference summarizers for `inspector regress`: "
                                                 "a request as JSON on stdin, the summary on stdout.")
    parser.add_argument("name", choices=("keep-all", "naive-truncate"))
    parser.add_argument("--chars", type=int, default=DEFAULT_CHARS,
                        help=f"naive-truncate: characters kept from the end (default {DEFAULT_CHARS})")
    args = parser.parse_args(argv)
    try:
        request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        if not isinstance(request, dict) or not isinstance(request.get("events", []), list):
            raise ValueError("expected an object with an \"events\" list")
    except ValueError as exc:
        print(f"error: the request on stdin is not a regress request: {exc}", file=sys.stderr)
        return 3
    text = keep_all(request) if args.name == "keep-all" else naive_truncate(request, args.chars)
    sys.stdout.buffer.write(text.encode("utf-8"))
    return 0
