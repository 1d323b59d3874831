"""An event of a whole-document transcript (a saved message list, a Gemini CLI checkpoint) points at
its own item's bytes, not at every line of the file (inspector/domain/formats/spans.py).

Before, each event's ``origin.lines`` listed every line of the document: a 2 MB pretty-printed
message list of 1,300 messages stored 18 million line numbers (about 100 MB of ``extra``) and took
2 s of CPU, growing with lines × messages; and every event's original showed the file's first 16 KiB.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.formats import messages, spans
from inspector.domain.formats.detect import convert
from inspector.services.importing import import_file
from inspector.store.jsoncodec import fast_loads


def _chat(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        out.append({"role": "user", "content": f"question {i}: ü, [brackets], \"quotes\" and {{braces}}"})
        out.append({"role": "assistant", "content": None,
                    "tool_calls": [{"id": f"c{i}", "type": "function",
                                    "function": {"name": "run", "arguments": json.dumps({"cmd": f"ls {i}"})}}]})
        out.append({"role": "tool", "tool_call_id": f"c{i}", "content": f"file-{i}\n"})
    return out


LAYOUTS = {
    "indent 1, wrapped": lambda items: json.dumps({"kind": "openai-chat", "model": "m", "system": "be brief",
                                                   "messages": items}, indent=1, ensure_ascii=False),
    "json.dumps, a list": lambda items: json.dumps(items),
    "compact, wrapped, BOM": lambda items: "\ufeff" + json.dumps({"messages": items, "model": "m"},
                                                                 separators=(",", ":"), ensure_ascii=False),
    "one line among blanks": lambda items: "\n\n" + json.dumps({"system": "be brief", "messages": items}) + "\n\n",
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_event_points_at_its_own_item(layout: str) -> None:
    items = _chat(40)
    data = LAYOUTS[layout](items).encode("utf-8")
    records = convert(data, "chat.conversation.json", "openai-chat", fast_loads)
    spans: list[tuple[int, int]] = []
    for event in (r for r in records if r["type"] == "event"):
        origin = event["origin"]
        assert "lines" not in origin, origin  # one span, not a list of every line of the file
        start, end = origin["bytes"]
        assert origin["line"] == data[:start].count(b"\n") + 1  # the line of its first byte
        if not spans or spans[-1] != (start, end):  # a call's events share its message's span
            spans.append((start, end))
    system = ["be brief"] if "system" in data.decode("utf-8-sig") else []
    assert [json.loads(data[start:end]) for start, end in spans] == system + items


def test_a_checkpoint_points_each_turn_at_its_own_bytes() -> None:
    turns = [{"role": "user", "parts": [{"text": f"step {i}"}]} if i % 2 == 0 else
             {"role": "model", "parts": [{"text": f"done {i}"}]} for i in range(30)]
    data = json.dumps(turns, indent=2).encode()
    records = convert(data, "checkpoint-x.json", "gemini", fast_loads)
    events = [r for r in records if r["type"] == "event"]
    assert [json.loads(data[slice(*e["origin"]["bytes"])]) for e in events] == turns
    assert all("lines" not in e["origin"] for e in events)


def test_a_long_message_list_stores_what_its_messages_hold(tmp_path: Path) -> None:
    """Its events' extra grows with the messages, not with lines × messages."""
    src = tmp_path / "chat.conversation.json"
    src.write_text(json.dumps({"messages": _chat(400)}, indent=1), encoding="utf-8")
    asyncio.run(import_file(src, tmp_path / "s.db", actor="t"))
    with closing(sqlite3.connect(tmp_path / "s.db")) as con:
        count, extra = con.execute("SELECT COUNT(*), SUM(LENGTH(extra)) FROM events").fetchone()
    assert count == 1600 and extra < 400 * count, (count, extra)


def test_a_walk_that_disagrees_points_every_event_at_the_whole_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the walk not find what the decoded document holds, every event points at the whole file
    as one span (never a list of its lines)."""
    data = json.dumps({"messages": _chat(3)}, indent=1).encode()
    assert spans.document_spans(data, {"messages": _chat(2)}, "messages") is None  # one item short: not trusted
    monkeypatch.setattr(messages, "document_spans", lambda *args: None)
    events = [r for r in convert(data, "c.conversation.json", "openai-chat", fast_loads) if r["type"] == "event"]
    assert events and all(e["origin"]["bytes"] == [0, len(data)] and "lines" not in e["origin"] for e in events)
