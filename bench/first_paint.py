"""Time to first paint and peak memory of the app on a 100-event and a 1,000,000-event store.

    python -m bench.first_paint [--big 1000000] [--runs 3]

Each measurement is its own process (so memory is that process's peak RSS), from before
the app is built until the main screen shows the session's channels and first timeline page.
Stores are built once under bench/out/ and reused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.make_data import write_events_file
from inspector.services.importing import import_file

OUT = Path(__file__).resolve().parent / "out"


def build_store(events: int) -> Path:
    OUT.mkdir(exist_ok=True)
    store = OUT / f"paint-{events}.db"
    if not store.exists():
        src = write_events_file(OUT / f"paint-{events}.jsonl", events)
        started = time.perf_counter()
        asyncio.run(import_file(src, store, actor="bench"))
        print(f"built {store.name} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
        src.unlink()
    return store


def measure_once(store: Path) -> dict[str, float]:
    """Runs inside the child process."""
    started = time.perf_counter()
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.timeline_view import TimelineView

    async def run() -> float:
        app = InspectorApp(store)
        async with app.run_test(size=(200, 50)) as pilot:
            while True:
                await pilot.pause(0.005)
                screen = app.screen
                views = screen.query(TimelineView) if screen is not None else []
                if views and views.first().rows:
                    return time.perf_counter() - started

    painted = asyncio.run(run())
    return {"first_paint_s": painted, "peak_rss_mb": peak_rss_mb()}


def peak_rss_mb() -> float:
    """This process image's peak RSS (VmHWM): unlike ru_maxrss it is not carried over exec."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure_once(Path(args.child))))
        return
    stores = {100: build_store(100), args.big: build_store(args.big)}
    results: dict[int, list[dict[str, float]]] = {n: [] for n in stores}
    for _ in range(args.runs):
        for n, store in stores.items():  # interleaved, so load on the machine hits both alike
            out = subprocess.run([sys.executable, "-m", "bench.first_paint", "--child", str(store)],
                                 capture_output=True, text=True, check=True)
            results[n].append(json.loads(out.stdout.strip().splitlines()[-1]))
    small, big = (statistics.median(r["first_paint_s"] for r in results[n]) for n in stores)
    for n in stores:
        paint = statistics.median(r["first_paint_s"] for r in results[n])
        rss = max(r["peak_rss_mb"] for r in results[n])
        print(f"{n:>9,} events: first paint {paint * 1000:7.0f} ms (median of {args.runs}), peak RSS {rss:6.1f} MB")
    print(f"ratio big/small: {big / small:.2f}x (target ≤ 2.00x)")


if __name__ == "__main__":
    main()
