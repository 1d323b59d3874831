"""Deletion covers every copy, found by value: nothing of the secret stays on disk, in the WAL,
in the search index or in an export, even with SQLite's secure_delete off by default and
while the app has the store open."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from inspector.services import deletions, exporting
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.sessions import session_ledger
from inspector.services.verifying import verify_store
from inspector.store import connection
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

SECRET = "138-0013-8000"
FRAGMENTS = (SECRET, "0013-8000", "138-0013")
REASON = "asked by the customer on the phone"


def records() -> list[dict[str, Any]]:
    s = "s1"
    return [
        session_record(s, owner="zhou"),
        {"type": "event", "session": s, "seq": 1, "kind": "user_message", "trust": "user",
         "content": f"my phone is {SECRET}", "at": "2025-05-01T08:00:00Z"},
        {"type": "event", "session": s, "seq": 2, "kind": "tool_call", "trust": "model", "call_id": "c1",
         "tool": "crm", "args": {"phone": SECRET}, "at": "2025-05-01T08:01:00Z"},
        {"type": "event", "session": s, "seq": 3, "kind": "tool_result", "trust": "tool", "call_id": "c1",
         "tool": "crm", "content": f"found record for {SECRET}", "at": "2025-05-01T08:02:00Z"},
        {"type": "event", "session": s, "seq": 4, "kind": "assistant_message", "trust": "model", "content": "ok",
         "reasoning_content": f"the number {SECRET} is hers", "at": "2025-05-01T08:03:00Z"},
        {"type": "event", "session": s, "seq": 5, "kind": "user_message", "trust": "user",
         "content": "please write the follow-up mail", "at": "2025-05-01T08:04:00Z"},
        {"type": "material", "session": s, "id": "res:card", "source_event": 3, "content": f"card: {SECRET}\n",
         "disclosure_scope": "private", "media_type": "text/plain"},
        {"type": "stub", "session": s, "id": "stub-card", "material": "res:card", "read_slice": [0, 8],
         "outline": f"contact card ({SECRET})"},
        {"type": "state", "session": s, "key": "goal.main", "kind": "goal", "value": "write the follow-up mail",
         "writer": "user", "sources": ["evt:1"], "version": 1},
        {"type": "state", "session": s, "key": "progress.phone", "kind": "progress", "value": SECRET,
         "writer": "user", "sources": ["evt:1"], "version": 1, "status": "superseded"},
        {"type": "state", "session": s, "key": "progress.phone", "kind": "progress",
         "value": f"call {SECRET} after 9", "writer": "user", "sources": ["evt:1"], "version": 2},
        {"type": "action", "session": s, "id": "a1", "intent": f"sms {SECRET}", "status": "succeeded"},
        {"type": "summary", "session": s, "generation": 1, "text": f"customer phone {SECRET}", "sources": []},
        {"type": "summary", "session": s, "generation": 2, "text": "mail drafted", "sources": ["evt:5"]},
        {"type": "candidate", "session": s, "id": "cand-1", "base_version": 1, "goal_revision": 1,
         "exact_fields": {"goal.main": "write the follow-up mail"}, "open_actions": [], "unknowns": [],
         "summary": f"phone {SECRET}", "sources": []},
        {"type": "ledger", "session": s, "kind": "harness.note", "actor": "harness", "at": "2025-05-01T08:05:00Z",
         "payload": {"note": f"texted {SECRET}", "turn": 4}},
        {"type": "deletion_request", "session": s, "id": "del-1", "targets": ["evt:1"], "requested_by": "user",
         "reason": f"{REASON}: remove {SECRET}", "reason_code": "data_subject_request"},
    ]


@pytest.fixture
def secure_delete_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection starts with secure_delete=0 (upstream SQLite's default) before the store
    configures it, so the test does not depend on how this SQLite was built."""
    real = aiosqlite.connect

    class Connect:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.inner = real(*args, **kwargs)

        def __await__(self):  # type: ignore[no-untyped-def]
            db = yield from self.inner.__await__()
            yield from db.execute("PRAGMA secure_delete = 0").__await__()
            return db

    monkeypatch.setattr(connection.aiosqlite, "connect", Connect)


def on_disk(store: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in store.parent.glob(store.name + "*")}


def assert_gone(blobs: dict[str, bytes]) -> None:
    for name, data in blobs.items():
        for fragment in (*FRAGMENTS, REASON):
            assert fragment.encode() not in data, f"{fragment!r} is still in {name}"


def fts_terms(store: Path, table: str) -> set[str]:
    db = sqlite3.connect(store)
    try:
        db.execute(f"CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, {table}, row)")
        return {row[0] for row in db.execute("SELECT term FROM temp.v")}
    finally:
        db.close()


def trigrams(texts: list[str]) -> set[str]:
    return {t[i:i + 3].lower() for t in texts for i in range(len(t) - 2)}


