"""A Timeline row of a huge event reads the head of its text, not the whole of it (session 16).

Each page of the Timeline read every event's whole text and stripped it and replaced its line breaks
to show 160 characters: a pasted 30 MB log was read, copied and scanned for each page drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import timeline
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from tests.conftest import write_sif


def _event(seq: int, content: str) -> dict[str, object]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": "user_message", "trust": "user",
            "content": content, "at": f"2025-05-01T08:00:0{seq}Z"}


async def test_a_row_reads_a_bounded_head_of_a_huge_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    huge = "  first line of the paste\n" + "2026-01-06 INFO status=500\n" * 20_000
    records = [{"type": "session", "id": "s1", "title": "t", "created_at": "2025-05-01T08:00:00Z"},
               _event(1, huge), _event(2, "a\0b" + "x" * 10_000), _event(3, "short")]
    await import_file(write_sif(tmp_path / "a.jsonl", records), tmp_path / "s.db", actor="t")
    seen: list[int] = []
    real = timeline._one_line
    monkeypatch.setattr(timeline, "_one_line", lambda text: seen.append(len(text or "")) or real(text))
    async with await open_store(tmp_path / "s.db") as store:
        rows = [r for r in await timeline.page(store, "s1", None) if r.source == "event"]
    assert [r.text for r in rows] == [real(huge), real("a\0b" + "x" * 10_000), "short"]
    assert seen[0] == timeline.PREVIEW_CHARS  # the huge text's head only
    assert seen[1] == 10_003  # a NUL before the bound: read whole, as before
