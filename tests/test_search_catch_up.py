"""The search indexes are built after an import, not in it: a search right after an import still
finds everything, indexed or not the results are the same, deleted text never reaches an index,
an interrupted catch-up resumes, two at once index each event once, older stores migrate.
Both backends (the ``backend`` fixture)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.cli.search_command import IndexingNote
from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.sessions import list_sessions
from inspector.services.verifying import verify_store
from inspector.store import search_index
from inspector.store.catch_up import catch_up, pending
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.schema import FORMAT_VERSION
from tests.conftest import DROP_CALLS, session_record, write_sif

QUERIES = ("订单", "导出超时", "天气", "orders", "migration", "error", "rate limit", "the", "a", "的", "OK", "50",
           "res:", "。", "ab")


def event(seq: int, content: str, session: str = "s1") -> dict[str, Any]:
    return {"type": "event", "session": session, "seq": seq, "kind": "user_message", "trust": "user",
            "content": content, "at": "2025-05-01T08:00:00Z"}


def hits(result: Any) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(h.ref, h.occurrences, h.offsets) for h in result.hits]


async def answers(store: Any, sessions: list[str]) -> dict[tuple[str, str], Any]:
    out = {}
    for session in sessions:
        for query in QUERIES:
            result = await search(store, session, query, limit=20)
            out[session, query] = (hits(result), result.more, result.complete)
    return out


async def events_indexed(store: Any) -> list[int]:
    """Event ids in the index, one entry per indexed row (a duplicate shows twice)."""
    if getattr(store, "dialect", "sqlite") == "postgresql":
        rows = await store.db.execute_fetchall("SELECT event_id FROM events_search ORDER BY event_id")
        return [int(r[0]) for r in rows]
    # Every test event here says "line …": the gram "l" finds each indexed one.
    rows = await store.db.execute_fetchall("SELECT rowid FROM events_grams WHERE events_grams MATCH '\"l\"'")
    return sorted(int(r[0]) for r in rows)


def doc_counts(path: Path) -> tuple[int, int]:
    """How many index rows hold "lin" (trigram index) and "l" (gram index): a row indexed
    twice counts twice."""
    con = sqlite3.connect(path)
    try:
        con.execute("CREATE VIRTUAL TABLE temp.tri USING fts5vocab(main, events_fts, row)")
        con.execute("CREATE VIRTUAL TABLE temp.gram USING fts5vocab(main, events_grams, row)")
        (tri,) = con.execute("SELECT doc FROM temp.tri WHERE term = 'lin'").fetchone()
        (gram,) = con.execute("SELECT doc FROM temp.gram WHERE term = 'l'").fetchone()
        return int(tri), int(gram)
    finally:
        con.close()


def many(n: int, session: str = "s1") -> list[dict[str, Any]]:
    return [session_record(session), *(event(i, f"line {i} 订单导出 ok") for i in range(1, n + 1))]


async def test_a_search_right_after_an_import_finds_events_not_yet_indexed(tmp_path: Path,
                                                                          backend_empty_store: Path | str) -> None:
    store = backend_empty_store
    await import_file(write_sif(tmp_path / "a.jsonl", many(300)), store, actor="t")
    async with await open_store(store) as opened:
        assert await pending(opened) == 300  # the import wrote rows only
        assert await search_index.watermark(opened.db) == 0
    # A store that cannot be written is not caught up: its search checks the events themselves.
    async with await open_store(store, read_only=True) as reading:
        unindexed = await search(reading, "s1", "line 300")
        short = await search(reading, "s1", "订", limit=1000)
        assert await pending(reading) == 300
    assert hits(unindexed) == [("evt:300", 1, (0,))]
    assert len(short.hits) == 300 and not short.more
    async with await open_store(store) as opened:
        found = await search(opened, "s1", "line 300")
        assert await pending(opened) == 0  # the search indexed them first
        top = (await opened.db.execute_fetchall("SELECT MAX(event_id) FROM events"))[0][0]
        assert await search_index.watermark(opened.db) == top
        assert await events_indexed(opened) == sorted(
            int(r[0]) for r in await opened.db.execute_fetchall("SELECT event_id FROM events"))
        assert (await verify_store(opened)).ok
    assert hits(found) == hits(unindexed)


async def unindex_all(store: Any) -> None:
    """Empty the event indexes (the call-input index too) and put the watermark back to 0: the store as an import leaves it."""
    async with await open_store(store) as opened, opened.transaction() as db:
        if is_url(store):
            await db.execute("DELETE FROM events_search")
            await db.execute("DELETE FROM calls_search")
            await db.execute("DELETE FROM reasoning_search")
        else:
            await db.execute("DELETE FROM calls_fts")
            await db.execute("INSERT INTO calls_grams (calls_grams) VALUES ('delete-all')")
            await db.execute("DELETE FROM reasoning_fts")
            await db.execute("INSERT INTO reasoning_grams (reasoning_grams) VALUES ('delete-all')")
            await db.execute("INSERT INTO events_fts (events_fts) VALUES ('delete-all')")
            await db.execute("INSERT INTO events_grams (events_grams) VALUES ('delete-all')")
        await db.execute("UPDATE search_watermark SET indexed_through = 0")


async def test_results_are_the_same_indexed_or_not_on_the_sample_sessions(backend_sample_store: Path | str) -> None:
    store = backend_sample_store
    await unindex_all(store)
    async with await open_store(store, read_only=True) as reading:  # nothing indexed: every event checked
        sessions = [s.id for s in await list_sessions(reading)]
        assert await pending(reading) > 0
        unindexed = await answers(reading, sessions)
    async with await open_store(store) as opened:
        assert await catch_up(opened, chunk=7) > 0  # many small chunks
        indexed = await answers(opened, sessions)
    assert unindexed == indexed
    assert sum(1 for found, _more, _complete in indexed.values() if found) >= 20
    assert indexed[sessions[0], "订单"][0] and indexed[sessions[0], "a"][0]


@pytest.mark.parametrize("indexed_first", [False, True])
async def test_deleted_text_ends_up_in_no_index(tmp_path: Path, backend_empty_store: Path | str,
                                               indexed_first: bool) -> None:
    from tests.test_deletion_copies import SECRET, assert_gone, records

    store = backend_empty_store
    # the secret event is the session's last as well, so its id is the store's highest
    recs = [*records(), event(6, f"again {SECRET}"),
            {"type": "deletion_request", "session": "s1", "id": "del-2", "targets": ["evt:6"]}]
    await import_file(write_sif(tmp_path / "a.jsonl", recs), store, actor="t")
    async with await open_store(store) as opened:
        if indexed_first:
            await catch_up(opened)
        for request in ("del-1", "del-2"):
            assert not (await deletions.delete(opened, request, actor="zhou")).refusals
        assert await catch_up(opened) == (0 if indexed_first else 1)  # evt:5, the one left
        assert (await search(opened, "s1", SECRET)).hits == [] and (await search(opened, "s1", "0013")).hits == []
        assert [h.ref for h in (await search(opened, "s1", "follow-up")).hits] == ["evt:5"]
        assert (await verify_store(opened)).ok
        top = (await opened.db.execute_fetchall("SELECT MAX(event_id) FROM events"))[0][0]
        assert await search_index.watermark(opened.db) == top  # never above the highest event left
    # An event added now may get a deleted event's id back (SQLite): it is indexed all the same.
    await import_file(write_sif(tmp_path / "b.jsonl", [session_record("s1", owner="zhou"),
                                                       event(7, "a new line after the deletion")]), store, actor="t")
    async with await open_store(store) as opened:
        assert [h.ref for h in (await search(opened, "s1", "new line")).hits] == ["evt:7"]
    if is_url(store):
        assert_gone(await _pg_files(str(store)))
    else:
        _check_sqlite_indexes(Path(store), ["please write the follow-up mail", "a new line after the deletion"])
        assert_gone({p.name: p.read_bytes() for p in Path(store).parent.glob(Path(store).name + "*")})


def _check_sqlite_indexes(path: Path, remaining: list[str]) -> None:
    from tests.test_deletion_copies import SECRET, fts_terms, short_grams, trigrams

    con = sqlite3.connect(path)
    try:
        con.execute("INSERT INTO events_fts (events_fts) VALUES ('integrity-check')")
    finally:
        con.close()
    assert fts_terms(path, "events_fts") <= trigrams(remaining)
    assert fts_terms(path, "events_grams") <= {g.lower() for g in short_grams(remaining)}
    assert "-0" in short_grams([SECRET]) and "-0" not in fts_terms(path, "events_grams")


async def _pg_files(url: str) -> dict[str, bytes]:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("VACUUM (FULL) events_search")  # new rows since the deletion's own rewrite
        await conn.execute("CHECKPOINT")
        data_dir = Path(await conn.fetchval("SHOW data_directory"))
        paths = [data_dir / r[0] for r in await conn.fetch(
            "SELECT pg_relation_filepath(c.oid) FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace "
            "AND c.relkind IN ('r', 'i', 't') AND pg_relation_filepath(c.oid) IS NOT NULL")]
    finally:
        await conn.close()
    return {str(p): p.read_bytes() for p in paths if p.exists()}


async def test_an_interrupted_catch_up_resumes_where_it_stopped(tmp_path: Path, backend_empty_store: Path | str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    store = backend_empty_store
    await import_file(write_sif(tmp_path / "a.jsonl", many(500)), store, actor="t")
    real = search_index.index_next
    calls = 0

    async def failing(db: Any, size: int) -> tuple[int, int]:
        nonlocal calls
        calls += 1
        if calls == 3:
            await real(db, size)  # wrote its rows, then fails before the commit
            raise RuntimeError("killed mid-way")
        return await real(db, size)

    async with await open_store(store) as opened:
        monkeypatch.setattr(search_index, "index_next", failing)
        with pytest.raises(RuntimeError):
            await catch_up(opened, chunk=100)
        monkeypatch.setattr(search_index, "index_next", real)
        first = (await opened.db.execute_fetchall("SELECT MIN(event_id) FROM events"))[0][0]
        assert await search_index.watermark(opened.db) == first + 199  # two chunks committed, the third rolled back
        assert await pending(opened) == 300
        assert await catch_up(opened, chunk=100) == 300
        assert await events_indexed(opened) == list(range(first, first + 500))
        if not is_url(store):
            assert doc_counts(Path(store)) == (500, 500)
        assert len((await search(opened, "s1", "订单导出", limit=1000)).hits) == 500


async def test_two_catch_ups_at_once_index_each_event_once(tmp_path: Path, backend_empty_store: Path | str) -> None:
    store = backend_empty_store
    await import_file(write_sif(tmp_path / "a.jsonl", many(600)), store, actor="t")
    async with await open_store(store) as one, await open_store(store) as two:  # two writers, as two processes
        done = await asyncio.gather(catch_up(one, chunk=40), catch_up(two, chunk=40))
        assert sum(done) == 600
        ids = await events_indexed(one)
    assert len(ids) == len(set(ids)) == 600
    if not is_url(store):
        assert doc_counts(Path(store)) == (600, 600)


async def test_a_format_2_store_migrates_and_counts_as_indexed(tmp_path: Path, backend_empty_store: Path | str) -> None:
    store = backend_empty_store
    await import_file(write_sif(tmp_path / "a.jsonl", many(50)), store, actor="t")
    async with await open_store(store) as opened:
        await catch_up(opened)  # a format 2 store was indexed by its imports
        head = (await verify_store(opened)).head
    if is_url(store):
        await _pg_back_to_format_2(str(store))
    else:
        con = sqlite3.connect(store)
        con.executescript(DROP_CALLS + "DROP TABLE search_watermark; PRAGMA user_version = 2;")
        con.close()
    async with await open_store(store) as opened:
        assert await pending(opened) == 0
        report = await verify_store(opened)
        found = await search(opened, "s1", "line 50 ")
        version = (await opened.db.execute_fetchall(
            "SELECT version FROM store_format" if is_url(store) else "PRAGMA user_version"))[0][0]
        if is_url(store):  # the index moved to events_search, the foreign key events -> sessions went
            assert len(await events_indexed(opened)) == 50
            assert (await opened.db.execute_fetchall(
                "SELECT count(*) FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'f'"))[0][0] == 0
            assert (await opened.db.execute_fetchall("SELECT to_regclass('events_text') IS NULL"))[0][0]
    assert version == FORMAT_VERSION and report.ok and report.head == head
    assert [h.ref for h in found.hits] == ["evt:50"]


async def _pg_back_to_format_2(url: str) -> None:
    """The PostgreSQL store as format 2 built it: the trigram index on events, the foreign key."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "DROP TABLE reasoning_search; DROP TABLE calls_search; DROP TABLE events_search; DROP TABLE search_watermark; "
            "CREATE INDEX events_text ON events USING gin (lower(content) gin_trgm_ops); "
            "ALTER TABLE events ADD FOREIGN KEY (session) REFERENCES sessions(id) DEFERRABLE; "
            "UPDATE store_format SET version = 2")
    finally:
        await conn.close()
    conn = await asyncpg.connect(url)
    try:
        # what the migration leaves: no foreign key events -> sessions, no trigram index on events
        assert await conn.fetchval("SELECT count(*) FROM pg_constraint WHERE conrelid = 'events'::regclass "
                                   "AND contype = 'f'") == 1
    finally:
        await conn.close()


