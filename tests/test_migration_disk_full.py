"""A disk too full for the format upgrade an older store needs on open (store-fault-seven).

The upgrade failed (SQLITE_FULL), the store was opened read-only as on any full disk, and then
refused as ``unknown_format_version`` — "this version reads 7, and a store that cannot be
written cannot be migrated" — a sentence about versions, with nothing about the disk that is
the one thing to fix, and the refused open left an empty ``-wal`` and a 32 KiB ``-shm`` on the full
disk. Now: ``disk_full``, exit 3, naming the upgrade and the full disk; the file is untouched,
nothing is left beside it, and once space is free the same command upgrades it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from inspector.store.schema import FORMAT_VERSION
from tests.test_store_faults import _child


def _older(store: Path) -> None:
    """The store as the previous format wrote it (format 9 added the events_long_extra index, and cut
    the call-input and thinking entries longer than the index holds: the samples have none)."""
    db = sqlite3.connect(store)
    db.execute("DROP INDEX events_long_extra")
    db.execute(f"PRAGMA user_version = {FORMAT_VERSION - 1}")
    db.commit()
    db.close()  # checkpointed into the file: its bytes are what the test compares


def test_an_upgrade_the_full_disk_refuses_says_the_disk_is_full(sample_store: Path) -> None:
    _older(sample_store)
    before = sample_store.read_bytes()
    done = _child(["sessions", str(sample_store), "--json"], fsize=4096)  # no file may grow: a full disk
    assert done.returncode == 3, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "disk_full", error
    assert "must be upgraded" in error["message"] and "full" in error["message"]
    assert sample_store.read_bytes() == before
    assert sorted(p.name for p in sample_store.parent.iterdir()) == ["samples.db"]  # no -wal or -shm left on the disk
    assert _child(["sessions", str(sample_store), "--json"]).returncode == 0  # space again: read (as format 8)
    assert _child(["upgrade", str(sample_store)]).returncode == 0  # and upgraded (a read alone leaves it: storefault-ten)
    db = sqlite3.connect(sample_store)
    assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
    db.close()
