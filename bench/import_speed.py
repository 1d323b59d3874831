"""Import throughput vs a bare SQLite executemany of the same rows, in one run.

    python -m bench.import_speed [--events 200000]

The machine is shared and noisy, so the figure that matters is the ratio between the
two measured side by side, plus the absolute events/s for the target (≥ 60,000/s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.make_data import write_events_file
from inspector.services.importing import import_file


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = write_events_file(root / "bench.jsonl", args.events)
        bare = bare_executemany(src, root / "bare.db")
        start = time.perf_counter()
        asyncio.run(import_file(src, root / "store.db", actor="bench"))
        ours = time.perf_counter() - start
        start = time.perf_counter()
        asyncio.run(import_file(src, root / "store.db", actor="bench"))
        again = time.perf_counter() - start
    print(f"events: {args.events}")
    print(f"bare json+executemany: {args.events / bare:>10,.0f} events/s ({bare:.2f} s)")
    print(f"inspector import:      {args.events / ours:>10,.0f} events/s ({ours:.2f} s)  "
          f"= {ours / bare:.2f}x the bare time")
    print(f"re-import (all skipped): {args.events / again:>8,.0f} events/s ({again:.2f} s)")


if __name__ == "__main__":
    main()
