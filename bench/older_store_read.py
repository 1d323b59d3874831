"""What a read command costs on an older store (read through an upgraded private copy,
store/read_copy.py) against the same read on a current store, as ratios in one run.

    python -m bench.older_store_read [--mb 60] [--rounds 5]

Two stores, as bench/act_page_check.py builds them: the sample sessions (1.6 MB) and the same with
one material of ``--mb`` megabytes (a large store); each at the current format and at format 8
(format 9's index dropped and the number lowered, as tests/test_older_store_busy_said.py does). A
round, in this process, alternating: open + list the sessions + close (a ``sessions`` command
without Python's start). Then the wait a second read meets while a first holds an older store open
(the held upgrade of storefault-ten held the write lock there: the second waited for the first).
Medians; the ratio older / current.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from pathlib import Path

from bench.act_page_check import build
from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store


def to_format_8(store: Path) -> None:
    with closing(sqlite3.connect(store)) as db, db:
        db.executescript("DROP INDEX events_long_extra; PRAGMA user_version = 8;")


async def one_read(store: Path) -> float:
    started = time.perf_counter()
    async with await open_store(store) as opened:
        await list_sessions(opened)
    return time.perf_counter() - started


async def second_read_beside(store: Path) -> float:
    """How long a second open + read takes while a first holds the same store open."""
    first = await open_store(store)
    try:
        await list_sessions(first)
        return await one_read(store)
    finally:
        await first.close()


async def main(mb: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        small, big = await build(folder, mb)
        for name, current in (("samples", small), (f"+{mb} MB", big)):
            older = folder / f"older-{current.name}"
            shutil.copyfile(current, older)
            to_format_8(older)
            times: dict[str, list[float]] = {"current": [], "older": [], "beside": []}
            for _ in range(rounds):
                times["current"].append(await one_read(current))
                times["older"].append(await one_read(older))
                times["beside"].append(await second_read_beside(older))
            med = {k: statistics.median(v) * 1000 for k, v in times.items()}
            size = current.stat().st_size / 1e6
            print(f"{name} ({size:.1f} MB): read current {med['current']:.1f} ms, older {med['older']:.1f} ms "
                  f"(×{med['older'] / med['current']:.1f}); a second read while a first holds the older store: "
                  f"{med['beside']:.1f} ms (not kept waiting)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.mb, args.rounds))
