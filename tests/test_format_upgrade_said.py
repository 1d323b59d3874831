"""A store format upgrade is said, is one transaction, and is not made by ``verify`` (storefault-nine).

Before: a format-7 store opened by any command — ``verify`` included — became format 8 with no
word; the one-off re-index of long events showed nothing while it ran; each format step
committed on its own, so an upgrade killed between two steps left the store at neither format;
and a read-only older store was refused as ``unknown_format_version``, a code for a *newer* store.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from inspector.domain.errors import InspectorError
from inspector.store import format_upgrade
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION
from tests.conftest import DROP_THINKING
from tests.test_search_long_events import _imported, index_long_events_whole
from tests.test_store_faults import _child


def _version(store: Path) -> int:
    with closing(sqlite3.connect(f"file:{store}?immutable=1", uri=True)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def _to_format(store: Path, version: int) -> None:
    """The store as an older format left it (the samples and the long-event store have nothing
    the dropped objects alone would lose). Closed: checkpointed into the file, whose bytes tests compare."""
    with closing(sqlite3.connect(store)) as db, db:
        db.executescript("DROP INDEX events_long;" + ("DROP INDEX ledger_kind;" + DROP_THINKING if version < 7 else "")
                         + f"PRAGMA user_version = {version};")


def _folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.is_file()}


def test_a_command_that_upgrades_says_so_on_stderr_and_keeps_json_clean(sample_store: Path) -> None:
    _to_format(sample_store, 7)
    read = _child(["sessions", str(sample_store), "--json"])  # a command that writes nothing upgrades nothing
    assert read.returncode == 0 and isinstance(json.loads(read.stdout), list), read.stderr
    assert "left at format 7" in read.stderr and _version(sample_store) == 7, read.stderr
    done = _child(["reject", str(sample_store), "cand-stale", "--reason", "old", "--json"])  # the first act upgrades
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "rejected"  # stdout is the one document
    said = [line for line in done.stderr.splitlines() if line.startswith("upgraded store format")]
    assert said == [line for line in said if f"7 → {FORMAT_VERSION}" in line] and len(said) == 1, done.stderr
    assert _version(sample_store) == FORMAT_VERSION
    again = _child(["sessions", str(sample_store), "--json"])
    assert "upgraded" not in again.stderr and "left at" not in again.stderr  # said once: the store is current now
    assert _child(["verify", str(sample_store)]).returncode == 0  # one commit, one commit mark


def test_verify_does_not_upgrade_an_older_store_and_names_the_command_that_does(sample_store: Path) -> None:
    _to_format(sample_store, 7)
    before = _folder(sample_store)
    done = _child(["verify", str(sample_store), "--json"])
    assert done.returncode == 3, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "format_upgrade_needed"
    assert "format 7" in error["message"] and f"inspector upgrade {sample_store}" in error["message"]
    assert _folder(sample_store) == before  # not a byte written, no -wal or -shm left
    upgraded = _child(["upgrade", str(sample_store), "--json"])
    assert upgraded.returncode == 0, upgraded.stderr
    result = json.loads(upgraded.stdout)
    assert result["upgraded"]["from"] == 7 and result["format"] == FORMAT_VERSION
    assert "upgraded store format 7" in upgraded.stderr
    assert _child(["verify", str(sample_store)]).returncode == 0
    assert json.loads(_child(["upgrade", str(sample_store), "--json"]).stdout)["upgraded"] is None


async def test_a_read_only_older_store_is_read_through_its_copy_and_left(sample_store: Path) -> None:
    """Changed on purpose (storefault-eleven): it was refused ``format_upgrade_needed`` (a read needs
    no write to the file); now read through an upgraded copy, its acts refused ``read_only``."""
    from inspector.services.candidates import reject
    from inspector.services.sessions import list_sessions

    _to_format(sample_store, 7)
    before = _folder(sample_store)
    async with await open_store(sample_store, read_only=True) as store:
        assert store.read_only and len(await list_sessions(store)) == 6
        with pytest.raises(InspectorError) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
    assert refused.value.code == "read_only"
    with pytest.raises(InspectorError) as refused:  # a check that reads no copy: as before
        await open_store(sample_store, read_only=True, upgrade=False)
    assert refused.value.code == "format_upgrade_needed" and "format 7" in refused.value.message
    assert _folder(sample_store) == before


async def test_the_long_event_re_index_reports_progress_then_one_line(tmp_path: Path) -> None:
    store = await _imported(tmp_path)  # one event past the index's bound
    async with await open_store(store) as opened:
        await catch_up(opened)
    index_long_events_whole(store)  # as format 7 left it: the long event indexed whole
    _to_format(store, 7)
    heard: list[tuple[str, bool]] = []
    format_upgrade.report_to(lambda text, final: heard.append((text, final)))
    try:
        async with await open_store(store, hold_upgrade=False) as opened:  # as `inspector upgrade` does
            upgraded = opened.format_upgraded
    finally:
        format_upgrade.report_to(None)
    assert upgraded is not None and upgraded["long_events_reindexed"] == 1
    assert ("re-indexing long events, 1 of 1" in heard[-2][0]) and heard[-2][1] is False
    assert heard[-1] == (upgraded["message"], True) and "1 event over" in upgraded["message"]


_KILL_AT_FORMAT_8 = """
import os, signal, sys, asyncio, aiosqlite
real = aiosqlite.Connection.execute
def execute(self, sql, *args, **kwargs):
    if "events_long" in sql and sql.lstrip().upper().startswith("CREATE INDEX"):
        os.kill(os.getpid(), signal.SIGKILL)  # the last step, after formats 6 and 7 were made
    return real(self, sql, *args, **kwargs)
