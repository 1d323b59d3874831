"""An older store is upgraded with a word on either backend (storefault-nine left PostgreSQL silent).

A PostgreSQL store migrates under its own advisory lock when it is opened; it said nothing, so a
team's shared store moved to a format older inspectors cannot read without anyone being told.
Now its open sets ``format_upgraded`` and ``inspector upgrade`` reports it as it does for a file.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.schema import FORMAT_VERSION
from tests.conftest import event_record, session_record, write_sif


async def _lower_to_8(store: Path | str) -> None:
    """Format 9 adds only an index (events_long_extra on SQLite); taking the number back is what an older store looks like."""
    if not is_url(store):
        with closing(sqlite3.connect(store)) as con, con:
            con.execute("DROP INDEX IF EXISTS events_long_extra")
            con.execute("PRAGMA user_version = 8")
        return
    import asyncpg

    conn = await asyncpg.connect(str(store))
    try:
        await conn.execute("UPDATE store_format SET version = 8")
    finally:
        await conn.close()


def test_an_older_store_on_either_backend_says_its_upgrade(tmp_path: Path, backend_empty_store: Path | str) -> None:
    assert FORMAT_VERSION == 9  # the step this test takes a store back over
    records = [session_record("s-1", title="t"), event_record(1, "s-1", content="hello")]
    asyncio.run(import_file(write_sif(tmp_path / "s.jsonl", records), backend_empty_store, actor="alice"))
    asyncio.run(_lower_to_8(backend_empty_store))

    result = CliRunner().invoke(cli, ["upgrade", str(backend_empty_store), "--json"])
    assert result.exit_code == 0, result.output
    said = json.loads(result.stdout)
    assert said["format"] == 9 and said["upgraded"]["from"] == 8 and said["upgraded"]["to"] == 9, said
    assert "upgraded store format 8 → 9" in said["upgraded"]["message"]

    async def reopen() -> object:
        async with await open_store(backend_empty_store) as opened:
            return opened.format_upgraded

    assert asyncio.run(reopen()) is None  # upgraded once: the next open has nothing to say
