"""The HTML report of a large session: size, write time and the time Chromium takes to open it.

    python -m bench.report_large [--events 10000 100000] [--runs 3] [--no-browser]

Each session comes from ``bench.make_data`` (calls paired with results, English and Chinese
text). Timed in one run, side by side: the report as written by default (the conversation's
first and last ``DEFAULT_MAX_ENTRIES`` entries, texts cut at ``DEFAULT_MAX_CHARS``) and with
``--max-entries 0`` (every entry: what every report was before the bound). Both are written
by the whole ``inspector report`` command in a fresh process, as a person runs it; the open
time is Playwright's ``goto`` to the ``load`` event in headless Debian Chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.make_data import write_events_file


def write(store: Path, html: Path, every: bool) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "inspector", "report", str(store), "--session", "s-bench", "-o", str(html),
                    *(["--max-entries", "0"] if every else [])], check=True, capture_output=True)
    return time.perf_counter() - started


def open_times(pages: list[Path]) -> list[float]:
    from playwright.sync_api import sync_playwright

    from tests.browser import CHROMIUM_ARGS, chromium_path

    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for page_file in pages:
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(page_file.as_uri(), wait_until="load", timeout=600_000)
            out.append(time.perf_counter() - started)
            page.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    from inspector.services.importing import import_file

    print("| events | report | write (median) | size | open in Chromium |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for events in args.events:
            folder = Path(tmp)
            store = folder / f"e{events}.db"
            asyncio.run(import_file(write_events_file(folder / f"e{events}.jsonl", events), store, actor="bench"))
            for every in (False, True):
                html = folder / f"e{events}{'-all' if every else ''}.html"
                times = [write(store, html, every) for _ in range(args.runs)]
                opened = "" if args.no_browser else f"{statistics.median(open_times([html] * args.runs)):.2f} s"
                label = "--max-entries 0 (all)" if every else "default (bounded)"
                print(f"| {events:,} | {label} | {statistics.median(times):.2f} s "
                      f"({min(times):.2f}–{max(times):.2f}) | {html.stat().st_size:,} B | {opened} |")


if __name__ == "__main__":
    main()