def test_the_cli_says_it_is_indexing_on_stderr_and_keeps_json_as_it_was(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", many(3000)), store, actor="t"))
    monkeypatch.setattr(IndexingNote, "QUIET_FOR", 0.0)
    monkeypatch.setattr("inspector.store.catch_up.FIRST_CHUNK", 500)
    out = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "line 2999", "--json"])
    assert out.exit_code == 0, out.output
    assert "indexing 2,500 events for search…" in out.stderr
    assert [h["ref"] for h in json.loads(out.stdout)["hits"]] == ["evt:2999"]
    again = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "line 2999", "--json"])
    assert again.stderr == "" and json.loads(again.stdout) == json.loads(out.stdout)
    bad = CliRunner().invoke(cli, ["search", str(tmp_path / "nothing.db"), "--session", "s1", "x"])
    assert bad.exit_code == 3 and "Traceback" not in bad.output


async def test_the_app_searches_right_after_an_import_and_ignores_indexing_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Input

    from inspector.services import search as search_service
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.evidence_channel import EvidenceChannel
    from tests.test_app import settle

    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", many(2000)), store, actor="t")

    async def not_in_background(_store: Any, _progress: Any = None) -> int:
        return 0  # the app's own catch-up held back: the search below has to index first

    monkeypatch.setattr(search_service, "index_new_events", not_in_background)
    app = InspectorApp(store)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(app, pilot)
        await app.screen.check_for_changes().wait()  # the first look records where things stand
        async with await open_store(store) as other:  # another process indexing part of the backlog
            await search_index_part(other, 500)
        await app.screen.check_for_changes().wait()
        await settle(app, pilot)
        assert not [n for n in app._notifications if "changed" in str(n.message).lower()]  # not an act: no reload
        await pilot.press("slash")
        app.screen.query_one("#evidence-search", Input).value = "line 1999"
        evidence = app.screen.query_one(EvidenceChannel)
        for _ in range(100):
            await settle(app, pilot)
            if evidence.hits:
                break
            await pilot.pause(0.05)
        assert list(evidence.hits.values()) == ["evt:1999"]
    async with await open_store(store) as opened:
        assert await pending(opened) == 0


