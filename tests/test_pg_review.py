"""Defects a hostile review of the PostgreSQL backend found, each pinned by what a user saw:
a traceback instead of one sentence, a store error surfacing as a ``NameError``, a
tampered store crashing ``verify --full`` instead of being reported."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import InspectorError
from inspector.store.connection import open_store
from tests.backend_sql import run_sql


@pytest.mark.parametrize("url", ["postgresql://me:s3cretPW@[::1:5432/db", "postgresql://me:s3cretPW@[fe80::1/db"])
def test_an_unreadable_url_is_one_sentence_exit_3_without_the_password(url: str) -> None:
    result = CliRunner().invoke(cli, ["sessions", url, "--json"])
    assert result.exit_code == 3, result.output
    assert "Traceback" not in result.output and "s3cretPW" not in result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "store_unreachable" and "not a valid URL" in error["message"]


async def test_a_refused_bulk_insert_is_the_integrity_error_services_catch(backend_empty_store: Path | str) -> None:
    """Many rows at once go to PostgreSQL as COPY; a violated constraint there must raise what
    one row's refusal raises (sqlite3.IntegrityError), not a NameError from the error mapping."""
    rows = [(f"k{i}", "v") for i in range(300)] + [("k0", "again")]
    async with await open_store(backend_empty_store, create=True) as store:
        with pytest.raises(sqlite3.IntegrityError):
            async with store.transaction() as db:
                await db.executemany("INSERT INTO store_meta (key, value) VALUES (?, ?)", rows)
        async with store.snapshot() as db:  # and nothing of the batch was written
            assert (await db.execute_fetchall("SELECT COUNT(*) FROM store_meta WHERE key = 'k1'"))[0][0] == 0


def test_verify_full_reports_a_chunk_turned_into_text(backend_sample_store: Path | str) -> None:
    """SQLite lets a tamperer store a chunk as TEXT (``data || x'00'`` is text); ``verify --full``
    must report the material as changed (exit 1), not crash on hashing a str."""
    run_sql(backend_sample_store, "UPDATE material_chunks SET data = data || x'00' WHERE idx = 0", guards_off=True)
    result = CliRunner().invoke(cli, ["verify", str(backend_sample_store), "--full", "--json"])
    assert result.exit_code == 1, result.output
    problems = json.loads(result.stdout)["problems"]
    # SQLite: the chunk is a value of another type than its column's, reported before anything reads it
    # (docs/reviews/untrusted-six.md); PostgreSQL's bytea stays bytes, whose hash no longer matches
    assert any("no longer hash to its content hash" in p["message"] or (
        p["code"] == "column_type_differs" and p["where"] == "material_chunks") for p in problems), problems


def test_a_write_into_the_target_during_a_migration_waits_for_it(sample_store: Path, pg_databases,
                                                                 tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A reviewer importing into a PostgreSQL database while `migrate` fills it must not slip
    rows and ledger entries in between the copy's pages (the copy then failed on a duplicate
    ledger seq and left a store that does not verify): the target is marked unfinished until
    the copy ends, so the import is refused (migration_unfinished) and writes nothing — or, when it
    opens only after the copy has ended (the task is started at the first events' progress, and a loaded
    machine may run it late), it imports after the copy's last entry: either way the copy is whole."""
    from inspector.services.importing import import_file
    from inspector.services.migrating import migrate
    from inspector.services.verifying import verify_store
    from tests.conftest import event_record, session_record, write_sif

    url = pg_databases.create("mig_race")
    extra = write_sif(tmp_path / "extra.jsonl", [session_record("s-late"), event_record(1, "s-late")])
    started: list[asyncio.Task[object]] = []

    def progress(table: str, done: int, total: int) -> None:
        if not started and table == "events" and done:
            started.append(asyncio.ensure_future(import_file(extra, url, actor="intruder")))

    async def run() -> None:
        report = await migrate(sample_store, url, progress=progress)
        assert started, "the copy never reported progress on events"
        (intruder,) = await asyncio.wait_for(asyncio.gather(started[0], return_exceptions=True), 60)
        assert report.ok and report.heads_match, report.as_dict()  # the copy whole: nothing between its pages
        async with await open_store(url) as store:
            after = await verify_store(store)
            sessions = {r[0] for r in await store.db.execute_fetchall("SELECT id FROM sessions")}
        assert after.ok, after.problems
        if isinstance(intruder, BaseException):  # it met the copy running: refused, nothing written
            assert isinstance(intruder, InspectorError) and intruder.code == "migration_unfinished", intruder
            assert after.head == report.source_head and "s-late" not in sessions
        else:  # under load its open came after the copy had ended (CI4, 4,922 tests at once): it imported
            # after the copy's last entry, on the chain the copy left (verify above), never in between
            assert "s-late" in sessions and after.head != report.source_head

    asyncio.run(run())
