"""The search indexes' catch-up after an import (the first search's wait), this tree against another, in one run.

    python -m bench.catch_up_speed [--mb 4] [--runs 9] [--against main] [--events 100000]

The 4 MB transcript of bench/import_transcript.py (real Claude Code files repeated under one
session) is imported once; each run copies that store and catches its search indexes up
(inspector/store/catch_up.py: what the first search, or the app after its first paint, does) in a
fresh process with this tree's ``inspector`` and with ``REV``'s, the trees alternating in order.
In the same processes, after the catch-up, the short-query gram function (``ci_grams``) alone over
every text the catch-up gave it (the events', the call inputs' and the thinking texts' indexed
parts, read back from the store), timed by itself. Printed: medians of CPU (the process's, every
thread) and wall time, and the ratios. ``--events N`` also does the same for bench/make_data.py's
N-event file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.drift_compare import extract_old
from bench.import_extract import SOURCES, build
from bench.import_speed import REPO
from bench.make_data import write_events_file

RUN = r"""
import asyncio, json, sqlite3, sys, time
from pathlib import Path
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store import grams
store = Path(sys.argv[1])

async def index():
    async with await open_store(store) as opened:
        return await catch_up(opened)

cpu, wall = time.process_time(), time.perf_counter()
assert asyncio.run(index()) > 0
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
with sqlite3.connect(store) as db:
    texts = [t for (t,) in db.execute("SELECT CASE WHEN length(content) > 10000 THEN substr(content, 1, 10000) "
                                      "ELSE content END FROM events WHERE content IS NOT NULL")]
    texts += [t for (t,) in db.execute("SELECT text FROM calls_fts")] + [t for (t,) in db.execute("SELECT text FROM reasoning_fts")]
best = None
for _ in range(5):
    start = time.process_time()
    for t in texts:
        grams.grams(t)
    took = time.process_time() - start
    best = took if best is None else min(best, took)
print(json.dumps({"cpu": cpu, "wall": wall, "grams": best, "texts": len(texts), "chars": sum(map(len, texts))}))
"""


def once(store: Path, work: Path, code: Path) -> dict[str, float]:
    for p in work.parent.glob(work.name + "*"):
        p.unlink()
    for suffix in ("", "-wal"):  # the store as the import left it (its log too, should one be left)
        if Path(f"{store}{suffix}").exists():
            shutil.copy(f"{store}{suffix}", f"{work}{suffix}")
    out = subprocess.run([sys.executable, "-c", RUN, str(work)], capture_output=True, text=True, check=True,
                         cwd=code, env={**os.environ, "PYTHONPATH": str(code)})
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def compare(label: str, store: Path, trees: dict[str, Path], runs: int) -> None:
    found: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for run in range(runs):
        for name in (list(trees) if run % 2 == 0 else list(trees)[::-1]):
            found[name].append(once(store, store.with_name("work.db"), trees[name]))
    first = found[next(iter(trees))][0]
    print(f"\n{label}: {first['texts']:,} texts, {first['chars']:,} characters given to ci_grams; medians of {runs} "
          "runs, fresh processes, trees alternating")
    print("| tree | catch-up CPU | catch-up wall | `ci_grams` alone (CPU, least of 5) |")
    print("|---|---:|---:|---:|")
    med = {name: {k: statistics.median(r[k] for r in rows) for k in ("cpu", "wall", "grams")}
           for name, rows in found.items()}
    for name, m in med.items():
        print(f"| {name} | {m['cpu'] * 1000:,.0f} ms | {m['wall'] * 1000:,.0f} ms | {m['grams'] * 1000:,.1f} ms |")
    if len(med) == 2:
        (a, ma), (b, mb) = med.items()
        print(f"| {a} ÷ {b} | {ma['cpu'] / mb['cpu']:.2f}× | {ma['wall'] / mb['wall']:.2f}× | "
              f"{ma['grams'] / mb['grams']:.2f}× |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", metavar="REV", default="main")
    parser.add_argument("--events", type=int, default=0, help="also bench/make_data.py's file of this many events")
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    from inspector.services.importing import import_file

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old = root / "old"
        extract_old(args.against, old)
        trees = {"this tree": REPO, args.against: old}
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024))
        (root / "t").mkdir()
        asyncio.run(import_file(src, root / "t" / "s.db", actor="bench"))
        compare(f"the {args.mb:g} MB transcript", root / "t" / "s.db", trees, args.runs)
        if args.events:
            (root / "e").mkdir()
            events = write_events_file(root / "events.jsonl", args.events)
            asyncio.run(import_file(events, root / "e" / "s.db", actor="bench"))
            compare(f"{args.events:,} events of bench/make_data.py", root / "e" / "s.db", trees, args.runs)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
