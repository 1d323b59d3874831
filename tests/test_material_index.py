"""Materials' search text indexed after the import, up to a watermark of their own (store
format 4, inspector/store/material_index.py): nothing searchable is lost meanwhile, the
catch-up indexes each material once, a deleted one never, and verify tells an index entry
above the watermark from a sound one."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from inspector.domain.canonical import content_hash
from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store import material_index
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from tests.conftest import DROP_CALLS, event_record, session_record, write_sif


def _material(mid: str, text: str) -> dict[str, Any]:
    return {"type": "material", "session": "s1", "id": mid, "source_version": "v1", "disclosure_scope": "task",
            "media_type": "text/plain", "encoding": "utf-8", "content": text,
            "content_hash": content_hash(text.encode("utf-8"))}


RECORDS = [session_record(), event_record(1), _material("m1", "the quokka report " * 5000),
           _material("m2", "nothing here")]


def _indexed(path: Path) -> list[tuple[int, str]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT rowid, substr(text, 1, 18) FROM materials_fts ORDER BY rowid").fetchall()
    finally:
        con.close()


async def test_an_import_leaves_the_text_to_the_catch_up_and_nothing_is_missed_meanwhile(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", RECORDS), store, actor="t")
    assert _indexed(store) == []
    async with await open_store(store, read_only=True) as reading:  # cannot catch up: the text is read instead
        found = await search(reading, "s1", "QUOKKA")
        assert (await verify_store(reading)).ok
    assert [h.ref for h in found.hits] == ["m1"]
    async with await open_store(store) as opened:
        assert await material_index.backlog(opened.db) == 2
        await catch_up(opened)
        assert await material_index.backlog(opened.db) == 0 and await material_index.watermark(opened.db) == 2
        assert await catch_up(opened) == 0 and len(_indexed(store)) == 2  # a second run indexes nothing twice
        found = await search(opened, "s1", "quokka")
        assert [h.ref for h in found.hits] == ["m1"]
        assert (await verify_store(opened)).ok
    assert _indexed(store) == [(1, "the quokka report "), (2, "nothing here")]


async def test_a_material_deleted_before_the_catch_up_is_never_indexed(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    records = [*RECORDS, {"type": "deletion_request", "session": "s1", "id": "d", "targets": ["m1"]}]
    await import_file(write_sif(tmp_path / "a.jsonl", records), store, actor="t")
    async with await open_store(store) as opened:
        await deletions.delete(opened, "d", actor="t")
        await catch_up(opened)
        assert (await verify_store(opened)).ok
        assert [h.ref for h in (await search(opened, "s1", "quokka")).hits] == []
    assert [row[0] for row in _indexed(store)] == [2]


async def test_verify_refuses_an_index_entry_above_the_watermark(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", RECORDS), store, actor="t")
    con = sqlite3.connect(store)
    con.execute("INSERT INTO materials_fts (rowid, text) VALUES (1, 'the quokka report')")  # the catch-up would add it again
    con.commit()
    con.close()
    async with await open_store(store, read_only=True) as reading:
        report = await verify_store(reading)
    assert not report.ok and "materials_fts" in {p["where"] for p in report.problems}


async def test_a_format_3_store_counts_its_materials_as_indexed(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", RECORDS), store, actor="t")
    async with await open_store(store) as opened:
        await catch_up(opened)  # a format 3 store indexed its materials in each import
    con = sqlite3.connect(store)
    con.executescript(DROP_CALLS + "DELETE FROM search_watermark WHERE name = 'materials'; PRAGMA user_version = 3;")
    con.close()
    async with await open_store(store) as opened:
        assert await material_index.watermark(opened.db) == 2 and await material_index.backlog(opened.db) == 0
        assert (await verify_store(opened)).ok
    assert len(_indexed(store)) == 2
