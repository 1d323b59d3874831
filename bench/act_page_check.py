"""What the page check before an open's first act costs (store/page_check.py), as a ratio in one run.

    python -m bench.act_page_check [--mb 60] [--rounds 7]

Two stores: the sample sessions (1.6 MB), and the same with one material of ``--mb`` megabytes
of text (a large store). For each, in one process, alternating rounds: open the store, ``reject``
a candidate (a no-op decision on an already rejected one is refused, so each round rejects a fresh
copy's candidate), close — with the check as shipped and with it switched off
(``CHECK_BELOW = 0``) — and ``PRAGMA quick_check`` alone. Medians and the ratio check/no check.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import string
import tempfile
import time
from contextlib import closing
from pathlib import Path

from inspector.services.candidates import reject
from inspector.services.importing import import_file
from inspector.store import page_check
from inspector.store.connection import open_store

SAMPLES = sorted((Path(__file__).parents[1] / "sample_sessions").glob("*.jsonl"))


async def build(folder: Path, mb: int) -> tuple[Path, Path]:
    small = folder / "small.db"
    for source in SAMPLES:
        await import_file(source, small, actor="bench")
    big = folder / "big.db"
    shutil.copyfile(small, big)
    words = ["".join(random.choices(string.ascii_lowercase, k=random.randint(3, 9))) for _ in range(5000)]
    text = " ".join(random.choices(words, k=mb * 1024 * 1024 // 6))[: mb * 1024 * 1024]
    sif = folder / "big.jsonl"
    records = [{"type": "header", "format": "sif/1"}, {"type": "session", "id": "s-big", "title": "big", "owner": "b"},
               {"type": "event", "session": "s-big", "seq": 1, "kind": "tool_result", "content": "see material",
                "trust": "tool", "at": "2026-01-01T00:00:00Z"},
               {"type": "material", "session": "s-big", "id": "res:big", "source_event": 1, "encoding": "utf-8",
                "content": text, "retrieved_at": "2026-01-01T00:00:00Z", "disclosure_scope": "team"}]
    sif.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    await import_file(sif, big, actor="bench")
    return small, big


async def one_act(master: Path, work: Path) -> float:
    shutil.copyfile(master, work)
    started = time.perf_counter()
    async with await open_store(work) as store:
        await reject(store, "cand-stale", actor="bench", reason="bench")
    return time.perf_counter() - started


def quick_check(store: Path) -> float:
    with closing(sqlite3.connect(store)) as db:
        started = time.perf_counter()
        db.execute("PRAGMA quick_check").fetchall()
        return time.perf_counter() - started


async def main(mb: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        stores = await build(folder, mb)
        shipped = page_check.CHECK_BELOW
        for store in stores:
            with_check: list[float] = []
            without: list[float] = []
            for _ in range(rounds):
                page_check.CHECK_BELOW = shipped
                with_check.append(await one_act(store, folder / "work.db"))
                page_check.CHECK_BELOW = 0
                without.append(await one_act(store, folder / "work.db"))
            page_check.CHECK_BELOW = shipped
            qc = statistics.median(quick_check(store) for _ in range(rounds))
            a, b = statistics.median(with_check), statistics.median(without)
            print(f"{store.name}: {store.stat().st_size / 1e6:.1f} MB  act with check {a * 1000:.1f} ms, without "
                  f"{b * 1000:.1f} ms, ratio {a / b:.2f}; quick_check alone {qc * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.mb, args.rounds))
