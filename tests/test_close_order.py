"""A store closed while its reader is still busy leaves no log beside it.

Only the connection that closes last checkpoints the ``-wal`` into the file and removes it (with
its ``-shm``). When a store's connections were closed all at once, a reader still finishing a
query could close after the writer: the whole log stayed beside the store, so a command that
"writes nothing" left two new files, and the next open had a log to read first.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from inspector.services.importing import import_file
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store

from .conftest import event_record, session_record, write_sif

# A query that keeps the reader's thread busy for a while (a few hundred milliseconds).
SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c"


async def test_a_store_closed_while_its_reader_works_leaves_no_log(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    records = [session_record(), *(event_record(seq) for seq in range(1, 40))]
    await import_file(write_sif(tmp_path / "a.jsonl", records), path, actor="t")
    opened = await open_store(path)
    await catch_up(opened)  # a write: the log now holds pages the file does not
    assert Path(f"{path}-wal").exists()
    busy = asyncio.ensure_future(opened.db.execute_fetchall(SLOW))
    await asyncio.sleep(0.05)  # the slow query is running on the reader's thread
    await opened.close()
    assert (await busy)[0][0] == 2000000  # the reader finished what it had been asked
    assert not Path(f"{path}-wal").exists()
    assert not Path(f"{path}-shm").exists()
