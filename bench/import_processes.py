"""Does the import's worker pool earn its place? One process against the pool, same file, one run.

    python -m bench.import_processes [--events 200000] [--runs 2]

Each import runs in a fresh process (``python -c``), alternating the order every run;
printed per mode: wall seconds, CPU seconds (the process and its workers) and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.make_data import write_events_file

RUN = """
import asyncio, json, resource, sys, time
from pathlib import Path
from inspector.services.importing import import_file
import os
os.environ["INSPECTOR_IMPORT_WORKERS"] = "0" if sys.argv[3] == "one" else "1"
start, cpu = time.perf_counter(), time.process_time()
asyncio.run(import_file(Path(sys.argv[1]), Path(sys.argv[2]), actor="bench"))
wall = time.perf_counter() - start
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
                  "rss_mb": max(me.ru_maxrss, kids.ru_maxrss) / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = write_events_file(Path(tmp) / "e.jsonl", args.events)
        results: dict[str, list[dict[str, float]]] = {"one": [], "pool": []}
        for run in range(args.runs):
            for mode in (("one", "pool") if run % 2 == 0 else ("pool", "one")):
                store = Path(tmp) / f"{mode}{run}.db"
                out = subprocess.run([sys.executable, "-c", RUN, str(src), str(store), mode], capture_output=True,
                                     text=True, check=True)
                results[mode].append(json.loads(out.stdout))
                store.unlink()
        size = src.stat().st_size / 1e6
        for mode, rows in results.items():
            med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
            print(f"{mode:>4}: {args.events:,} events ({size:.0f} MB): wall {med['wall']:.1f} s, "
                  f"CPU {med['cpu']:.1f} s, peak RSS {med['rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
