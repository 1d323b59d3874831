"""The PostgreSQL backend gives what the SQLite store gives: search results, refusals,
format versions, write serialisation, and change notices that say who acted."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import candidates
from inspector.services.search import search
from inspector.services.sessions import ChangeWatch, get_session, list_sessions
from inspector.services.verifying import verify_store
from inspector.store.connection import data_version, open_store
from tests.backend_sql import run_sql
from tests.conftest import SAMPLES

# English and Chinese, one, two and three-or-more characters, across the sample sessions.
QUERIES = [
    ("s-export", "超"), ("s-export", "超时"), ("s-export", "导出超时"), ("s-export", "P"), ("s-export", "p9"),
    ("s-export", "exit"), ("s-export", "EXIT 1"), ("s-export", "生产库"), ("s-export", "耗时=1"),
    ("s-privacy", "王"), ("s-privacy", "王芳"), ("s-privacy", "138-0013"), ("s-privacy", "杭州市西湖区"),
    ("s-orders", "migration"), ("s-orders", "or"), ("s-orders", "CREATE INDEX"), ("s-orders", "e"),
    ("s-weather", "伞"), ("s-weather", "80%"), ("s-injected", "<p>"), ("s-injected", "_"),
]


async def test_search_gives_the_same_hits_on_both_backends(sample_store: Path, pg_sample_master: str,
                                                           pg_databases) -> None:  # type: ignore[no-untyped-def]
    # a copy: a search indexes what the import left, and the master stays as the import left it
    url = await asyncio.to_thread(pg_databases.create, "samples", template=pg_sample_master)
    try:
        async with await open_store(sample_store) as lite, await open_store(url) as pg:
            for session, query in QUERIES:
                a = (await search(lite, session, query)).as_dict()
                b = (await search(pg, session, query)).as_dict()
                assert a == b, (session, query)
                assert a["hits"] or query in {"EXIT 1", "_"}, (session, query)  # the queries do find something
    finally:
        await asyncio.to_thread(pg_databases.drop, url)


def test_a_bad_url_or_unreachable_server_is_one_sentence_and_exit_3(pg_server: str) -> None:
    free = pg_server.rsplit(":", 1)[0] + ":1/postgres"
    for url, words in [(free, "cannot reach the store"), ("postgresql://inspector@127.0.0.1:notaport/x", "port"),
                       ("postgresql://inspector@127.0.0.1:5432/", "names no database")]:
        result = CliRunner().invoke(cli, ["sessions", url, "--json"])
        assert result.exit_code == 3, result.output
        error = json.loads(result.stdout)["error"]
        assert error["code"] == "store_unreachable" and words in error["message"]
        assert "Traceback" not in result.output


def test_an_empty_database_is_no_store_and_one_with_other_tables_is_refused(pg_databases) -> None:  # type: ignore[no-untyped-def]
    url = pg_databases.create("other")
    try:
        result = CliRunner().invoke(cli, ["verify", url, "--json"])
        assert result.exit_code == 3 and json.loads(result.stdout)["error"]["code"] == "not_a_store"
        run_sql(url, "CREATE TABLE invoices (id int)")
        result = CliRunner().invoke(cli, ["import", str(SAMPLES["01_export_timeout"]), "--into", url,
                                          "--reviewer", "lin", "--json"])
        assert result.exit_code == 3 and "other tables" in json.loads(result.stdout)["error"]["message"]
        tables = run_sql(url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        assert tables == [[(1,)]]  # nothing was written
    finally:
        pg_databases.drop(url)


def test_a_newer_format_is_refused_with_its_code(backend_sample_store: Path | str, backend: str) -> None:
    if backend == "sqlite":
        run_sql(backend_sample_store, "PRAGMA user_version = 99")
    else:
        run_sql(backend_sample_store, "UPDATE store_format SET version = 99")
    result = CliRunner().invoke(cli, ["sessions", str(backend_sample_store), "--json"])
    assert result.exit_code == 3 and json.loads(result.stdout)["error"]["code"] == "unknown_format_version"


async def test_writers_in_one_process_on_separate_connections_serialise(backend_sample_store: Path | str) -> None:
    """Four stores (four writer connections) accept the same session's candidates at once:
    the advisory lock makes each act see the last one, so exactly one accept wins."""
    stores = [await open_store(backend_sample_store) for _ in range(4)]
    try:
        names = ["cand-good", "cand-warn", "cand-good", "cand-warn"]
        decisions = await asyncio.gather(*(candidates.accept(s, n, actor=f"r{i}")
                                           for i, (s, n) in enumerate(zip(stores, names, strict=True))))
        winners = [d for d in decisions if not d.validation.refusals]
        assert len(winners) == 1, [d.as_dict() for d in decisions]
        assert (await get_session(stores[0], "s-export")).context_version == 5
        assert (await verify_store(stores[0])).ok
    finally:
        for s in stores:
            await s.close()


async def test_another_reviewers_act_is_noticed_with_who_did_it(backend_sample_store: Path | str) -> None:
    async with await open_store(backend_sample_store) as watching, await open_store(backend_sample_store) as other:
        watch = ChangeWatch(watching)
        assert not await watch.changed()
        await candidates.accept(watching, "cand-warn", actor="me")  # its own act is no outside change
        await asyncio.sleep(0.2)
        assert not await watch.changed()
        before = await data_version(watching.watch_db)
        decided = await candidates.reject(other, "cand-good", actor="lin", reason="superseded")
        assert not decided.validation.refusals
        for _ in range(40):  # a notice arrives within the app's poll (well under 2 s)
            if await data_version(watching.watch_db) != before:
                break
            await asyncio.sleep(0.05)
        assert await watch.changed()
        assert watch.last_actor == "lin"
        assert {s.id for s in await list_sessions(watching)} >= {"s-export"}


def test_inspector_store_is_the_default_store(backend_sample_store: Path | str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_STORE", str(backend_sample_store))
    listed = CliRunner().invoke(cli, ["sessions", "--json"])
    assert listed.exit_code == 0 and "s-export" in {s["id"] for s in json.loads(listed.stdout)}
    assert CliRunner().invoke(cli, ["verify", "--json"]).exit_code == 0


async def test_a_store_opened_read_only_refuses_writes_with_its_code(backend_sample_store: Path | str) -> None:
    from inspector.domain.errors import InspectorError

    async with await open_store(backend_sample_store, read_only=True) as store:
        assert store.read_only and (await get_session(store, "s-export")).context_version == 4
        with pytest.raises(InspectorError) as refused:
            await candidates.accept(store, "cand-good", actor="lin")
        assert refused.value.code == "read_only"
    async with await open_store(backend_sample_store) as store:
        assert (await get_session(store, "s-export")).context_version == 4  # nothing was written


async def test_text_holding_nul_and_the_escape_mark_round_trips_exactly(backend_empty_store: Path | str,
                                                                     tmp_path: Path) -> None:
    """PostgreSQL text cannot hold U+0000; the store escapes it (and its own mark) so the
    records, their digests and the export are what a file store gives."""
    from inspector.services import exporting
    from inspector.services.importing import import_file
    from tests.conftest import event_record, session_record, write_sif

    tricky = "nul \x00 here \uffff1 and \x000 \uffff"
    source = write_sif(tmp_path / "nul.jsonl", [session_record(title=tricky), event_record(1, content=tricky)])
    await import_file(source, backend_empty_store, actor="t")
    async with await open_store(backend_empty_store) as store:
        assert (await verify_store(store)).ok
        await exporting.export_sif(store, tmp_path / "out.jsonl")
        hits = (await search(store, "s1", "nul")).hits  # (SQLite's FTS5 indexes text only up to a NUL)
    assert [h.ref for h in hits] == ["evt:1"]
    exported = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r.get("title") for r in exported if r["type"] == "session"} == {tricky}
    assert {r.get("content") for r in exported if r["type"] == "event"} == {tricky}
