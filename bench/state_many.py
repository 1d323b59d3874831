"""The app over a session with thousands of pending protected records: first paint and keys.

    python -m bench.state_many [--records 20000] [--runs 1]

The transcript is newuser-19's repro (docs/reviews/newuser-19.md, "Not done" 1): a Claude Code
``user`` line "Never push to main. Build it.", then alternately an assistant text line and a
user "continue i …" line, each the child of the one before; every "continue" message becomes a
pending ``goal.later_request`` record. The store is built once under bench/out/. Each run, in
its own process (Pilot, 120×35): seconds from building the app until the Protected state list
holds its rows and the screen has drawn them, then for ``end`` (the list's last record), for
``down`` after it, ``space`` and ``d`` (the Drift tab shown), pressed at once as a person would
(the tabs behind are still loading); then, once every worker is done, ``home``, ``end``, ``pagedown``.
To measure an earlier tree, run the child from outside the worktree (the current folder comes first
on ``sys.path``) with ``PYTHONPATH=OLD:WORKTREE`` (``git archive REV inspector | tar -x -C OLD``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"


def write_transcript(path: Path, records: int) -> None:
    """``records`` "continue" user lines after the first user line, an assistant line before each."""
    lines, parent = [], None
    def add(kind: str, i: int, text: str) -> None:
        nonlocal parent
        uuid = f"u-{i:07d}"
        message = ({"role": "user", "content": text} if kind == "user"
                   else {"role": "assistant", "content": [{"type": "text", "text": text}]})
        lines.append(json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "many",
                                 "timestamp": f"2026-12-02T10:{(i // 60) % 60:02d}:{i % 60:02d}Z",
                                 "message": message}))
        parent = uuid
    add("user", 0, "Never push to main. Build it.")
    for i in range(1, records + 1):
        add("assistant", 2 * i - 1, f"step {i} " + "lorem ipsum " * 40)
        add("user", 2 * i, f"continue {i} " + "dolor sit " * 30)
    path.write_text("\n".join(lines) + "\n")


def build_store(records: int) -> Path:
    OUT.mkdir(exist_ok=True)
    store = OUT / f"state-many-{records}.db"
    if not store.exists():
        from inspector.services.importing import import_file
        src = OUT / f"state-many-{records}.jsonl"
        write_transcript(src, records)
        started = time.perf_counter()
        asyncio.run(import_file(src, store, actor="bench"))
        print(f"built {store.name} in {time.perf_counter() - started:.1f}s", file=sys.stderr)
        src.unlink()
    return store


def measure_once(store: Path) -> dict[str, float]:
    """Runs inside the child process."""
    started = time.perf_counter()
    from inspector.ui.app import InspectorApp
    from inspector.ui.widgets.state_channel import StateChannel

    async def run() -> dict[str, float]:
        app = InspectorApp(store)
        async with app.run_test(size=(120, 35)) as pilot:
            while True:
                await pilot.pause(0.01)
                found = app.screen.query(StateChannel) if app.screen is not None else []
                if found and found.first().items:
                    break
            channel = found.first()
            await pilot.pause()
            figures = {"first_paint_s": time.perf_counter() - started}
            channel.records.focus()
            for key in ("end", "down", "space", "d"):
                at = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                figures[f"{key}_s"] = time.perf_counter() - at
            while any(not worker.is_finished for worker in app.workers):  # the tabs behind loaded
                await pilot.pause(0.05)
            figures["settled_s"] = time.perf_counter() - started
            channel.records.focus()
            for key in ("home", "end", "pagedown"):
                at = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                figures[f"{key}_settled_s"] = time.perf_counter() - at
            figures["rows"] = len(channel.items)
            return figures

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure_once(args.child)))
        return
    store = build_store(args.records)
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-m", "bench.state_many", "--child", str(store)],
                             capture_output=True, text=True, check=True)
        print(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
