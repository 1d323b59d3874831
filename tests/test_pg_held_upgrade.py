"""An older PostgreSQL store is left at its format by a read, a refusal and verify (storefault-eleven).

Before, every open of an older PostgreSQL store upgraded it under the advisory lock — ``sessions``,
an ``accept`` of an unknown id, even ``verify`` — so a team's shared store moved to a format older
inspectors cannot read though nobody changed anything. Formats 6 to 8 are now read as they are
(store/pg/held.py) and the first act upgrades them in its own transaction.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.store.schema import FORMAT_VERSION
from tests.pg_cluster import why_unavailable

pytestmark = pytest.mark.skipif(why_unavailable() is not None, reason=str(why_unavailable()))


async def _set_version(url: str, version: int | None = None) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        if version is not None:
            await conn.execute("UPDATE store_format SET version = $1", version)
        return int(await conn.fetchval("SELECT version FROM store_format"))
    finally:
        await conn.close()


def _version(url: str) -> int:
    return asyncio.run(_set_version(url))


@pytest.fixture
def pg_samples(pg_databases, pg_sample_master):  # type: ignore[no-untyped-def]
    url = pg_databases.create("samples", template=pg_sample_master)
    yield url
    pg_databases.drop(url)


def test_a_read_a_refusal_and_verify_leave_an_older_pg_store_at_its_format(pg_samples: str) -> None:
    asyncio.run(_set_version(pg_samples, 8))
    runner = CliRunner()  # one process: "left at format 8" is said once per store and process
    read = runner.invoke(cli, ["sessions", pg_samples, "--json"])
    assert read.exit_code == 0 and len(json.loads(read.stdout)) == 6, read.output
    assert "left at format 8, as nothing was written" in read.stderr, read.stderr
    refused = runner.invoke(cli, ["accept", pg_samples, "cand-nosuch", "--reviewer", "lin"])
    assert refused.exit_code == 3 and "no candidate 'cand-nosuch'" in refused.stderr, refused.output
    stale = runner.invoke(cli, ["accept", pg_samples, "cand-stale", "--reviewer", "lin"])  # refused, returned
    assert stale.exit_code == 1, stale.output
    verified = runner.invoke(cli, ["verify", pg_samples, "--json"])
    assert verified.exit_code == 0 and json.loads(verified.stdout)["ok"], verified.output
    assert _version(pg_samples) == 8  # nothing moved it


def test_the_first_act_upgrades_an_older_pg_store_and_says_so(pg_samples: str) -> None:
    asyncio.run(_set_version(pg_samples, 7))
    done = CliRunner().invoke(cli, ["reject", pg_samples, "cand-stale", "--reason", "old", "--reviewer", "lin",
                                    "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["status"] == "rejected"
    assert f"upgraded store format 7 → {FORMAT_VERSION}" in done.stderr and "left at" not in done.stderr
    assert _version(pg_samples) == FORMAT_VERSION
    assert CliRunner().invoke(cli, ["verify", pg_samples]).exit_code == 0


def test_verify_refuses_an_older_pg_store_than_format_6_and_leaves_it(pg_samples: str) -> None:
    """Formats before 6 lack tables the reads use (store/pg/held.py): a read upgrades one at the open
    (said, as before); verify, which writes nothing, refused nothing and upgraded it — now it
    refuses, ``format_upgrade_needed``, as on SQLite. (The samples at number 5 hold format 6's
    tables: a lowered number, which only verify may open here.)"""
    asyncio.run(_set_version(pg_samples, 5))
    verified = CliRunner().invoke(cli, ["verify", pg_samples, "--json"])
    assert verified.exit_code == 3 and json.loads(verified.stdout)["error"]["code"] == "format_upgrade_needed"
    assert _version(pg_samples) == 5


def test_a_pg_store_whose_number_was_lowered_behind_the_tool_is_said_so(pg_samples: str) -> None:
    """The samples (format 9) numbered 5: the upgrade meets format 6's tables. It was "not a readable
    store: relation "reasoning_search" already exists"; now SQLite's ``format_number_differs``."""
    asyncio.run(_set_version(pg_samples, 5))
    read = CliRunner().invoke(cli, ["sessions", pg_samples, "--json"])
    assert read.exit_code == 3, read.output
    error = json.loads(read.stdout)["error"]
    assert error["code"] == "format_number_differs" and "says it is store format 5" in error["message"]
    assert _version(pg_samples) == 5  # the step's transaction rolled back
