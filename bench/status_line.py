"""What the status line needs after a session opens, at size, beside the bare count.

    python -m bench.status_line STORE [SESSION]

Times (medians of 3, fresh store each) the header's session row, its badges and the
timeline totals -- everything the status line shows -- against the bare
``SELECT COUNT(*)`` of the session's events. Target: complete within 1 s at 1M events.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import time

from inspector.services import overview, timeline
from inspector.store.connection import open_store


async def status_line(path: str, session: str) -> dict[str, float]:
    async with await open_store(path) as store:
        start = time.perf_counter()
        await overview.get_session(store, session)
        header = time.perf_counter()
        await overview.session_badges(store, session)
        badges = time.perf_counter()
        await timeline.counts(store, session)
        done = time.perf_counter()
    return {"session row": header - start, "badges": badges - header, "totals": done - badges,
            "status line": done - start}


def bare_count(path: str, session: str) -> float:
    con = sqlite3.connect(path)
    start = time.perf_counter()
    con.execute("SELECT COUNT(*) FROM events WHERE session = ?", (session,)).fetchone()
    elapsed = time.perf_counter() - start
    con.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", help="a store (e.g. the one bench.search_speed --keep built)")
    parser.add_argument("session", nargs="?", default="s-bench")
    args = parser.parse_args()
    path, session = args.store, args.session
    runs = [asyncio.run(status_line(path, session)) for _ in range(3)]
    base = statistics.median(bare_count(path, session) for _ in range(3))
    print(f"bare COUNT(*): {base * 1000:.0f} ms")
    for key in runs[0]:
        value = statistics.median(r[key] for r in runs)
        print(f"{key}: {value * 1000:.0f} ms ({value / base:.1f}× the bare count)")


if __name__ == "__main__":
    main()