async def search_index_part(store: Any, size: int) -> None:
    async with store.transaction() as db:
        await search_index.index_next(db, size)


async def test_a_chunk_stops_at_its_text_budget(tmp_path: Path, backend_empty_store: Path | str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    store = backend_empty_store
    big = "x" * 400
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record("s1"), *(event(i, f"line {i} {big}")
                                                                                 for i in range(1, 11))]),
                      store, actor="t")
    monkeypatch.setattr(search_index, "CHUNK_TEXT", 1000)  # about two and a half events
    async with await open_store(store) as opened:
        async with opened.transaction() as db:
            assert (await search_index.index_next(db, 100))[0] == 3  # the third starts under the budget
        monkeypatch.setattr(search_index, "CHUNK_TEXT", 1)
        async with opened.transaction() as db:
            assert (await search_index.index_next(db, 100))[0] == 1  # a chunk holds at least one event
        assert await catch_up(opened) == 6
        assert len((await search(opened, "s1", "line")).hits) == 10


def test_the_unindexed_tail_is_a_rowid_range_not_a_walk_of_the_session(tmp_path: Path) -> None:
    """Once caught up there is nothing above the watermark: the look for it must cost one
    lookup, not a walk over every event of a large session."""
    store = tmp_path / "s.db"
    asyncio.run(import_file(write_sif(tmp_path / "a.jsonl", many(50)), store, actor="t"))
    con = sqlite3.connect(store)
    try:
        con.execute("ANALYZE")
        for from_watermark in (True, False):
            sql = search_index.unindexed_sql(False, from_watermark)
            args = ("s1", 50) if from_watermark else (10, "s1", 50)
            plan = " ".join(str(r[-1]) for r in con.execute(f"EXPLAIN QUERY PLAN {sql}", args))
            assert "INTEGER PRIMARY KEY (rowid>?)" in plan, plan
    finally:
        con.close()
