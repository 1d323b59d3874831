"""A deletion that rewrites the session's title leaves no copy in PostgreSQL's table files
(hostile review six).

A title holding a value of the targets (or made from a target's text) is rewritten, not
deleted: ``UPDATE sessions``. On PostgreSQL the old row version stays in the table's pages as
a dead tuple, and the deletion's rewrite (``VACUUM FULL``, store/pg/maintenance.py) listed
every table a deletion removes rows from but not ``sessions``: after `delete` and a
checkpoint the old title, secret and all, was still in the sessions table's file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

SECRET = "zqx.title.mail@example.org"


@pytest.fixture
def pg_store_url(pg_databases) -> str:  # type: ignore[no-untyped-def]
    return pg_databases.create("hostile_six_title")


def _records() -> list[dict[str, object]]:
    s = "s1"
    return [
        session_record(s, owner="zhou", title=f"mail {SECRET} today"),
        {"type": "event", "session": s, "seq": 1, "kind": "user_message", "trust": "user",
         "content": f"mail {SECRET} today", "at": "2025-05-01T08:00:00Z"},
        {"type": "event", "session": s, "seq": 2, "kind": "assistant_message", "trust": "model",
         "content": "ok", "at": "2025-05-01T08:01:00Z"},
        {"type": "deletion_request", "session": s, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "asked"},
    ]


async def test_a_rewritten_title_leaves_no_dead_row_in_the_table_files(tmp_path: Path, pg_store_url: str) -> None:
    import asyncpg

    await import_file(write_sif(tmp_path / "a.jsonl", _records()), pg_store_url, actor="t")
    async with await open_store(pg_store_url) as opened:
        result = await deletions.delete(opened, "del-1", actor="zhou")
        assert not result.refusals
        assert any(c.where == "sessions" for c in result.coverage.copies)
        assert (await verify_store(opened)).ok
    conn = await asyncpg.connect(pg_store_url)
    try:
        assert SECRET not in (await conn.fetchval("SELECT title FROM sessions WHERE id = 's1'"))
        await conn.execute("CHECKPOINT")
        data_dir = Path(await conn.fetchval("SHOW data_directory"))
        files = [data_dir / row[0] for row in await conn.fetch(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace "
            "AND c.relkind IN ('r', 'i', 't') AND pg_relation_filepath(c.oid) IS NOT NULL")]
    finally:
        await conn.close()
    holding = [str(p) for p in files if p.exists() and SECRET.encode() in p.read_bytes()]
    assert holding == []
