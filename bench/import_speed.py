"""Import throughput vs a bare SQLite executemany of the same rows, in one run.

    python -m bench.import_speed [--events 100000] [--runs 5] [--against main]

``--without-search-index`` (bench only) makes the import's search indexing a no-op in every
import measured, to time the rest on its own.

The machine is shared and noisy, so the figure that matters is the ratio between the two
measured side by side: each run times the bare baseline (``json.loads`` of every line and
one ``executemany`` into a one-table store) and ``import_file`` into a new store, in
alternating order, each in a fresh process so neither inherits the other's memory or
caches. Printed: medians of wall and CPU time (the process's, all its threads), the ratios,
and the re-import of the unchanged file (answered from the ledger) against the full import.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
if sys.argv[4:] == ["no-search-index"]:
    from bench.import_speed import without_search_index
    without_search_index()
if mode == "bare":
    from bench.import_speed import bare_executemany
    cpu = time.process_time()
    wall = bare_executemany(src, db)
else:
    from inspector.services.importing import import_file
    cpu, start = time.process_time(), time.perf_counter()
    asyncio.run(import_file(src, db, actor="bench"))
    wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "cpu": time.process_time() - cpu}))
"""


REPO = Path(__file__).resolve().parents[1]


def without_search_index() -> None:
    """Bench-only: make the import's search indexing (events_fts, events_grams) a no-op, to
    measure the rest of the import on its own (``--without-search-index``)."""
    from inspector.store import search_index

    async def skip(db: object, last_event_id: int) -> None:
        return None

    search_index.index_events_after = skip  # type: ignore[assignment]


def timed(src: Path, db: Path, mode: str, code: Path = REPO, *, index: bool = True) -> dict[str, float]:
    """One measurement in a fresh process; ``code``: the tree whose ``inspector`` package runs."""
    out = subprocess.run([sys.executable, "-c", RUN, str(src), str(db), mode, *([] if index else ["no-search-index"])],
                         capture_output=True, text=True, check=True, cwd=code,
                         env={**os.environ, "PYTHONPATH": str(REPO)})  # bench/ from here, inspector/ from ``code``
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also import with the inspector package of this git "
                        "revision (e.g. main), in the same alternating runs")
    parser.add_argument("--without-search-index", action="store_true", help="bench-only: skip the import's "
                        "search indexing (events_fts, events_grams), to measure the rest on its own")
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"bare": [], "import": [], "again": [], "old": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = write_events_file(root / "bench.jsonl", args.events)
        old = root / "old"
        modes = ["bare", "import"]
        if args.against:
            old.mkdir()
            archive = subprocess.run(["git", "archive", args.against, "inspector"], cwd=REPO, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            modes.append("old")
        for run in range(args.runs):
            for mode in (modes if run % 2 == 0 else modes[::-1]):
                db = root / f"{mode}{run}.db"
                results[mode].append(timed(src, db, "bare" if mode == "bare" else "import",
                                           old if mode == "old" else REPO, index=not args.without_search_index))
                if mode == "import":
                    # the same file into the same store
                    results["again"].append(timed(src, db, "import", index=not args.without_search_index))
                for p in root.glob(f"{mode}{run}.db*"):
                    p.unlink()
    med = {m: {k: statistics.median(r[k] for r in rows) for k in ("wall", "cpu")} for m, rows in results.items()
           if rows}
    bare, ours, again = med["bare"], med["import"], med["again"]
    n = args.events
    print(f"{n:,} events, medians of {args.runs} alternating runs, each in its own process"
          + (" (search indexing skipped: --without-search-index)" if args.without_search_index else ""))
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
    print(f"| re-import of the unchanged file | {again['wall']:.3f} s | {again['cpu']:.3f} s | | "
          f"{again['wall'] / ours['wall'] * 100:.1f}% of the full import |")


if __name__ == "__main__":
    main()
