"""A deleted number is gone in every way it was written, not only in the target's spelling.

Before: deleting the event that held "138-0013-8000" reported ``done`` while another event
still held it as "13800138000", a tool call's argument as "138-00\u200b13-8000" (a zero-width
space inside) and a summary as "１３８-００１３-８０００" (fullwidth digits) — the same
personal data, found again by anyone reading the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

FORMS = ("13800138000", "138 0013 8000", "138-00\u200b13-8000", "１３８-００１３-８０００", "+86 1380013 8000")


def records() -> list[dict[str, Any]]:
    s = "s1"
    at = "2025-05-01T08:0{}:00Z"
    out: list[dict[str, Any]] = [
        session_record(s, owner="zhou"),
        {"type": "event", "session": s, "seq": 1, "kind": "user_message", "trust": "user",
         "content": "my phone is 138-0013-8000", "at": at.format(0)},
        {"type": "event", "session": s, "seq": 2, "kind": "assistant_message", "trust": "model",
         "content": f"noted {FORMS[0]} and {FORMS[1]}", "at": at.format(1)},
        {"type": "event", "session": s, "seq": 3, "kind": "tool_call", "trust": "model", "call_id": "c1",
         "tool": "sms", "args": {"to": FORMS[2]}, "at": at.format(2)},
        {"type": "event", "session": s, "seq": 4, "kind": "assistant_message", "trust": "model",
         "content": "order 20250501 shipped", "at": at.format(3)},
        {"type": "material", "session": s, "id": "res:card", "source_event": 4, "content": f"card: {FORMS[4]}\n",
         "disclosure_scope": "private", "media_type": "text/plain"},
        {"type": "summary", "session": s, "generation": 1, "text": f"customer phone {FORMS[3]}", "sources": []},
        {"type": "deletion_request", "session": s, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "data subject request"},
    ]
    return out


async def test_a_number_written_another_way_is_a_copy_and_is_removed(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), store, actor="t")
    async with await open_store(store) as opened:
        cov = await deletions.check(opened, "del-1")
        found = {(c.where, c.id) for c in cov.copies}
        assert {("events", "evt:2"), ("events", "evt:3"), ("summaries", "gen:1"), ("materials", "res:card")} <= found
        assert ("events", "evt:4") not in found  # another number is not a copy
        await deletions.delete(opened, "del-1", actor="zhou")
        assert (await verify_store(opened)).ok
    data = store.read_bytes()
    for form in FORMS:
        assert form.encode("utf-8") not in data, form
    assert b"order 20250501 shipped" in data