def short_grams(texts: list[str]) -> set[str]:
    return {g for t in texts for g in [*t, *(t[i:i + 2] for i in range(len(t) - 1))] if not g.isspace()} - {
        g for t in texts for g in (t[i:i + 2] for i in range(len(t) - 1)) if any(c.isspace() for c in g)}


def index_blocks(store: Path, table: str) -> bytes:
    db = sqlite3.connect(store)
    try:
        return b"".join(bytes(row[0]) for row in db.execute(f"SELECT block FROM {table}_data"))
    finally:
        db.close()


async def test_every_copy_is_removed_and_nothing_stays_on_disk(tmp_path: Path, secure_delete_off: None) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), store, actor="t")
    async with await open_store(store) as opened:
        assert (await opened.db.execute_fetchall("PRAGMA secure_delete"))[0][0] == 1
        cov = await deletions.check(opened, "del-1")
        found = {(c.where, c.id) for c in cov.copies}
        assert found >= {("events", "evt:1"), ("events", "evt:2"), ("events", "evt:3"), ("events", "evt:4"),
                         ("materials", "res:card"), ("stubs", "stub-card"), ("state", "progress.phone@v1"),
                         ("state", "progress.phone@v2"), ("actions", "a1"), ("summaries", "gen:1"),
                         ("candidates", "cand-1"), ("deletion_requests", "del-1")}
        assert ("events", "evt:5") not in found and ("summaries", "gen:2") not in found
        assert any("goal.main" in w for w in cov.warnings)  # its only evidence, evt:1, goes
        result = await deletions.delete(opened, "del-1", actor="zhou")
        assert not result.refusals and result.wal_truncated
        assert (await search(opened, "s1", SECRET)).hits == [] and (await search(opened, "s1", "0013")).hits == []
        assert (await verify_store(opened)).ok
        entry = (await session_ledger(opened, "s1"))[-1]
        text = json.dumps(entry, ensure_ascii=False)
        assert entry["kind"] == "deletion" and entry["payload"]["reason_code"] == "data_subject_request"
        assert entry["payload"]["reason_digest"].startswith("hmac-sha256:")
        assert not any(f in text for f in (*FRAGMENTS, REASON, "customer"))
        await exporting.export_sif(opened, tmp_path / "out.jsonl")
        tomb = await opened.db.execute_fetchall("SELECT content_hash, chunk_hashes FROM materials WHERE id = 'res:card'")
        assert tomb[0][0].startswith("hmac-sha256:") and bytes(tomb[0][1]) == b""  # no brute-forceable sha256
    assert_gone({**on_disk(store), "export": (tmp_path / "out.jsonl").read_bytes()})
    remaining = ["please write the follow-up mail", "ok"]
    assert fts_terms(store, "events_fts") <= trigrams(remaining)
    leftovers = trigrams([SECRET]) - trigrams(remaining)  # fragments only the secret had
    assert not [t for t in leftovers if t.encode() in index_blocks(store, "events_fts")]
    assert fts_terms(store, "materials_fts") == set()
    # The short-query index keeps only the grams of what remains (its tokens fold case).
    assert fts_terms(store, "events_grams") <= {g.lower() for g in short_grams(remaining)}
    assert "-0" in short_grams([SECRET]) and "-0" not in fts_terms(store, "events_grams")
    # the crm call's input (its phone argument) left the call-input indexes with the call
    assert fts_terms(store, "calls_fts") == set() and fts_terms(store, "calls_grams") == set()


async def test_the_timeline_shows_a_deleted_placeholder(tmp_path: Path) -> None:
    from inspector.services import timeline

    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), store, actor="t")
    async with await open_store(store) as opened:
        await deletions.delete(opened, "del-1", actor="zhou")
        rows = [r for r in await timeline.page(opened, "s1", None) if r.source == "event"]
    assert [(r.seq, "deleted" in r.marks) for r in rows] == [(1, True), (2, True), (3, True), (4, True), (5, False)]
    assert all(SECRET not in r.text for r in rows)


async def test_nothing_stays_while_the_app_has_the_store_open(tmp_path: Path, secure_delete_off: None,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.ui.app import InspectorApp
    from tests.test_app import settle

    monkeypatch.setenv("INSPECTOR_REVIEWER", "zhou")
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), store, actor="t")
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        async with await open_store(store) as other:  # another process's connection, as the CLI's would be
            result = await deletions.delete(other, "del-1", actor="lin")  # another reviewer: named in the notice
        assert result.wal_truncated
        assert_gone(on_disk(store))
        await app.screen.check_for_changes().wait()  # what the app's poll does: it notices the change
        await settle(app, pilot)  # and reloads
        assert any("reloaded" in str(n.message) for n in app._notifications), \
            [str(n.message) for n in app._notifications]
        assert_gone(on_disk(store))


