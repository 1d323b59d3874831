"""``inspector sessions --json`` against importing only what listing needs, in one run.

    python -m bench.cli_startup STORE

The baseline is a Python process that imports click, the store connection and the session
read model and lists the sessions (what the command cannot do without). Medians of 9.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

BASELINE = ("import asyncio, json, click; from inspector.services import sessions; "
            "from inspector.store.connection import open_store\n"
            "async def go():\n"
            "    async with await open_store(sys.argv[1]) as s:\n"
            "        print(json.dumps([x.as_dict() for x in await sessions.list_sessions(s)]))\n"
            "import sys; asyncio.run(go())")


def median_run(cmd: list[str]) -> float:
    times = []
    for _ in range(9):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="a store whose sessions both processes list")
    store = parser.parse_args().store
    command = median_run([sys.executable, "-m", "inspector", "sessions", store, "--json"])
    baseline = median_run([sys.executable, "-c", BASELINE, store])
    print(f"inspector sessions --json: {command:.3f} s; importing only what it needs: {baseline:.3f} s; "
          f"ratio {command / baseline:.2f}× (target ≤ 1.2×)")


if __name__ == "__main__":
    main()
