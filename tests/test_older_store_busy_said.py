"""A second command on an older store the first holds says why it waited, and the way out (review-18).

Every command upgraded an older store as it opened it (storefault-ten held that upgrade until the
first act, else rolled it back), so a read command took the write lock. Two commands at once on a
format-8 store (``report`` running, ``sessions`` started beside it): the second waited the busy
timeout and then said only "another process kept s.db locked for writing past the wait" — a reader
blocked by a reader with no word of why, nor that ``inspector upgrade`` once ends it. Since
storefault-eleven a read reads an upgraded private copy and takes no lock; an act still waits for
another writer, and says so with the format and the way out.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from inspector.domain.errors import InspectorError
from inspector.store import sqlite_connections
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION
from tests.test_format_upgrade_said import _folder, _version
from tests.test_store_faults import _child


def _to_format_8(store: Path) -> None:
    with closing(sqlite3.connect(store)) as db, db:  # as tests/test_search_long_sides.py makes one
        db.executescript("DROP INDEX events_long_extra; PRAGMA user_version = 8;")


async def test_a_command_on_an_older_store_another_holds_open_is_not_kept_waiting(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Changed on purpose (storefault-eleven): the second open used to wait and be refused
    ``store_busy``; each now reads its own upgraded copy and neither takes the write lock."""
    from inspector.services.sessions import list_sessions

    _to_format_8(sample_store)
    before = _folder(sample_store)
    monkeypatch.setattr(sqlite_connections, "BUSY_TIMEOUT_MS", 300)
    first = await open_store(sample_store)  # a read command's open
    try:
        async with await open_store(sample_store) as second:  # another, at once: not kept waiting
            assert len(await list_sessions(second)) == len(await list_sessions(first)) == 6
    finally:
        await first.close()
    assert _folder(sample_store) == before and _version(sample_store) == 8  # nothing written by either


async def test_an_act_on_an_older_store_another_writer_holds_says_the_format_and_the_way_out(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.services.candidates import reject

    _to_format_8(sample_store)
    before = _folder(sample_store)
    monkeypatch.setattr(sqlite_connections, "BUSY_TIMEOUT_MS", 300)
    first = await open_store(sample_store)
    try:
        async with await open_store(sample_store) as second:
            async with second.transaction() as db:  # the other command's act, in progress
                await db.execute("SELECT 1")
                with pytest.raises(InspectorError) as refused:
                    await reject(first, "cand-stale", actor="lin", reason="stale")
    finally:
        await first.close()
    error = refused.value
    assert error.code == "store_busy" and error.exit_code == 1
    assert f"has store format 8, which this version upgrades to {FORMAT_VERSION} with the first change" in str(error)
    assert f"`inspector upgrade {sample_store}`" in str(error) and "0.3 s wait" in str(error)
    assert _folder(sample_store) == before and _version(sample_store) == 8  # nothing written by either


def test_an_import_that_upgrades_an_older_store_never_also_says_it_was_left_as_it_was(sample_store: Path) -> None:
    """``import NEW --into s.db`` (format 8) opens the store twice: the look for an earlier import of
    the file (held, rolled back), then the import (committed). stderr said "left at format 8, as
    nothing was written" and, a line below, "upgraded store format 8 → 9" of the same store."""
    _to_format_8(sample_store)
    new = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code" / \
        "ee8f793bfeb9-0__summary_records.jsonl"
    done = _child(["import", str(new), "--into", str(sample_store)])
    assert done.returncode in (0, 1), done.stderr
    assert _version(sample_store) == FORMAT_VERSION
    said = done.stderr.splitlines()
    assert [line for line in said if line.startswith("upgraded store format 8 → ")], done.stderr
    assert not [line for line in said if "left at format" in line], done.stderr
    again = _child(["import", str(new), "--into", str(sample_store)])  # a current store now: neither said
    assert "left at format" not in again.stderr and "upgraded store" not in again.stderr


def test_a_command_that_writes_nothing_still_says_the_store_was_left_at_its_format(sample_store: Path) -> None:
    _to_format_8(sample_store)
    before = _folder(sample_store)
    read = _child(["sessions", str(sample_store)])
    refused = _child(["accept", str(sample_store), "cand-nosuch"])
    assert read.returncode == 0 and refused.returncode == 3
    for done in (read, refused):
        assert [line for line in done.stderr.splitlines() if "left at format 8" in line] != [], done.stderr
    assert refused.stderr.index("left at format 8") < refused.stderr.index("error: ")  # above the refusal
    assert _folder(sample_store) == before
