"""Where an import's CPU goes, each part timed on the thread it runs on, in the same imports.

    python -m bench.import_parts [--mb 4] [--runs 9] [--bounds]

The import runs its parts on four kinds of thread at once (services/importing.py): the event
loop's (detection, conversion, the writer, the ledger), a parse thread (validating, digesting
and building rows: import_stream.parse_converted), the default executor (the new store's
schema with the original's content hash and keyed digest: store/fresh.py ``_make``; the
proposed facts: transcript_records.all_proposed_facts) and SQLite's connection threads
(aiosqlite: every statement). Timing a part alone (bench/import_transcript.py's "parts")
leaves out what it costs beside the others; here each part's thread CPU is summed inside the
real import, and the rest is the process's CPU minus those parts. Session 19 (import-twelve)
used it to show what is left of the 4 MB import once the conversion is gone: ``--bounds`` adds
two columns, the same imports with the conversion (then the conversion and the facts) done
before the clock starts (bench/import_transcript.py ``done_beforehand``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from bench.import_extract import SOURCES, build
from bench.import_transcript import done_beforehand, loads_lines
from inspector.services.importing import import_file

# (where the function is looked up when the import calls it, what the part is called)
PARTS = (
    ("inspector.services.importing.convert", "convert (event loop's thread)"),
    ("inspector.services.importing.all_proposed_facts", "propose facts (executor thread)"),
    ("inspector.services.import_stream.parse_converted", "validate, digest, build rows (parse thread)"),
    ("inspector.store.fresh._make", "new store: schema, the original's hash and keyed digest (executor thread)"),
)
SQLITE = "SQLite statements (aiosqlite's connection threads)"
REST = "the rest: writer, ledger, publishing, hand-overs (mostly the event loop's thread)"


def _timed(fn: Callable[..., Any], name: str, spent: Counter[str]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.thread_time() - start

    return run


@contextmanager
def cpu_parts(spent: Counter[str]) -> Iterator[None]:
    """While inside, every part of every import adds its thread CPU (seconds) to ``spent``."""
    import importlib

    plain_run = threading.Thread.run

    def run(self: threading.Thread) -> None:
        target = getattr(self, "_target", None)
        if getattr(target, "__name__", "") != "_connection_worker_thread":
            plain_run(self)
            return
        start = time.thread_time()
        try:
            plain_run(self)
        finally:
            spent[SQLITE] += time.thread_time() - start

    with ExitStack() as stack:
        for where, name in PARTS:
            module, attr = where.rsplit(".", 1)
            stack.enter_context(mock.patch(where, _timed(getattr(importlib.import_module(module), attr), name, spent)))
        stack.enter_context(mock.patch.object(threading.Thread, "run", run))
        yield


def measure(src: Path, store: Path, runs: int) -> list[tuple[str, float]]:
    """Median ms of each part (and the process's CPU) over ``runs`` imports, after one untimed one."""
    found: dict[str, list[float]] = {}
    for run in range(runs + 1):
        for p in store.parent.glob(store.name + "*"):
            p.unlink()
        spent: Counter[str] = Counter()
        with cpu_parts(spent):
            cpu = time.process_time()
            asyncio.run(import_file(src, store, actor="bench"))
            total = time.process_time() - cpu
        time.sleep(0.05)  # SQLite's thread ends just after the import returns: its time is counted by then
        missing = [name for name in [*(n for _, n in PARTS), SQLITE] if name not in spent]
        if missing:  # a part the import no longer calls so would be counted in "the rest" without a word
            raise SystemExit(f"the import never ran {', '.join(missing)}: inspector changed, fix bench/import_parts.py")
        if run == 0:
            continue
        spent[REST] = total - sum(spent.values())
        spent["process CPU, whole import"] = total
        for name, value in spent.items():
            found.setdefault(name, []).append(value)
    order = [name for _, name in PARTS] + [SQLITE, REST, "process CPU, whole import"]
    return [(name, statistics.median(found.get(name, [0.0])) * 1000) for name in order]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--bounds", action="store_true", help="also with the conversion (then the conversion and "
                        "the facts) done beforehand")
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        src, _ = build(Path(tmp) / "long-session.jsonl", int(args.mb * 1024 * 1024))
        raw = src.read_bytes()
        base = []
        for _ in range(args.runs):  # as bench/import_transcript.py takes it: the lines split and read
            start = time.process_time()
            loads_lines(raw)
            base.append(time.process_time() - start)
        baseline = statistics.median(base) * 1000
        columns = [("the import", measure(src, Path(tmp) / "s.db", args.runs))]
        if args.bounds:
            for label, facts in (("conversion done beforehand", False), ("conversion and facts done beforehand", True)):
                with done_beforehand(src, args.runs + 1, facts=facts):
                    columns.append((label, measure(src, Path(tmp) / "s.db", args.runs)))
    print(f"{len(raw) / 1e6:.2f} MB; medians of {args.runs} imports in this process; thread CPU of each part "
          "(× `json.loads` over its lines)")
    print("| part | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    print(f"| `json.loads` over its lines (baseline) | {baseline:.1f} ms |" + " — |" * (len(columns) - 1))
    for i, (name, _) in enumerate(columns[0][1]):
        cells = [f"{parts[i][1]:.1f} ms ({parts[i][1] / baseline:.2f}×)" for _, parts in columns]
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
