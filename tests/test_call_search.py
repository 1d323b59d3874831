"""Search finds what the agent ran: a tool call's input (its ``args``) is indexed like event text
(store format 5), on both backends, with each hit saying where it matched."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.schema import FORMAT_VERSION
from tests.backend_master import BackendMaster, master_fixture
from tests.conftest import DROP_CALLS, session_record, write_sif

SECRET = "hunter2-Ω-token"


def _call(seq: int, tool: str, args: dict[str, Any], session: str = "s1") -> dict[str, Any]:
    return {"type": "event", "session": session, "seq": seq, "kind": "tool_call", "trust": "model",
            "call_id": f"c{seq}", "tool": tool, "args": args, "at": "2025-05-01T08:00:00Z"}


def _text(seq: int, content: str, session: str = "s1") -> dict[str, Any]:
    return {"type": "event", "session": session, "seq": seq, "kind": "user_message", "trust": "user",
            "content": content, "at": "2025-05-01T08:00:00Z"}


def records() -> list[dict[str, Any]]:
    return [
        session_record("s1", owner="zhou"), session_record("s2"),
        _text(1, "please run the tests with mise"),
        _call(2, "Bash", {"command": "mise run test", "description": "Run tests", "timeout": 120000}),
        _call(3, "Edit", {"file_path": "src/auth.py", "old_string": "retries = 2", "new_string": "retries = 3"}),
        _call(4, "WebFetch", {"url": "https://example.org/ℤ-docs", "prompt": "summarise"}),
        _text(5, "I ran mise run test and edited src/auth.py"),
        _call(6, "crm", {"token": SECRET, "flag": True}),
        _call(1, "Bash", {"command": "mise run test"}, session="s2"),
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:6"], "requested_by": "user",
         "reason": "a secret"},
    ]


async def _build(target: Path | str, folder: Path) -> None:
    await import_file(write_sif(folder / "a.jsonl", records()), target, actor="t")


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


def _found(result: Any) -> list[tuple[str, str]]:
    return [(h.ref, h.matched) for h in result.hits]


@pytest.mark.parametrize("indexed", [True, False])
async def test_a_command_an_edit_and_a_url_are_found_where_they_were_run(store: Path | str, indexed: bool) -> None:
    async with await open_store(store, read_only=not indexed) as opened:  # read-only: nothing indexed, all checked
        if not indexed:
            assert _found(await search(opened, "s1", "auth.py")) and not (await opened.db.execute_fetchall(
                "SELECT indexed_through FROM search_watermark WHERE name = 'events'"))[0][0]
        assert _found(await search(opened, "s1", "mise run test")) == [
            ("evt:2", "call input of Bash"), ("evt:5", "event text")]
        assert _found(await search(opened, "s1", "src/auth.py")) == [
            ("evt:3", "call input of Edit"), ("evt:5", "event text")]
        assert _found(await search(opened, "s1", "retries = 3")) == [("evt:3", "call input of Edit")]
        assert _found(await search(opened, "s1", "ℤ-docs")) == [("evt:4", "call input of WebFetch")]
        assert _found(await search(opened, "s1", "120000")) == [("evt:2", "call input of Bash")]
        hit = (await search(opened, "s1", "retries = 3")).hits[0]
        assert hit.offsets == (len("src/auth.py\n"),) and "retries = 3" in hit.snippet
        # keys are not the input: every call of a tool holds them
        assert _found(await search(opened, "s1", "file_path")) == []
        assert _found(await search(opened, "s1", "description")) == []
        # another session's call is not this one's
        assert _found(await search(opened, "s2", "mise run")) == [("evt:1", "call input of Bash")]


@pytest.mark.parametrize("indexed", [True, False])
async def test_short_queries_take_the_short_path_into_call_input(store: Path | str, indexed: bool) -> None:
    async with await open_store(store, read_only=not indexed) as opened:
        found = await search(opened, "s1", "ℤ")
        assert found.method == "grams" and _found(found) == [("evt:4", "call input of WebFetch")]
        assert _found(await search(opened, "s1", "Ω")) == [("evt:6", "call input of crm")]
        assert ("evt:3", "call input of Edit") in _found(await search(opened, "s1", "= "))
        two = _found(await search(opened, "s1", "mi"))
        assert two == [("evt:1", "event text"), ("evt:2", "call input of Bash"), ("evt:5", "event text")]
        limited = await search(opened, "s1", "mi", limit=2)
        assert _found(limited) == two[:2] and limited.more


async def test_the_limit_counts_text_and_call_hits_together_in_event_order(store: Path | str) -> None:
    async with await open_store(store) as opened:
        found = await search(opened, "s1", "auth", limit=1)
        assert _found(found) == [("evt:3", "call input of Edit")] and found.more


async def test_a_deleted_call_input_is_no_longer_found(store: Path | str) -> None:
    async with await open_store(store) as opened:
        await catch_up(opened)
        assert _found(await search(opened, "s1", SECRET)) == [("evt:6", "call input of crm")]
        assert not (await deletions.delete(opened, "del-1", actor="zhou")).refusals
        assert _found(await search(opened, "s1", SECRET)) == []
        assert _found(await search(opened, "s1", "Ω")) == []  # the short path too
        table, key = ("calls_search", "event_id") if is_url(store) else ("calls_fts", "rowid")
        assert len(await opened.db.execute_fetchall(f"SELECT {key} FROM {table}")) == 4
        report = await verify_store(opened)
        assert report.ok, report.problems
    if not is_url(store):
        with closing(sqlite3.connect(store)) as con, con:  # nothing of it left in the index's own tables
            for name in ("calls_fts_content", "calls_fts_data", "calls_grams_data"):
                blobs = b"".join(r[0] if isinstance(r[0], bytes) else str(r[0]).encode()
                                 for r in con.execute(f"SELECT * FROM {name}"))
                assert SECRET.encode() not in blobs and "Ω".encode() not in blobs, name


async def test_a_format_4_store_gets_its_calls_indexed_on_open(store: Path | str) -> None:
    async with await open_store(store) as opened:
        await catch_up(opened)
    await _back_to_format_4(store)
    async with await open_store(store) as opened:
        assert _found(await search(opened, "s1", "retries = 2")) == [("evt:3", "call input of Edit")]
        report = await verify_store(opened)
        version = (await opened.db.execute_fetchall(
            "SELECT version FROM store_format" if is_url(store) else "PRAGMA user_version"))[0][0]
    assert version == FORMAT_VERSION >= 6 and report.ok, report.problems


async def _back_to_format_4(store: Path | str) -> None:
    if not is_url(store):
        with closing(sqlite3.connect(store)) as con, con:
            con.executescript(DROP_CALLS + "PRAGMA user_version = 4;")
        return
    import asyncpg

    conn = await asyncpg.connect(str(store))
    try:
        await conn.execute("DROP TABLE reasoning_search; DROP TABLE calls_search; UPDATE store_format SET version = 4")
    finally:
        await conn.close()


@pytest.mark.parametrize(("edit", "code"), [
    ("UPDATE calls_fts SET text = 'mise run deploy' WHERE rowid = (SELECT event_id FROM events WHERE seq = 2 "
     "AND session = 's1')", "search_index_text"),
    ("DELETE FROM calls_fts WHERE rowid = (SELECT event_id FROM events WHERE seq = 3 AND session = 's1')",
     "search_index_coverage"),
    ("INSERT INTO calls_fts (rowid, text) SELECT event_id, 'rm -rf /' FROM events WHERE seq = 1 AND session = 's1'",
     "search_index_coverage"),
])
async def test_verify_finds_the_call_index_edited(tmp_path: Path, edit: str, code: str) -> None:
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records()), path, actor="t")
    async with await open_store(path) as opened:
        await catch_up(opened)
        assert (await verify_store(opened)).ok
    with closing(sqlite3.connect(path)) as con, con:
        con.execute(edit)
    async with await open_store(path) as opened:
        report = await verify_store(opened)
    assert not report.ok and code in {p["code"] for p in report.problems}, report.problems
    assert any(p["where"].startswith("calls_") for p in report.problems)
