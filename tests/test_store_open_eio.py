"""A store on a failing medium, opened fresh (store-fault-eight: a loop device cut under it).

SQLite's read of a page the disk could not give came out as "vtable constructor failed:
events_fts" (the schema's FTS table), and once ext4 had remounted the disk read-only as "unable
to open database file": ``not_a_store`` "is not a readable store" — the file taken for something
else, where the disk is what failed. A read of the file that fails at the disk now says
``io_error``.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.errors import InspectorError
from inspector.store import connection, sqlite_connections


async def test_a_fresh_open_on_a_failing_disk_says_the_disk(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def unreadable(*_args: Any, **_kwargs: Any) -> None:
        raise sqlite3.OperationalError("vtable constructor failed: events_fts")  # as SQLite said it

    def failing(*_args: Any, **_kwargs: Any) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(sqlite_connections, "configure", unreadable)
    monkeypatch.setattr(os, "pread", failing)
    with pytest.raises(InspectorError) as refused:
        await connection.open_store(sample_store)
    assert refused.value.code == "io_error" and "failed at the disk" in refused.value.message


async def test_a_file_that_reads_stays_not_a_store(sample_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk reads, so the file is what is wrong: a file whose header names it a store is a
    damaged store (storefault-nine; it was ``not_a_store``, "not a readable store", while verify
    said ``damaged_store``)."""
    async def unreadable(*_args: Any, **_kwargs: Any) -> None:
        raise sqlite3.OperationalError("vtable constructor failed: events_fts")

    monkeypatch.setattr(sqlite_connections, "configure", unreadable)
    with pytest.raises(InspectorError) as refused:
        await connection.open_store(sample_store)
    assert refused.value.code == "damaged_store"
