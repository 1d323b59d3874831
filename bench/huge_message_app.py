"""One huge single-line message in the app: first paint, the Timeline, opening the event, search.

    python -m bench.huge_message_app [--mb 30] [--against /work/main]

The store is made by importing bench/huge_message.py's Claude Code file; then, in a fresh process
each (``--against DIR``: the same with that checkout's ``inspector``, alternating), headless at
200×50: the time to the Timeline's first rows, to the huge message's row selected and its event
dialog on screen (Enter on the row), and to a search for the word only at the paste's end listed
(the first search includes indexing the store: inspector/store/catch_up.py). Target: < 1 s each
after the first paint. Not run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.huge_message import WORD, write

CHILD = r"""
import asyncio, json, resource, sys, time
started = time.perf_counter()
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.timeline_view import TimelineView
from inspector.ui.event_dialog import EventDialog

async def until(pilot, ok, most=120.0):
    t = time.perf_counter()
    while not ok():
        await pilot.pause(0.005)
        if time.perf_counter() - t > most:
            return float("nan")
    return time.perf_counter() - t

async def run():
    out = {}
    app = InspectorApp(sys.argv[1])
    async with app.run_test(size=(200, 50)) as pilot:
        def rows():
            views = app.screen.query(TimelineView) if app.screen is not None else []
            return bool(views) and bool(views.first().rows)
        await until(pilot, rows)
        out["first rows"] = time.perf_counter() - started
        timeline = app.screen.query_one(TimelineView)
        timeline.focus()
        t = time.perf_counter()
        for _ in range(40):
            if timeline.current is not None and timeline.current.seq == 2:
                break
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, EventDialog))
        out["open the event"] = time.perf_counter() - t
        await pilot.press("escape")
        await pilot.pause(0.05)
        t = time.perf_counter()
        await pilot.press("slash")
        await pilot.press(*sys.argv[2])
        from inspector.ui.widgets.evidence_channel import EvidenceChannel
        def listed():
            ev = app.screen.query(EvidenceChannel)
            if not ev:
                return False
            records = ev.first().records
            return records.option_count > 1 and " item" in str(records.get_option_at_index(0).prompt)
        waited = await until(pilot, listed)
        out["search"] = time.perf_counter() - t if waited == waited else waited
        out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))

asyncio.run(run())
"""


def child(tree: str, store: Path, home: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1", "INSPECTOR_CACHE_DIR": str(home / "cache"),
           "INSPECTOR_CONFIG_DIR": str(home / "config"), "INSPECTOR_SOURCES": str(home / "none"),
           "INSPECTOR_DATA_DIR": str(home / "data"), "INSPECTOR_REVIEWER": "bench"}
    done = subprocess.run([sys.executable, "-c", CHILD, str(store), WORD.lower()], capture_output=True, text=True,
                          env=env, cwd=tree, timeout=900)
    if done.returncode:
        return {"error": done.stderr[-400:]}  # type: ignore[dict-item]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=30)
    parser.add_argument("--against", default=None)
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent.parent)
    trees = [("this tree", here)] + ([("against", args.against)] if args.against else [])
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "m.jsonl"
        write(src, args.mb, "cc")
        for name, tree in trees:
            store = tmp / f"{name.replace(' ', '-')}.db"
            env = {**os.environ, "PYTHONPATH": tree, "PYTHONDONTWRITEBYTECODE": "1"}
            subprocess.run([sys.executable, "-m", "inspector", "import", str(src), "--into", str(store)], env=env,
                           cwd=tree, capture_output=True, check=True)
            print(f"- {name} ({args.mb:g} MB message): {child(tree, store, tmp)}")
            sys.stdout.flush()
            shutil.rmtree(tmp / "cache", ignore_errors=True)


if __name__ == "__main__":
    main()
