"""``inspector`` listing 1,000 transcripts, as a person sees it, beside a Textual hello app.

    python -m bench.list_paint [--files 1000] [--runs 5]

The home folder is ``bench.discover_speed``'s (1,000 generated Claude Code, Codex and Gemini
CLI transcripts laid out as the tools lay them out, built once under bench/out/). Each run
starts, in its own tmux session (200×50), a Textual hello app, then ``inspector`` with
``HOME`` pointed at that folder and no listing cache (a first start), then ``inspector``
again with the cache it left (every later start), and polls the pane until the list's rows
are on screen (issue 16: "lists them by project within 1 s of start"). Wall time and the
CPU the program had used by then; medians and ratios to the hello app.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.discover_speed import build_home
from bench.paint_compare import HELLO, TMUX, timed

MARKER = "transcripts"  # a project heading: "<project>  N transcripts", drawn with the first rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--before", type=Path, help="a checkout of an earlier commit (`git archive COMMIT inspector | "
                        "tar -x -C DIR`): its `inspector` runs too, with the cache filled")
    args = parser.parse_args()
    home = build_home(args.files)
    inspector = Path(sys.executable).parent / "inspector"
    subprocess.run([*TMUX, "new-session", "-d", "-s", "idle", "sleep 3600"], check=True)
    times: dict[str, list[tuple[float, float]]] = {"hello": [], "inspector, no cache": [], "inspector, cache filled": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / "hello.py").write_text(HELLO)
            cache = work / "cache"
            env = (f"env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX={work / 'pycache'} "
                   f"HOME={shlex.quote(str(home))} INSPECTOR_CACHE_DIR={cache} INSPECTOR_DATA_DIR={cache / 'data'} "
                   "INSPECTOR_REVIEWER=bench TERM=xterm-256color ")
            hello = (env + f"{shlex.quote(sys.executable)} {work / 'hello.py'}", "Hello, world")
            ours = (env + shlex.quote(str(inspector)), MARKER)
            timed("warm-h", *hello, timeout=120)  # byte code and page cache for both
            timed("warm-i", *ours, timeout=120)
            before = None
            if args.before is not None:
                times["before, cache filled"] = []
                before = (env + f"PYTHONPATH={shlex.quote(str(args.before))} {shlex.quote(sys.executable)} -c "
                          "'from inspector.cli.entry import main; main()'", MARKER)
            for run in range(args.runs):
                times["hello"].append(timed(f"h{run}", *hello))
                shutil.rmtree(cache, ignore_errors=True)
                times["inspector, no cache"].append(timed(f"c{run}", *ours))
                times["inspector, cache filled"].append(timed(f"w{run}", *ours))
                if before is not None:
                    times["before, cache filled"].append(timed(f"b{run}", *before))
    finally:
        subprocess.run([*TMUX, "kill-server"], capture_output=True)
    print(f"{args.files:,} transcripts under {home}; medians of {args.runs}, tmux-polled; "
          f"load average {os.getloadavg()[0]:.1f}")
    for index, what in ((0, "wall, launch → list on screen"), (1, "CPU used by then")):
        base = statistics.median(t[index] for t in times["hello"])
        print(f" {what}")
        for label, values in times.items():
            median = statistics.median(t[index] for t in values)
            print(f"  {label:<24} {median * 1000:6.0f} ms  {median / base:5.2f}× hello   "
                  f"runs: {' '.join(f'{t[index] * 1000:.0f}' for t in values)}")


if __name__ == "__main__":
    main()