aiosqlite.Connection.execute = execute
from inspector.store.connection import open_store
async def main():
    store = await open_store(sys.argv[1])
    await store.close()
asyncio.run(main())
"""


def test_an_upgrade_killed_part_way_leaves_the_store_at_the_format_it_had(sample_store: Path) -> None:
    _to_format(sample_store, 5)
    before = sample_store.read_bytes()
    killed = subprocess.run([sys.executable, "-c", _KILL_AT_FORMAT_8, str(sample_store)], capture_output=True,
                            text=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"), timeout=120)
    assert killed.returncode == -9, killed.stderr
    assert sample_store.read_bytes() == before  # the file itself as it was
    assert _version(sample_store) == 5  # read with what the killed process left in -wal: nothing committed
    with closing(sqlite3.connect(sample_store)) as db:  # an ordinary opener replays the log: still format 5
        assert db.execute("PRAGMA user_version").fetchone()[0] == 5
    done = _child(["upgrade", str(sample_store), "--json"])
    assert done.returncode == 0 and json.loads(done.stdout)["upgraded"]["from"] == 5, done.stderr
    assert _child(["verify", str(sample_store)]).returncode == 0


async def test_an_upgrade_another_writer_holds_off_is_store_busy_and_changes_nothing(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second writer holds a write transaction past the busy timeout while an older store is opened
    (storefault-nine): an open that upgrades at once is ``store_busy``; since storefault-eleven a held
    one reads (an upgraded copy, no lock taken) and its act is ``store_busy``; the file and its format
    as they were (changed on purpose: the open itself was refused)."""
    from inspector.services.candidates import reject
    from inspector.services.sessions import list_sessions

    _to_format(sample_store, 7)
    before = sample_store.read_bytes()
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 300)
    holder = sqlite3.connect(sample_store, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("INSERT INTO store_meta VALUES ('held', 'by another writer')")
        with pytest.raises(InspectorError) as refused:
            await open_store(sample_store, hold_upgrade=False)
        assert refused.value.code == "store_busy"
        async with await open_store(sample_store) as store:
            assert len(await list_sessions(store)) == 6
            with pytest.raises(InspectorError) as refused:
                await reject(store, "cand-stale", actor="lin", reason="stale")
        assert refused.value.code == "store_busy" and "has store format 7" in refused.value.message
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    assert sample_store.read_bytes() == before and _version(sample_store) == 7
