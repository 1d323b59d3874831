"""The session's deletion entries are found by an index (store format 7), not by reading its ledger.

An import into an existing store and every poll of a followed transcript read the session's
``deletion`` entries (services/record_writer.py: what a deletion removed is not imported again).
Through ``ledger_session (session, seq)`` that read every entry of the session: 25 ms a poll with
10,000 entries; ``ledger_kind (session, kind, seq)`` finds them directly.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION

# the reads of a session's deletion entries (record_writer._removed, tombstones, unchanged_import)
READS = ("SELECT payload FROM ledger WHERE session = ? AND kind = 'deletion' AND source = 'inspector' ORDER BY seq",
         "SELECT 1 FROM ledger WHERE session IN (?) AND kind = 'deletion' AND seq > ? LIMIT 1")


def _plans(store: Path) -> list[str]:
    con = sqlite3.connect(store)
    try:
        return [" ".join(str(row[-1]) for row in con.execute("EXPLAIN QUERY PLAN " + q, ("s",) * q.count("?")))
                for q in READS]
    finally:
        con.close()


def test_the_deletion_reads_use_the_kind_index(sample_store: Path) -> None:
    assert FORMAT_VERSION >= 7
    for plan in _plans(sample_store):
        assert "ledger_kind" in plan, plan


def test_a_format_6_store_gets_the_index_and_still_verifies(sample_store: Path) -> None:
    con = sqlite3.connect(sample_store)
    con.executescript("DROP INDEX ledger_kind; PRAGMA user_version = 6;")
    con.close()

    async def reopen() -> bool:
        async with await open_store(sample_store, hold_upgrade=False) as store:  # upgraded at once, as `inspector upgrade` does
            return (await verify_store(store)).ok

    assert asyncio.run(reopen())
    con = sqlite3.connect(sample_store)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
        assert con.execute("SELECT 1 FROM sqlite_master WHERE name = 'ledger_kind'").fetchone() == (1,)
    finally:
        con.close()
    assert all("ledger_kind" in plan for plan in _plans(sample_store))
