"""Time to open the Drift tab of a 1,000-generation session in the app, per tree, in one run.

    python -m bench.drift_tab_open [--rounds 3] [--tree PATH ...]

bench/drift_speed.py's plain set (1,000 generations × 100 records) imported once; then, in a
fresh process per tree and round (alternating, so machine load hits each alike), the app in
Textual's pilot at 160×45: ``d``'s action runs as soon as the session is shown (its first paint;
the tabs behind start loading then) and the clock runs from there until the tab's findings and
field timeline are loaded and painted (wall clock and the process's CPU). ``--tree`` names other checkouts to run beside this one (a ``git worktree`` of main, say);
this tree is always measured. The tab once took ~2 minutes here: its timeline grew each row a
cell at a time (inspector/ui/widgets/drift_view.py).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
from pathlib import Path

from bench.drift_compare import run
from bench.drift_speed import write
from inspector.services.importing import import_file

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the tree under test; prints one JSON line.
WORKER = r'''
import asyncio, json, sys, time
from pathlib import Path
import inspector
from inspector.ui.app import InspectorApp

async def main(store):
    app = InspectorApp(store)
    async with app.run_test(size=(160, 45)) as pilot:
        while getattr(app.screen, "session", None) is None or not hasattr(app.screen, "_loaded"):
            await pilot.pause(0.01)
        # the session is shown (its first paint); the tabs behind start loading now: d at once
        screen = app.screen
        wall, cpu = time.perf_counter(), time.process_time()
        # what d runs, without the pilot's wait for an idle screen (a tab that blocks the loop for
        # two minutes made that wait time out)
        shown = asyncio.ensure_future(screen.action_focus_drift())
        while not screen._loaded("tab-drift").is_set():
            await asyncio.sleep(0.01)
        await shown
        await pilot.pause()
        await pilot.pause()  # the tab painted with what it loaded
        took = [time.perf_counter() - wall, time.process_time() - cpu]
        options = screen.query_one("#drift-findings").option_count
        assert options > 0, "the Drift tab shows no findings"
        print(json.dumps({"tree": inspector.__file__, "open": took, "options": options}))

asyncio.run(main(Path(sys.argv[1])))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    args = parser.parse_args()
    trees = [ROOT, *args.tree]
    with tempfile.TemporaryDirectory() as tmp:
        src, store = Path(tmp) / "plain.jsonl", Path(tmp) / "plain.db"
        write(src)
        asyncio.run(import_file(src, store, actor="bench"))
        seen: dict[Path, list[list[float]]] = {}
        for _ in range(args.rounds):
            for tree in trees:
                # the worker opens the store read-write like the app: each run gets its own copy
                copy = Path(tmp) / "open.db"
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{copy}{suffix}").unlink(missing_ok=True)
                shutil.copyfile(store, copy)
                result = run(tree, copy, Path(tmp) / "unused.db", WORKER)
                seen.setdefault(tree, []).append(result["open"])  # type: ignore[arg-type]
    print(f"Drift tab opened on 1,000 generations × 100 records, median of {args.rounds} rounds")
    print("| tree | wall | CPU |")
    print("|---|---:|---:|")
    for tree, took in seen.items():
        print(f"| {tree} | {statistics.median(t[0] for t in took):.2f} s | {statistics.median(t[1] for t in took):.2f} s |")


if __name__ == "__main__":
    main()
