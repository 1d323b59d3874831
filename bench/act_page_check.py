"""What the page check before an open's first act costs (store/page_check.py), as a ratio in one run.

    python -m bench.act_page_check [--mb 60] [--rounds 7]

Two stores: the sample sessions (1.6 MB), and the same with one material of ``--mb`` megabytes
of text (a large store). For each, in one process, alternating rounds: open the store, ``reject``
a candidate (a no-op decision on an already rejected one is refused, so each round rejects a fresh
copy's candidate), close — with the whole check (every page), with the check of the tables an act
writes (what a store over ``CHECK_BELOW`` gets, storefault-eleven) and with none — and
``PRAGMA quick_check`` alone. Medians and the ratios to no check.
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
        shipped, real = page_check.CHECK_BELOW, page_check.refuse_damaged

        async def nothing(*_args: object) -> None:
            return None

        for store in stores:
            times: dict[str, list[float]] = {"whole": [], "tables": [], "none": []}
            for _ in range(rounds):
                page_check.CHECK_BELOW = 1 << 62  # every page (the shipped way under the bound)
                times["whole"].append(await one_act(store, folder / "work.db"))
                page_check.CHECK_BELOW = 0  # the tables an act writes (the shipped way over it)
                times["tables"].append(await one_act(store, folder / "work.db"))
                page_check.CHECK_BELOW, page_check.refuse_damaged = shipped, nothing  # type: ignore[assignment]
                times["none"].append(await one_act(store, folder / "work.db"))
                page_check.refuse_damaged = real
            qc = statistics.median(quick_check(store) for _ in range(rounds))
            a, t, b = (statistics.median(times[k]) for k in ("whole", "tables", "none"))
            print(f"{store.name}: {store.stat().st_size / 1e6:.1f} MB  act with the whole check {a * 1000:.1f} ms, "
                  f"with the tables an act writes {t * 1000:.1f} ms, without {b * 1000:.1f} ms (ratios {a / b:.2f}, "
                  f"{t / b:.2f}); quick_check alone {qc * 1000:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.mb, args.rounds))
