"""The hint for a missing ``--session`` reads the store without writing it (review-14, seen 7).

It opened a current-format store writable, as ``sessions`` does: closing it checkpointed the log
a killed process had left into the file, so a usage error (exit 2, "nothing changed") rewrote
the store's bytes and removed its log. Now it reads read-only (``mode=ro`` through a log,
``immutable`` without one) and leaves the file and its log byte for byte as they were, and no file it did not find.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

_KILLED_AFTER_A_COMMIT = """
import asyncio, os, sys
from inspector.services.candidates import reject
from inspector.store.connection import open_store

async def main():
    store = await open_store(sys.argv[1])
    await reject(store, "cand-goal", actor="killed", reason="stale")
    os._exit(9)  # as SIGKILL: no close, the commit only in the log

asyncio.run(main())
"""


def _folder(path: Path) -> dict[str, bytes]:
    """Each file's bytes; the log's index (``-shm``) only by its being there: SQLite's scratch,
    which a reader finding no other process on the store rebuilds from the log."""
    return {p.name: b"" if p.name.endswith("-shm") else p.read_bytes() for p in sorted(path.iterdir())}


def test_a_usage_error_leaves_a_killed_processs_log_unapplied(sample_store: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _KILLED_AFTER_A_COMMIT, str(sample_store)], check=False)
    assert done.returncode == 9 and Path(f"{sample_store}-wal").stat().st_size > 0
    before = _folder(sample_store.parent)
    result = CliRunner().invoke(cli, ["search", str(sample_store), "x"])
    assert result.exit_code == 2, result.output
    assert "Missing option '--session'" in result.output and "sessions: pass one with --session" in result.output
    assert _folder(sample_store.parent) == before  # the file and its log as they were, the index still there


def test_a_usage_error_on_a_closed_store_leaves_no_log_or_index(sample_store: Path) -> None:
    """Guard (passes before and after): a store with no log gets none from the hint."""
    before = _folder(sample_store.parent)
    result = CliRunner().invoke(cli, ["drift", str(sample_store)])
    assert result.exit_code == 2 and "sessions: pass one with --session" in result.output
    assert _folder(sample_store.parent) == before


def test_a_usage_error_with_a_log_but_no_index_leaves_no_index(sample_store: Path) -> None:
    """A log beside the store without its index (copied with the store, or its index lost):
    reading through the log makes the index; the hint removes the one it made."""
    done = subprocess.run([sys.executable, "-c", _KILLED_AFTER_A_COMMIT, str(sample_store)], check=False)
    assert done.returncode == 9
    Path(f"{sample_store}-shm").unlink()
    before = _folder(sample_store.parent)
    result = CliRunner().invoke(cli, ["search", str(sample_store), "x"])
    assert result.exit_code == 2 and "sessions: pass one with --session" in result.output
    assert _folder(sample_store.parent) == before


def test_a_left_out_id_is_named_without_applying_a_killed_processs_log(sample_store: Path) -> None:
    """The hint for a left-out HANDOFF (new-user-15) reads as the --session hint does: it named the
    store's handoffs through a writable open, whose close checkpointed the killed process's log."""
    done = subprocess.run([sys.executable, "-c", _KILLED_AFTER_A_COMMIT, str(sample_store)], check=False)
    assert done.returncode == 9 and Path(f"{sample_store}-wal").stat().st_size > 0
    before = _folder(sample_store.parent)
    result = CliRunner().invoke(cli, ["handoff", str(sample_store)])
    assert result.exit_code == 2, result.output
    assert "Missing argument 'HANDOFF'" in result.output and "holds h-" in result.output
    assert _folder(sample_store.parent) == before
