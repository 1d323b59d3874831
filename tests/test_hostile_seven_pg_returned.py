"""A value a carried-out deletion removed, imported again into a PostgreSQL store, is named
(hostile review seven; tests/test_hostile_seven_returned.py on SQLite)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

PHONE = "13912345678"
AT = "2025-05-01T08:00:00Z"


@pytest.fixture
def pg_store_url(pg_databases) -> str:  # type: ignore[no-untyped-def]
    return pg_databases.create("hostile_seven_returned")


def _event(seq: int, content: str) -> dict[str, object]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": "user_message", "trust": "user", "content": content,
            "at": AT}


async def test_a_later_copy_is_named_on_postgresql(tmp_path: Path, pg_store_url: str) -> None:
    await import_file(write_sif(tmp_path / "a.jsonl", [
        session_record("s1", owner="zhou"), _event(1, f"call {PHONE}"), _event(2, "ok"),
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "asked"}]), pg_store_url, actor="t")
    async with await open_store(pg_store_url) as opened:
        assert not (await deletions.delete(opened, "del-1", actor="zhou")).refusals
    report = await import_file(write_sif(tmp_path / "b.jsonl", [_event(3, f"again {PHONE}")]), pg_store_url, actor="t")
    assert [(p.code, p.seq) for p in report.problems] == [("deleted_value_returned", 3)]
    async with await open_store(pg_store_url) as opened:
        listing = await deletions.check(opened, "del-1")
        assert any("evt:3" in w and "later copies" in w for w in listing.warnings), listing.warnings
        assert (await verify_store(opened)).ok


async def test_a_deletion_refuses_while_a_trigger_copies_events_on_postgresql(tmp_path: Path,
                                                                            pg_store_url: str) -> None:
    """SQLite's case is tests/test_hostile_seven_schema.py: before, `delete` said done and the copy stayed."""
    import asyncpg

    await import_file(write_sif(tmp_path / "a.jsonl", [session_record("s0", owner="zhou"), {**_event(1, "hello"), "session": "s0"}]),
                      pg_store_url, actor="t")
    conn = await asyncpg.connect(pg_store_url)
    try:
        await conn.execute("CREATE TABLE shadow (c text); CREATE FUNCTION copy_it() RETURNS trigger LANGUAGE plpgsql "
                           "AS $$BEGIN INSERT INTO shadow VALUES (NEW.content); RETURN NEW; END$$; CREATE TRIGGER "
                           "keep_copy AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION copy_it()")
    finally:
        await conn.close()
    await import_file(write_sif(tmp_path / "b.jsonl", [
        session_record("s1", owner="zhou"), _event(1, f"call {PHONE}"),
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": "asked"}]), pg_store_url, actor="t")
    async with await open_store(pg_store_url) as opened:
        result = await deletions.delete(opened, "del-1", actor="zhou")
        assert [r.code for r in result.refusals] == ["schema_changed"], result.refusals
        assert "trigger keep_copy" in result.refusals[0].message
        assert any("trigger keep_copy" in w for w in (await deletions.check(opened, "del-1")).warnings)
