"""Materials written a batch at a time (issue 18): the same rows, chunks and search text as
one at a time, and a repeat inside the batch still skipped when identical and refused, by
line, when it differs."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.canonical import content_hash
from inspector.domain.errors import BadInput
from inspector.services.importing import import_file
from inspector.services.record_writer import RecordWriter
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif


def _material(mid: str, text: str, **more: Any) -> dict[str, Any]:
    return {"type": "material", "session": "s1", "id": mid, "source_version": "v1", "disclosure_scope": "task",
            "media_type": "text/plain", "encoding": "utf-8", "content": text,
            "content_hash": content_hash(text.encode("utf-8")), **more}


RECORDS = [session_record(), event_record(1),
           _material("m1", "first material " * 9000), _material("m2", "zweites Material ü " * 100),
           _material("m3", "")]


def _stored(path: Path) -> list[Any]:
    con = sqlite3.connect(path)
    try:
        return [con.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()  # noqa: S608 - fixed names
                for t in ("materials", "material_chunks")] + [
            con.execute("SELECT rowid, text FROM materials_fts ORDER BY rowid").fetchall()]
    finally:
        con.close()


async def test_a_batch_stores_what_one_at_a_time_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = write_sif(tmp_path / "m.jsonl", RECORDS)
    batched = await import_file(src, tmp_path / "batch.db", actor="t")

    async def one_at_a_time(self: RecordWriter, fresh: list[Any]) -> bool:
        return False

    monkeypatch.setattr(RecordWriter, "_materials_at_once", one_at_a_time)
    single = await import_file(src, tmp_path / "single.db", actor="t")
    assert batched.added == single.added and batched.added["material"] == 3
    for path in (tmp_path / "batch.db", tmp_path / "single.db"):  # their search text: after the import (format 4)
        async with await open_store(path) as opened:
            await catch_up(opened)
    rows = _stored(tmp_path / "batch.db")
    assert rows == _stored(tmp_path / "single.db") and len(rows[1]) == 4 and len(rows[2]) == 2  # m1 in 3 chunks, m2 in 1; m3 empty


async def test_a_repeat_in_the_batch_is_skipped_or_refused_by_line(tmp_path: Path) -> None:
    same = write_sif(tmp_path / "same.jsonl", [*RECORDS, RECORDS[3]])
    report = await import_file(same, tmp_path / "a.db", actor="t")
    assert report.added["material"] == 3 and report.skipped["material"] == 1
    assert len(_stored(tmp_path / "a.db")[0]) == 3
    differing = write_sif(tmp_path / "diff.jsonl", [*RECORDS, _material("m2", "changed")])
    with pytest.raises(BadInput) as err:
        await import_file(differing, tmp_path / "b.db", actor="t")
    assert err.value.code == "conflicting_record" and err.value.line == 7
    assert not (tmp_path / "b.db").exists()
