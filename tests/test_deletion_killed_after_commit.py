"""A deletion killed after its commit and before its checkpoint (store-fault-six).

The commit is in the log; the file's pages still hold what it removed until the log is copied
into it. Nothing said so, and the text stayed there until some later process happened to close
the store last (a long-running app never did). Now every writable open finishes it — the text
is gone from the file before the command does anything else — and a store that cannot finish it
(opened read-only here) names it in ``verify`` (``deleted_text_in_file``) and in the app.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

PHONE = b"138-0013-8000"  # in evt:4, the summary and the candidate of 05_privacy_deletion

_KILLED_BEFORE_THE_CHECKPOINT = """
import asyncio, os, sys
from inspector.services import deletions
from inspector.store.connection import open_store

async def killed(store):
    os._exit(9)  # as SIGKILL right after the deletion's COMMIT

deletions.checkpoint = killed

async def main():
    store = await open_store(sys.argv[1])
    await deletions.delete(store, "del-1", actor="zhou")

asyncio.run(main())
"""


def _killed_deletion(store: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _KILLED_BEFORE_THE_CHECKPOINT, str(store)], check=False)
    assert done.returncode == 9
    assert PHONE in store.read_bytes()  # the case: the deletion committed, its text still in the file


async def test_the_next_open_finishes_a_deletion_killed_before_its_checkpoint(sample_store: Path) -> None:
    _killed_deletion(sample_store)
    async with await open_store(sample_store) as store:
        assert PHONE not in sample_store.read_bytes()  # at open, not only once the store is closed
        assert not Path(f"{sample_store}-wal").exists() or Path(f"{sample_store}-wal").stat().st_size == 0
        assert store.deleted_text_in_file is None
        report = await verify_store(store)
    assert report.ok and report.as_dict()["deleted_text_in_file"] is None


async def test_a_store_that_cannot_finish_it_says_so(sample_store: Path) -> None:
    _killed_deletion(sample_store)
    async with await open_store(sample_store, read_only=True) as store:
        said = store.deleted_text_in_file
        assert said is not None and said["request"] == "del-1"
        assert "deletion's text is still in the store's file" in said["message"]
        report = await verify_store(store)
    assert report.ok  # not a break: the chain and the rows are whole
    assert report.as_dict()["deleted_text_in_file"]["request"] == "del-1"
