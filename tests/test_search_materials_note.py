"""A search says it is incomplete only when a material's text is indexed in part — never for
the original transcript file (its text is the events') nor for a binary material."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store
from inspector.store.schema import MATERIAL_INDEX_CAP
from tests.conftest import session_record, write_sif


def claude_line(n: int, text: str) -> str:
    return json.dumps({"type": "user", "sessionId": "cc-1", "uuid": f"u{n}", "cwd": "/work/x",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": {"role": "user", "content": text}})


async def test_a_searched_transcript_is_complete_though_its_original_file_is_not_indexed(tmp_path: Path) -> None:
    src = tmp_path / "cc-1.jsonl"
    src.write_text("\n".join(claude_line(n, f"fix the export step {n}") for n in range(3)) + "\n", encoding="utf-8")
    db = tmp_path / "s.db"
    await import_file(src, db, actor="t")
    async with await open_store(db) as store:
        originals = await store.db.execute_fetchall(
            "SELECT COUNT(*) FROM materials WHERE media_type = 'application/x-original-transcript'")
        assert originals[0][0] == 1  # the file is kept, and not indexed on purpose
        result = await search(store, "cc-1", "export")
    assert len(result.hits) == 3 and result.complete and not result.note


async def test_a_material_beyond_the_index_cap_makes_the_search_say_so(tmp_path: Path) -> None:
    big = "alpha " * (MATERIAL_INDEX_CAP // 6 + 10)
    src = write_sif(tmp_path / "a.jsonl", [
        session_record("s1"),
        {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "content": "alpha start",
         "at": "2026-03-01T10:00:00Z"},
        {"type": "material", "session": "s1", "id": "res:big", "source_event": 1, "content": big},
    ])
    db = tmp_path / "s.db"
    await import_file(src, db, actor="t")
    async with await open_store(db) as store:
        result = await search(store, "s1", "alpha")
    assert not result.complete and result.note == "1 material is indexed only in its first 4 MiB (res:big)"
