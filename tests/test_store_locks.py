"""A second Store opened in a process that already has the store open (the app's follower beside
the app) must not drop the process's SQLite locks.

POSIX advisory locks belong to the process, and closing any descriptor of the file drops them
all: open_store read the file's header with a plain open/close, so after the follower opened
its Store, another process writing the store (a second reviewer's CLI) took itself for the only
connection, deleted the write-ahead log and its index on close, and the app never saw its
commit — no "Changed elsewhere", and later reads failed with "disk I/O error".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from inspector.store.connection import data_version, open_store
from tests.conftest import event_record, session_record


def tiny(path: Path, sid: str) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in ({"type": "header", "format": "sif/1"}, session_record(sid),
                                                      event_record(1, sid))) + "\n", encoding="utf-8")
    return path


def import_elsewhere(source: Path, store: Path) -> None:
    """An import by another process (the CLI, as a second reviewer runs it)."""
    subprocess.run([sys.executable, "-c", "import sys; from inspector.cli.entry import main; main(sys.argv[1:])",
                    "import", str(source), "--into", str(store)],
                   env={**os.environ, "INSPECTOR_REVIEWER": "bo"}, check=True, capture_output=True,
                   cwd=Path(__file__).resolve().parents[1])


async def test_another_process_commit_is_seen_after_a_second_store_opened_in_this_one(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    import_elsewhere(tiny(tmp_path / "a.jsonl", "s-a"), db)
    async with await open_store(db) as app_store:
        before = await data_version(app_store.watch_db)
        async with await open_store(db) as follower_store:  # opened and closed beside the app's
            assert await follower_store.db.execute_fetchall("SELECT COUNT(*) FROM sessions")
        import_elsewhere(tiny(tmp_path / "b.jsonl", "s-b"), db)
        assert Path(f"{db}-wal").exists(), "the other process deleted the write-ahead log the app still uses"
        assert await data_version(app_store.watch_db) != before, "the other process's commit was not seen"
        rows = await app_store.db.execute_fetchall("SELECT id FROM sessions ORDER BY id")
        assert [r[0] for r in rows] == ["s-a", "s-b"]


async def test_a_file_that_is_not_a_store_is_still_refused(tmp_path: Path) -> None:
    """The header is still read when this process holds no connection to the file."""
    import pytest

    from inspector.domain.errors import NotAStore

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 10)
    with pytest.raises(NotAStore):
        await open_store(junk)