async def test_an_imported_ledger_payload_keeps_no_raw_content(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), store, actor="t")
    async with await open_store(store) as opened:
        entry = next(e for e in await session_ledger(opened, "s1") if e["kind"] == "harness.note")
        assert entry["payload"]["turn"] == 4 and entry["payload"]["note"].startswith("hmac-sha256:")
        await exporting.export_sif(opened, tmp_path / "out.jsonl")
    again = tmp_path / "again.db"
    await import_file(tmp_path / "out.jsonl", store, actor="t")  # re-importing the export adds nothing
    async with await open_store(store) as opened:
        assert sum(1 for e in await session_ledger(opened, "s1") if e["kind"] == "harness.note") == 1
    assert not again.exists()


async def test_a_deleted_result_still_answered_its_call(tmp_path: Path) -> None:
    from inspector.services import timeline
    from inspector.services.checking import check_store

    recs = [
        session_record("s1", owner="zhou"),
        {"type": "event", "session": "s1", "seq": 1, "kind": "tool_call", "trust": "model", "call_id": "c1",
         "tool": "crm", "args": {"name": "Wang"}},
        {"type": "event", "session": "s1", "seq": 2, "kind": "tool_result", "trust": "tool", "call_id": "c1",
         "tool": "crm", "content": f"phone {SECRET}"},
        {"type": "deletion_request", "session": "s1", "id": "d", "targets": ["evt:2"]},
    ]
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", recs), store, actor="t")
    async with await open_store(store) as opened:
        await deletions.delete(opened, "d", actor="zhou")
        [result] = await check_store(opened)
        rows = await timeline.page(opened, "s1", None)
    assert result.protocol == []  # neither an unresolved call nor an orphan: the session stays at a boundary
    call = next(r for r in rows if r.seq == 1 and r.source == "event")
    assert call.pair_seq == 2 and "unresolved" not in call.marks


@pytest.fixture
def pg_store_url(pg_databases) -> str:  # type: ignore[no-untyped-def]
    return pg_databases.create("deletion_files")


async def test_nothing_stays_in_the_postgresql_table_files(tmp_path: Path, pg_store_url: str) -> None:
    """On PostgreSQL a deleted row's bytes stay in its table's pages until they are reused
    (plain VACUUM only marks the space free); the deletion rewrites the tables it touched,
    so after a checkpoint no table or index file of the store holds the deleted text."""
    import asyncpg

    url = pg_store_url
    await import_file(write_sif(tmp_path / "a.jsonl", records()), url, actor="t")
    async with await open_store(url) as opened:
        result = await deletions.delete(opened, "del-1", actor="zhou")
        assert not result.refusals
        assert (await verify_store(opened)).ok
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CHECKPOINT")
        data_dir = Path(await conn.fetchval("SHOW data_directory"))
        files = [data_dir / row[0] for row in await conn.fetch(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace "
            "AND c.relkind IN ('r', 'i', 't') AND pg_relation_filepath(c.oid) IS NOT NULL")]
        toast = [data_dir / row[0] for row in await conn.fetch(
            "SELECT pg_relation_filepath(c.reltoastrelid) FROM pg_class c WHERE c.relnamespace = "
            "current_schema()::regnamespace AND c.reltoastrelid <> 0")]
    finally:
        await conn.close()
    blobs = {str(p): p.read_bytes() for p in files + toast if p.exists()}
    assert blobs
    assert_gone(blobs)


async def test_a_snapshot_open_elsewhere_keeps_the_rows_and_the_deletion_says_so(
        tmp_path: Path, pg_store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reviewer's transaction still reading the session makes PostgreSQL keep the deleted rows
    through the rewrite: the deletion is committed but must not claim the bytes are gone; once
    that transaction ends, the next rewrite removes them."""
    import asyncpg

    from inspector.store.pg import maintenance

    monkeypatch.setattr(maintenance, "RECLAIM_TRIES", 2)
    monkeypatch.setattr(maintenance, "RECLAIM_WAIT_S", 0.01)
    monkeypatch.setattr(maintenance, "RECLAIM_LOCK_TIMEOUT_MS", 200)  # the reader holds the table: no rewrite
    await import_file(write_sif(tmp_path / "a.jsonl", records()), pg_store_url, actor="t")
    reader = await asyncpg.connect(pg_store_url)
    try:
        reading = reader.transaction(isolation="repeatable_read")
        await reading.start()
        assert await reader.fetchval("SELECT count(*) FROM events")  # its snapshot sees the rows
        async with await open_store(pg_store_url) as opened:
            result = await deletions.delete(opened, "del-1", actor="zhou")
            assert not result.refusals and result.as_dict()["wal_truncated"] is False
        await reading.rollback()
    finally:
        await reader.close()
    async with await open_store(pg_store_url) as opened:
        assert (await verify_store(opened)).ok
        assert await connection.checkpoint(opened)  # nobody needs them now: rewritten without them
