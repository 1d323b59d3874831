"""Acts on a store whose disk was full when it was opened (store-fault-eight).

A full disk cannot take WAL's index (``-shm``): the open falls back to read-only and every act
was refused ``read_only`` "is open read-only (the disk holding it is full or failing): it can be
read and verified, not changed" — a read-only medium's code, no word of the remedy — while the
same act with a little more room said ``disk_full`` "free some space and run it again". Seen on
a 6 MB tmpfs for reject, request-deletion, reconcile, delete and accept. Here the full disk is
SQLite's own answer on one (``SQLITE_IOERR_SHMSIZE``) and the free space the disk reports.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from inspector.domain.errors import InspectorError
from inspector.services.candidates import reject
from inspector.store import connection, sqlite_connections


def _full_disk(monkeypatch: pytest.MonkeyPatch, free_blocks: int) -> None:
    real, calls = sqlite_connections.configure, []

    async def no_shm(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:  # the read-only fallback's own reader
            return await real(*args, **kwargs)
        failed = sqlite3.OperationalError("disk I/O error")
        failed.sqlite_errorname = "SQLITE_IOERR_SHMSIZE"  # what SQLite says on a full tmpfs
        raise failed

    monkeypatch.setattr(sqlite_connections, "configure", no_shm)  # the writer's first statement makes -shm
    monkeypatch.setattr(os, "statvfs", lambda _p: SimpleNamespace(f_flag=0, f_bavail=free_blocks, f_frsize=4096))


async def test_an_act_on_a_store_opened_on_a_full_disk_says_the_disk_is_full(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _full_disk(monkeypatch, free_blocks=0)
    async with await connection.open_store(sample_store) as store:
        assert store.read_only
        with pytest.raises(InspectorError) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
    assert refused.value.code == "disk_full"
    assert "free some space and run it again" in refused.value.message and "nothing was written" in refused.value.message


async def test_with_room_on_the_disk_it_stays_read_only(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard (the same before and after): the open failed with room on the disk (a failing medium,
    a file-size limit) — not said to be full."""
    _full_disk(monkeypatch, free_blocks=1 << 20)  # 4 GiB free
    async with await connection.open_store(sample_store) as store:
        with pytest.raises(InspectorError) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
    assert refused.value.code == "read_only" and "full or failing" in refused.value.message


async def test_a_read_only_medium_stays_read_only(sample_store: Path) -> None:
    """Guard (the same before and after): a store opened read-only on purpose says ``read_only``."""
    async with await connection.open_store(sample_store, read_only=True) as store:
        with pytest.raises(InspectorError) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
    assert refused.value.code == "read_only"


async def test_a_full_disks_refused_act_leaves_no_log_files_behind(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 6 MB tmpfs with 0 or 16 KiB free (storefault-nine), accept, correct and delete said
    ``disk_full`` and wrote nothing, but the failed writable open had made an empty ``-wal`` and a
    ``-shm`` (SQLite makes them before it fails to size the index) and they stayed on the full disk.
    Now the read-only store the open fell back to removes them when it closes."""
    real, calls = sqlite_connections.configure, []

    async def no_shm(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) > 1:
            return await real(*args, **kwargs)
        Path(f"{sample_store}-wal").write_bytes(b"")  # what SQLite left on the full tmpfs
        Path(f"{sample_store}-shm").write_bytes(b"")
        failed = sqlite3.OperationalError("disk I/O error")
        failed.sqlite_errorname = "SQLITE_IOERR_SHMSIZE"
        raise failed

    monkeypatch.setattr(sqlite_connections, "configure", no_shm)
    monkeypatch.setattr(os, "statvfs", lambda _p: SimpleNamespace(f_flag=0, f_bavail=0, f_frsize=4096))
    before = sample_store.read_bytes()
    async with await connection.open_store(sample_store) as store:
        with pytest.raises(InspectorError) as refused:
            await reject(store, "cand-stale", actor="lin", reason="stale")
    assert refused.value.code == "disk_full"
    assert sorted(p.name for p in sample_store.parent.iterdir()) == ["samples.db"]
    assert sample_store.read_bytes() == before


@pytest.mark.parametrize("act", [
    ["accept", "cand-good"],
    ["correct", "--session", "s-export", "--key", "constraint.prod", "--value", "不得修改生产库（含备份）", "--reason", "r"],
    ["delete", "del-1"],
])
def test_the_disk_filling_during_an_act_writes_nothing(sample_store: Path, act: list[str]) -> None:
    """Guard (the same before and after; storefault-nine): the log cannot grow past 36 KB (a file-size
    limit, SQLite's "disk I/O error"): exit 3, one coded sentence, not a byte of the folder changed."""
    import json

    from tests.test_store_faults import _child

    def folder() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sample_store.parent.iterdir()}

    before = folder()
    done = _child([act[0], str(sample_store), *act[1:], "--reviewer", "lin", "--json"], fsize=36_000)
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["error"]["code"] in ("disk_full", "io_error")
    assert folder() == before
    assert _child(["verify", str(sample_store)]).returncode == 0
