"""Listing 1,000 transcripts: `inspector` with no argument shows them within 1 s of start.

    python -m bench.discover_speed [--files 1000] [--runs 3]

Generates a home folder (once, under bench/out/) with transcripts laid out as the three
tools lay them out — Claude Code (60%), Codex (30%), Gemini CLI (10%) — of a few KB to 3 MB
(median about 100 KB, about 160 MB in all), then measures, each in a fresh process and interleaved:

- baseline: walking the folders and stat-ing every file (the floor of any listing);
- naive: reading every file whole (what listing by importing or parsing would cost at least);
- discovery cold (no listing cache) and warm (cache filled: stat only);
- the app floor: a bare Textual app (one line of text) from process start to first paint;
- the app: from process start until the browser shows the list (200×50, headless), with no
  listing cache (a first start) and with it filled (every later start).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out" / "discover-home"
PROMPTS = ["修复订单导出超时，不得改生产数据", "add the agent name to any logging", "commit this",
           "why does the nightly job time out?", "refactor the parser into smaller files"]


def _filler(rng: random.Random, size: int) -> str:
    return ("lorem ipsum dolor sit amet " * (size // 27 + 1))[:size] + str(rng.random())


def _claude(path: Path, rng: random.Random, size: int, n: int) -> None:
    sid = f"00000000-0000-0000-0000-{n:012d}"
    base = {"sessionId": sid, "cwd": f"/work/project-{n % 20}", "version": "2.1.14"}
    lines = [json.dumps({"type": "file-history-snapshot", "messageId": "m0", "snapshot": {}}),
             json.dumps({**base, "type": "user", "uuid": "u1", "timestamp": "2026-01-05T10:00:00.000Z",
                         "message": {"role": "user", "content": rng.choice(PROMPTS)}})]
    written, i = sum(map(len, lines)), 0
    while written < size:
        i += 1
        line = json.dumps({**base, "type": "assistant" if i % 2 else "user", "uuid": f"u{i + 1}",
                           "timestamp": f"2026-01-05T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z",
                           "message": {"role": "assistant", "content": [{"type": "text", "text": _filler(rng, 2000)}]}})
        if i % 200 == 0:
            line = json.dumps({**base, "type": "system", "subtype": "compact_boundary", "uuid": f"c{i}"})
        lines.append(line)
        written += len(line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _codex(path: Path, rng: random.Random, size: int, n: int) -> None:
    lines = [json.dumps({"timestamp": "2026-01-06T09:00:00Z", "type": "session_meta",
                         "payload": {"id": f"cx-{n}", "cwd": f"/work/project-{n % 20}",
                                     "base_instructions": {"text": _filler(rng, 12000)}}}),
             json.dumps({"timestamp": "2026-01-06T09:00:01Z", "type": "response_item",
                         "payload": {"type": "message", "role": "user",
                                     "content": [{"type": "input_text", "text": rng.choice(PROMPTS)}]}})]
    written, i = sum(map(len, lines)), 0
    while written < size:
        i += 1
        line = json.dumps({"timestamp": f"2026-01-06T09:{i // 60 % 60:02d}:{i % 60:02d}Z", "type": "response_item",
                           "payload": {"type": "message", "role": "assistant",
                                       "content": [{"type": "output_text", "text": _filler(rng, 2000)}]}})
        lines.append(line)
        written += len(line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _gemini(path: Path, rng: random.Random, size: int, n: int) -> None:
    messages = [{"id": "m0", "timestamp": "2026-01-07T08:00:00Z", "type": "user", "content": rng.choice(PROMPTS)}]
    while sum(len(m["content"]) for m in messages) < size:
        messages.append({"id": f"m{len(messages)}", "timestamp": "2026-01-07T08:00:05Z", "type": "gemini",
                         "content": _filler(rng, 2000)})
    doc = {"sessionId": f"gem-{n}", "projectHash": f"{n % 20:064x}", "startTime": "2026-01-07T08:00:00Z",
           "lastUpdated": "2026-01-07T09:00:00Z", "messages": messages}
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def build_home(files: int) -> Path:
    home = OUT / f"{files}-v2"
    if (home / ".done").exists():
        return home
    rng = random.Random(16)
    for n in range(files):
        size = int(min(3_000_000, rng.lognormvariate(11.5, 1.0)))  # median ~100 KB, mean ~160 KB
        kind = n % 10
        if kind < 6:
            path = home / ".claude" / "projects" / f"-work-project-{n % 20}" / f"{n:08d}.jsonl"
            maker = _claude
        elif kind < 9:
            path = home / ".codex" / "sessions" / "2026" / "01" / f"{1 + n % 28:02d}" / f"rollout-2026-01-06-cx-{n}.jsonl"
            maker = _codex
        else:
            path = home / ".gemini" / "tmp" / f"{n % 20:064x}" / "chats" / f"session-{n}.json"
            maker = _gemini
        path.parent.mkdir(parents=True, exist_ok=True)
        maker(path, rng, size, n)
    (home / ".done").touch()
    return home


def _roots(home: Path) -> list[Path]:
    return [home / ".claude" / "projects", home / ".codex" / "sessions", home / ".gemini" / "tmp"]


def child(what: str, home: Path, cache: Path) -> float:
    os.environ.update(HOME=str(home), INSPECTOR_CACHE_DIR=str(cache), INSPECTOR_DATA_DIR=str(cache / "data"))
    os.environ.pop("INSPECTOR_SOURCES", None)
    started = time.perf_counter()
    if what == "baseline":
        count = sum(1 for root in _roots(home) for d, _, names in os.walk(root) for n in names
                    if os.stat(os.path.join(d, n)).st_size >= 0)
        assert count
    elif what == "naive":
        for root in _roots(home):
            for d, _, names in os.walk(root):
                for n in names:
                    with open(os.path.join(d, n), "rb") as fh:
                        fh.read()
    elif what in ("cold", "warm"):
        from inspector.services import discovery
        assert discovery.discover()
    elif what == "floor":  # any Textual app: import, start, first paint of one line of text
        import asyncio

        from textual.app import App, ComposeResult
        from textual.widgets import Static

        class Bare(App[None]):
            def compose(self) -> ComposeResult:
                yield Static("transcripts")

        async def bare() -> float:
            app = Bare()
            async with app.run_test(size=(200, 50)) as pilot:
                await pilot.pause(0.005)
                return time.perf_counter() - started

        return asyncio.run(bare())
    elif what in ("app", "app-warm"):  # as `inspector` does it (inspector.cli.entry): the listing starts, then the UI loads
        import asyncio

        from inspector.cli.open_command import start_listing
        listing = start_listing(())
        from inspector.ui.app import InspectorApp
        from inspector.ui.browser_screen import BrowserScreen

        async def run() -> float:
            app = InspectorApp(listing=listing)
            async with app.run_test(size=(200, 50)) as pilot:
                while True:
                    await pilot.pause(0.005)
                    if isinstance(app.screen, BrowserScreen) and app.screen.by_id:
                        return time.perf_counter() - started

        return asyncio.run(run())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        what, home, cache = args.child
        print(json.dumps(child(what, Path(home), Path(cache))))
        return
    home = build_home(args.files)
    total = sum(f.stat().st_size for f in home.rglob("*") if f.is_file())
    print(f"{args.files:,} transcripts, {total / 1e6:.0f} MB under {home}")
    kinds = ("baseline", "naive", "cold", "warm", "floor", "app", "app-warm")
    results: dict[str, list[float]] = {k: [] for k in kinds}
    for run in range(args.runs):
        cache = OUT / f"cache-{run}"
        for what in kinds:
            if what in ("cold", "app"):
                subprocess.run(["rm", "-rf", str(cache)], check=True)
            out = subprocess.run([sys.executable, "-m", "bench.discover_speed", "--child", what, str(home), str(cache)],
                                 capture_output=True, text=True, check=True)
            results[what].append(json.loads(out.stdout.strip().splitlines()[-1]))
    labels = {"baseline": "baseline: walk + stat every file", "naive": "naive: read every file whole",
              "cold": "discover(), no cache", "warm": "discover(), cache filled",
              "floor": "app floor: a bare Textual app's first paint",
              "app": "app start → list on screen, no cache",
              "app-warm": "app start → list on screen, cache filled"}
    base = statistics.median(results["baseline"])
    for what, label in labels.items():
        median = statistics.median(results[what])
        print(f"{label:<44} {median * 1000:8.0f} ms  ({median / base:6.1f}× baseline, median of {args.runs})")
    app, floor = statistics.median(results["app"]), statistics.median(results["floor"])
    print(f"app listing vs app floor: +{(app - floor) * 1000:.0f} ms ({app / floor:.2f}×); load average "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
