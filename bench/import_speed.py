"""Import throughput vs a bare SQLite executemany of the same rows, in one run.

    python -m bench.import_speed [--events 100000] [--runs 5] [--against main]

The machine is shared and noisy, so the figure that matters is the ratio between the two
measured side by side: each run times the bare baseline (``json.loads`` of every line and
one ``executemany`` into a one-table store) and ``import_file`` into a new store, in
alternating order, each in a fresh process so neither inherits the other's memory or
caches. Printed: medians of wall and CPU time (the process's, all its threads), the ratios,
the re-import of the unchanged file (answered from the ledger) against the full import, and
the search index catch-up that follows an import (its own process: the work that moved out of
the import, inspector/store/catch_up.py), beside the import and the two together.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.drift_compare import extract_old
from bench.make_data import write_events_file


def bare_executemany(src: Path, db: Path) -> float:
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE events (session TEXT, seq INTEGER, kind TEXT, content TEXT, extra TEXT, "
                "PRIMARY KEY(session, seq))")
    start = time.perf_counter()
    rows = []
    for line in src.read_bytes().split(b"\n")[2:]:
        if line:
            r = json.loads(line)
            rows.append((r["session"], r["seq"], r["kind"], r.get("content"), line))
    con.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
    con.commit()
    elapsed = time.perf_counter() - start
    con.close()
    return elapsed


RUN = """
import asyncio, json, sys, time
from pathlib import Path
src, db, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
if mode == "bare":
    from bench.import_speed import bare_executemany
    cpu = time.process_time()
    wall = bare_executemany(src, db)
elif mode == "catch-up":
    from inspector.store.catch_up import catch_up
    from inspector.store.connection import open_store
    async def index():
        async with await open_store(db) as store:
            return await catch_up(store)
    cpu, start = time.process_time(), time.perf_counter()
    assert asyncio.run(index()) > 0
    wall = time.perf_counter() - start
else:
    from inspector.services.importing import import_file
    cpu, start = time.process_time(), time.perf_counter()
    asyncio.run(import_file(src, db, actor="bench"))
    wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "cpu": time.process_time() - cpu}))
"""


REPO = Path(__file__).resolve().parents[1]


def timed(src: Path, db: Path, mode: str, code: Path = REPO) -> dict[str, float]:
    """One measurement in a fresh process; ``code``: the tree whose ``inspector`` package runs."""
    out = subprocess.run([sys.executable, "-c", RUN, str(src), str(db), mode], capture_output=True, text=True,
                         check=True, cwd=code)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also import with the inspector package of this git "
                        "revision (e.g. main), in the same alternating runs")
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"bare": [], "import": [], "again": [], "old": [], "index": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = write_events_file(root / "bench.jsonl", args.events)
        old = root / "old"
        modes = ["bare", "import"]
        if args.against:
            extract_old(args.against, old)
            modes.append("old")
        for run in range(args.runs):
            for mode in (modes if run % 2 == 0 else modes[::-1]):
                db = root / f"{mode}{run}.db"
                results[mode].append(timed(src, db, "bare" if mode == "bare" else "import",
                                           old if mode == "old" else REPO))
                if mode == "import":
                    results["index"].append(timed(src, db, "catch-up"))  # what the first search does
                    results["again"].append(timed(src, db, "import"))  # the same file into the same store
                for p in root.glob(f"{mode}{run}.db*"):
                    p.unlink()
    med = {m: {k: statistics.median(r[k] for r in rows) for k in ("wall", "cpu")} for m, rows in results.items()
           if rows}
    bare, ours, again, index = med["bare"], med["import"], med["again"], med["index"]
    n = args.events
    print(f"{n:,} events, medians of {args.runs} alternating runs, each in its own process")
    print("| what | wall | CPU | events/s (wall) | × the bare time (wall / CPU) |")
    print("|---|---:|---:|---:|---:|")
    print(f"| bare `json.loads` + `executemany` | {bare['wall']:.2f} s | {bare['cpu']:.2f} s | "
          f"{n / bare['wall']:,.0f} | 1× |")
    print(f"| `inspector import` | {ours['wall']:.2f} s | {ours['cpu']:.2f} s | {n / ours['wall']:,.0f} | "
          f"**{ours['wall'] / bare['wall']:.2f}× / {ours['cpu'] / bare['cpu']:.2f}×** "
          f"(rate {bare['wall'] / ours['wall']:.2f}× the bare rate) |")
    if "old" in med:
        before = med["old"]
        print(f"| `inspector import` at {args.against} | {before['wall']:.2f} s | {before['cpu']:.2f} s | "
              f"{n / before['wall']:,.0f} | {before['wall'] / bare['wall']:.2f}× / {before['cpu'] / bare['cpu']:.2f}× |")
    print(f"| search index catch-up after it (first search / the app after first paint) | {index['wall']:.2f} s | "
          f"{index['cpu']:.2f} s | {n / index['wall']:,.0f} | {index['wall'] / bare['wall']:.2f}× / "
          f"{index['cpu'] / bare['cpu']:.2f}× |")
    both = {k: ours[k] + index[k] for k in ("wall", "cpu")}
    print(f"| import + catch-up | {both['wall']:.2f} s | {both['cpu']:.2f} s | {n / both['wall']:,.0f} | "
          f"{both['wall'] / bare['wall']:.2f}× / {both['cpu'] / bare['cpu']:.2f}× |")
    print(f"| re-import of the unchanged file | {again['wall']:.3f} s | {again['cpu']:.3f} s | | "
          f"{again['wall'] / ours['wall'] * 100:.1f}% of the full import |")


if __name__ == "__main__":
    main()
