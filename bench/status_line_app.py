"""Seconds from launching the app on a store until its status line is complete, as a person
sees it (tmux-polled every 20 ms), and the app's RSS ten seconds after launch.

    python -m bench.status_line_app STORE TEXT

TEXT is what the complete status line shows (e.g. a badge such as ``trust_label_conflict``
or ``ev``); the "checking…" placeholder is shown until the badges are in. Needs tmux.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store")
    parser.add_argument("text", help="what the complete status line shows (a badge such as trust_label_conflict)")
    args = parser.parse_args()
    store, text = args.store, args.text
    name = f"bench-status-{int(time.time())}"
    start = time.perf_counter()
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "200", "-y", "50",
                    f"{sys.executable} -m inspector {store}"], check=True)
    try:
        first = complete = None
        while time.perf_counter() - start < 30 and complete is None:
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", name], capture_output=True,
                                    text=True).stdout
            head = "\n".join(screen.splitlines()[:2])  # the header's two lines: where, then the badges
            if first is None and "Context Inspector" in head:
                first = time.perf_counter() - start
            if text in head and "checking" not in head:
                complete = time.perf_counter() - start
            time.sleep(0.02)
        time.sleep(max(0.0, 10 - (time.perf_counter() - start)))
        pid = subprocess.run(["tmux", "list-panes", "-t", name, "-F", "#{pane_pid}"], capture_output=True,
                             text=True).stdout.split()[0]
        rss = next(line for line in Path(f"/proc/{pid}/status").read_text().splitlines() if line.startswith("VmRSS"))
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], check=False)
    print(f"first paint {first:.2f} s; status line complete {complete:.2f} s; after 10 s {rss.split(':')[1].strip()}")


if __name__ == "__main__":
    main()
