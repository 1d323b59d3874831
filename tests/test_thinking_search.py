"""A word only in thinking text (a Claude Code ``thinking`` block, kept as ``reasoning_content``) is
found (store format 6): indexed beside the event text and call input, under the events' watermark,
on both backends; each hit says ``"matched": "thinking"`` with its offsets in that text; a deletion
takes it out; verify checks the index; a format 5 store gets its thinking indexed when opened."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import InspectorError
from inspector.services import deletions
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.schema import FORMAT_VERSION
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.evidence_channel import EvidenceChannel
from tests.backend_master import BackendMaster, master_fixture
from tests.backend_sql import run_sql
from tests.conftest import DROP_THINKING, event_record, session_record, write_sif
from tests.test_app import settle

WORD = "pelicanberry"  # only in event 2's thinking (and in s2's text)
THOUGHT = f"the {WORD} plan: stream it ゑ"  # ゑ: a character only this thinking holds
SECRET = "drop-table-Ωmega"  # only in event 5's thinking, which del-1 deletes


def records() -> list[dict[str, Any]]:
    return [
        session_record("s1", owner="alice"), session_record("s2"),
        event_record(1, content="what should we do about the export?"),
        event_record(2, kind="assistant_message", trust="model", content="I will look at the export.",
                     reasoning_content=THOUGHT),
        event_record(3, kind="assistant_message", trust="model", content="stream the export",
                     reasoning_content="maybe stream the export in batches"),
        event_record(4, kind="assistant_message", trust="model", content="empty thinking", reasoning_content=""),
        event_record(5, kind="assistant_message", trust="model", content="noted, not doing that", reasoning_content=f"or {SECRET}?"),
        event_record(1, "s2", content=f"no thinking here, {WORD} in the text"),
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:5"], "requested_by": "user",
         "reason": "a secret"},
    ]


async def _build(target: Path | str, folder: Path) -> None:
    await import_file(write_sif(folder / "t.jsonl", records()), target, actor="t")


master = master_fixture(_build)  # built once per backend; each test gets a copy of its own


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


def _found(result: Any) -> list[tuple[str, str]]:
    return [(h.ref, h.matched) for h in result.hits]


@pytest.mark.parametrize("indexed", [True, False])
async def test_a_word_only_in_thinking_is_found_and_says_so(store: Path | str, indexed: bool) -> None:
    async with await open_store(store, read_only=not indexed) as opened:  # read-only: nothing indexed, all checked
        result = await search(opened, "s1", WORD)
        assert _found(result) == [("evt:2", "thinking")]
        hit = result.hits[0]
        assert hit.offsets == (THOUGHT.index(WORD),) and WORD in hit.snippet  # offsets in the thinking text
        assert result.not_searched == {} and result.as_dict()["not_searched"] == {}
        assert _found(await search(opened, "s2", WORD)) == [("evt:1", "event text")]  # another session's
        # an event's text before its thinking; an empty thinking is nothing to find
        assert _found(await search(opened, "s1", "stream the export")) == [("evt:3", "event text"),
                                                                           ("evt:3", "thinking")]
        assert _found(await search(opened, "s1", "stream", limit=2)) == [("evt:2", "thinking"),
                                                                         ("evt:3", "event text")]


@pytest.mark.parametrize("indexed", [True, False])
async def test_short_queries_take_the_short_path_into_thinking(store: Path | str, indexed: bool) -> None:
    async with await open_store(store, read_only=not indexed) as opened:
        found = await search(opened, "s1", "ゑ")
        assert found.method == "grams" and _found(found) == [("evt:2", "thinking")]
        assert found.hits[0].offsets == (THOUGHT.index("ゑ"),)
        assert _found(await search(opened, "s1", "Ωm")) == [("evt:5", "thinking")]


async def test_a_deleted_thinking_is_no_longer_found(store: Path | str) -> None:
    async with await open_store(store) as opened:
        await catch_up(opened)
        assert _found(await search(opened, "s1", SECRET)) == [("evt:5", "thinking")]
        assert not (await deletions.delete(opened, "del-1", actor="alice")).refusals
        assert _found(await search(opened, "s1", SECRET)) == []
        assert _found(await search(opened, "s1", "Ω")) == []  # the short path too
        table, key = ("reasoning_search", "event_id") if is_url(store) else ("reasoning_fts", "rowid")
        assert len(await opened.db.execute_fetchall(f"SELECT {key} FROM {table}")) == 2  # events 2 and 3
        report = await verify_store(opened)
        assert report.ok, report.problems
    if not is_url(store):
        with closing(sqlite3.connect(store)) as con, con:  # nothing of it left in the index's own tables
            for name in ("reasoning_fts_content", "reasoning_fts_data", "reasoning_grams_data"):
                blobs = b"".join(r[0] if isinstance(r[0], bytes) else str(r[0]).encode()
                                 for r in con.execute(f"SELECT * FROM {name}"))
                assert SECRET.encode() not in blobs and "Ω".encode() not in blobs, name
        assert SECRET.encode() not in Path(store).read_bytes()


async def test_deleting_one_event_with_thinking_leaves_the_others(tmp_path: Path) -> None:
    """The field name ``reasoning_content`` (long enough to count as a copied line) is no value of
    the target: every other event with thinking was listed as a copy and deleted with it."""
    path = tmp_path / "t.db"
    await import_file(write_sif(tmp_path / "t.jsonl", records()), path, actor="t")
    async with await open_store(path) as opened:
        coverage = await deletions.check(opened, "del-1")
        assert {c.id for c in coverage.copies if c.where == "events"} == {"evt:5"}
        assert ("reasoning_fts", "evt:5") in {(c.where, c.id) for c in coverage.copies}  # its index entry, listed


async def test_a_format_5_store_gets_its_thinking_indexed_on_open(store: Path | str) -> None:
    async with await open_store(store) as opened:
        await catch_up(opened)
    await _back_to_format_5(store)
    async with await open_store(store) as opened:
        assert _found(await search(opened, "s1", WORD)) == [("evt:2", "thinking")]
        report = await verify_store(opened)
        version = (await opened.db.execute_fetchall(
            "SELECT version FROM store_format" if is_url(store) else "PRAGMA user_version"))[0][0]
    assert version == FORMAT_VERSION >= 6 and report.ok, report.problems


async def test_a_read_only_format_5_store_is_refused_as_needing_migration(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await import_file(write_sif(tmp_path / "t.jsonl", records()), path, actor="t")
    await _back_to_format_5(path)
    with pytest.raises(InspectorError) as refused:  # was unknown_format_version, the code of a newer store
        await open_store(path, read_only=True, upgrade=False)  # (a read opens it through a copy: storefault-eleven)
    assert refused.value.code == "format_upgrade_needed" and "must be upgraded" in str(refused.value)


async def _back_to_format_5(store: Path | str) -> None:
    if not is_url(store):
        with closing(sqlite3.connect(store)) as con, con:
            con.executescript(DROP_THINKING + "PRAGMA user_version = 5;")
        return
    import asyncpg

    conn = await asyncpg.connect(str(store))
    try:
        await conn.execute("DROP TABLE reasoning_search; UPDATE store_format SET version = 5")
    finally:
        await conn.close()


EVENT = "(SELECT event_id FROM events WHERE seq = {} AND session = 's1')"


@pytest.mark.parametrize(("edit", "code"), [
    (f"UPDATE reasoning_fts SET text = 'the harmless plan' WHERE rowid = {EVENT.format(2)}", "search_index_text"),
    (f"DELETE FROM reasoning_fts WHERE rowid = {EVENT.format(3)}", "search_index_coverage"),
    ("INSERT INTO reasoning_fts (rowid, text) SELECT event_id, 'rm -rf /' FROM events WHERE seq = 1 "
     "AND session = 's1'", "search_index_coverage"),
    (f"INSERT INTO reasoning_grams (rowid, grams) VALUES ({EVENT.format(1)}, 'ゑ')", "search_index_coverage"),
])
async def test_verify_finds_the_thinking_index_edited(tmp_path: Path, edit: str, code: str) -> None:
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


async def test_verify_finds_the_thinking_index_edited_on_either_backend(store: Path | str) -> None:
    table, key = ("reasoning_search", "event_id") if is_url(store) else ("reasoning_fts", "rowid")
    async with await open_store(store) as opened:
        await catch_up(opened)
        assert (await verify_store(opened)).ok
    run_sql(store, f"UPDATE {table} SET text = 'the harmless plan' WHERE {key} = {EVENT.format(2)}")
    async with await open_store(store) as opened:
        report = await verify_store(opened)
    assert not report.ok and "search_index_text" in {p["code"] for p in report.problems}, report.problems
    assert table in {p["where"] for p in report.problems}


def test_the_cli_says_a_hit_is_in_thinking_plain_and_in_json(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    asyncio.run(import_file(write_sif(tmp_path / "t.jsonl", records()), path, actor="t"))
    found = CliRunner().invoke(cli, ["search", str(path), "--session", "s1", WORD, "--json"])
    assert found.exit_code == 0, found.output
    answer = json.loads(found.stdout)
    assert [(h["ref"], h["matched"], h["offsets"]) for h in answer["hits"]] == [
        ("evt:2", "thinking", [THOUGHT.index(WORD)])]
    assert answer["not_searched"] == {}
    plain = CliRunner().invoke(cli, ["search", str(path), "--session", "s1", WORD])
    assert "evt:2" in plain.stdout and "in thinking" in plain.stdout and "not searched" not in plain.stdout


async def test_the_apps_search_marks_a_thinking_hit(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await import_file(write_sif(tmp_path / "t.jsonl", records()), path, actor="t")
    app = InspectorApp(path, reviewer="alice")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        evidence = app.screen.query_one(EvidenceChannel)
        await pilot.press("/", *WORD)
        await settle(app, pilot)
        prompts = [str(evidence.records.get_option_at_index(i).prompt) for i in range(evidence.records.option_count)]
        assert any(p.startswith("evt:2 ∴ thinking · 1×") for p in prompts), prompts
        assert not any("not searched" in p for p in prompts), prompts
        assert f"match 1 of 1 at character {THOUGHT.index(WORD)} of the thinking" in evidence.detail_content.plain
