"""Where the tests' PostgreSQL server keeps its files: in memory only where there is room.

A container's /dev/shm is often 64 MB; a run's databases are a few hundred MB, so a server put
there would fail half-way through the run with "no space left" instead of running on the disk.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests import pg_cluster


class _Room:
    def __init__(self, free: int) -> None:
        self.f_bavail, self.f_frsize = free // 4096, 4096


@pytest.mark.parametrize(("free", "chosen"), [(64 << 20, None), (pg_cluster.MEMORY_NEEDED - 4096, None),
                                              (pg_cluster.MEMORY_NEEDED, pg_cluster.MEMORY_FOLDER),
                                              (24 << 30, pg_cluster.MEMORY_FOLDER)])
def test_memory_is_chosen_only_with_room_for_a_runs_databases(monkeypatch: pytest.MonkeyPatch, free: int,
                                                               chosen: Path | None) -> None:
    monkeypatch.setattr(pg_cluster.os, "statvfs", lambda path: _Room(free))
    monkeypatch.setattr(pg_cluster.os, "access", lambda path, mode: True)
    assert pg_cluster.memory_folder() == chosen


def test_no_memory_folder_or_one_not_writable_is_the_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(path: object) -> os.statvfs_result:
        raise FileNotFoundError(path)

    monkeypatch.setattr(pg_cluster.os, "statvfs", missing)
    assert pg_cluster.memory_folder() is None
    monkeypatch.setattr(pg_cluster.os, "statvfs", lambda path: _Room(24 << 30))
    monkeypatch.setattr(pg_cluster.os, "access", lambda path, mode: False)
    assert pg_cluster.memory_folder() is None
