"""A follow poll with 10,000 ledger entries in the session, with and without ``ledger_kind``.

    python -m bench.follow_ledger [--entries 10000] [--rounds 3]

Store format 7 added ``ledger_kind (session, kind, seq)``: an import and every poll of a
followed transcript read the session's ``deletion`` entries (services/record_writer.py), which
``ledger_session (session, seq)`` found only by reading every entry of the session. Each round,
alternating: the real transcript's first 200 lines imported into a new store, ``--entries``
``expand`` entries appended to its session, the index dropped (or kept), then 36 of the next
lines appended and polled one at a time. Printed: the median of the deletion read (30 times)
and of the polls.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from inspector.services.following import Follower
from inspector.services.importing import import_file
from inspector.store import ledger
from inspector.store.connection import open_store

SRC = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
       / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl")
READ = "SELECT payload FROM ledger WHERE session = ? AND kind = 'deletion' AND source = 'inspector' ORDER BY seq"


async def one(folder: Path, entries: int, index: bool) -> tuple[float, float]:
    lines = SRC.read_bytes().splitlines(keepends=True)
    source = folder / SRC.name
    source.write_bytes(b"".join(lines[:200]))
    store = folder / "s.db"
    session = (await import_file(source, store, actor="bench")).sessions[0]
    async with await open_store(store) as opened:
        async with opened.transaction() as db:
            for start in range(0, entries, 1000):
                await ledger.append(db, [ledger.NewEntry(session, "expand", "bench", {"stub": f"x{start + i}"})
                                         for i in range(min(1000, entries - start))])
            if not index:
                await db.execute("DROP INDEX IF EXISTS ledger_kind")
        reads = []
        for _ in range(30):
            began = time.perf_counter()
            await opened.db.execute_fetchall(READ, (session,))
            reads.append(time.perf_counter() - began)
    follower = await Follower.open(store, source, actor="bench")
    polls = []
    try:
        for line in lines[200:236]:
            with source.open("ab") as fh:
                fh.write(line)
            began = time.perf_counter()
            await follower.poll()
            polls.append(time.perf_counter() - began)
    finally:
        await follower.close()
    return statistics.median(reads) * 1000, statistics.median(polls) * 1000


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for r in range(args.rounds):
        for index in (False, True):
            folder = Path(tempfile.mkdtemp(prefix="follow-ledger-"))
            try:
                read, poll = await one(folder, args.entries, index)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            print(f"round {r + 1} {'with' if index else 'without'} ledger_kind: deletion read {read:7.2f} ms, "
                  f"poll median {poll:6.1f} ms")


if __name__ == "__main__":
    asyncio.run(main())
