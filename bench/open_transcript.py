"""Opening a ~500 KB Claude Code session to first paint, cold and warm, whole process.

    python -m bench.open_transcript [--runs 5]

Cold: no store yet (``inspector FILE`` imports it, then paints). Warm: the store beside it
exists and the file is unchanged (no re-import). Target (issue #8): at most half of what an
existing viewer needs here (about 1.1 s warm, 2.1 s cold), i.e. ≤ 0.55 s warm, ≤ 1.05 s cold.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILE = (Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
        / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl")


def child(path: Path) -> float:
    started = time.perf_counter()
    from inspector.cli.open_command import resolve_target
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.timeline_view import TimelineView

    async def run() -> float:
        store = await resolve_target(path)
        app = InspectorApp(store)
        async with app.run_test(size=(200, 50)) as pilot:
            while True:
                await pilot.pause(0.005)
                views = app.screen.query(TimelineView) if app.screen is not None else []
                if views and views.first().rows:
                    return time.perf_counter() - started

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(Path(args.child))))
        return
    cold, warm = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            copy = Path(tmp) / f"run{run}" / FILE.name
            copy.parent.mkdir()
            shutil.copy(FILE, copy)
            for bucket in (cold, warm):
                out = subprocess.run([sys.executable, "-m", "bench.open_transcript", "--child", str(copy)],
                                     capture_output=True, text=True, check=True)
                bucket.append(json.loads(out.stdout.strip().splitlines()[-1]))
    print(f"{FILE.name} ({FILE.stat().st_size / 1024:.0f} KB)")
    from inspector.services.importing import import_file

    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(FILE.parent.glob("*.jsonl")):
            start = time.perf_counter()
            report = asyncio.run(import_file(path, Path(tmp) / f"{path.stem}.db", actor="bench"))
            took = time.perf_counter() - start
            print(f"  import {path.name[:40]:<40} {path.stat().st_size / 1024:6.0f} KB  {report.added['event']:4} events  "
                  f"{took * 1000:5.0f} ms  ({path.stat().st_size / 1024 / took:,.0f} KB/s)")
    print(f"cold (import + first paint): {statistics.median(cold) * 1000:6.0f} ms median of {args.runs} (target ≤ 1050)")
    print(f"warm (store exists):         {statistics.median(warm) * 1000:6.0f} ms median of {args.runs} (target ≤ 550)")


if __name__ == "__main__":
    main()
