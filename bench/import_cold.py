"""The 4 MB transcript imported as a person runs it: ``inspector import`` in a fresh process.

    python -m bench.import_cold [--mb 4] [--runs 9] [--against REV]

bench/import_transcript.py times ``import_file`` in a warm process; a person types ``inspector
import FILE --into NEW.db`` and waits for a new interpreter, the command's modules and then the
import. Each run, in turn and each in a fresh process: ``json.loads`` over the file's lines (the
interpreter's start included, as in every row), a process that imports only what the import
needs and calls ``import_file`` (the floor for the command), and ``inspector import … --json``
with this tree (and with REV's ``inspector`` package, alternating, with ``--against``).
Printed: medians of wall time and of CPU (user + system of the child), and each × the
``json.loads`` process. Session 19 (import-twelve) made the command stop loading the store
commands' modules (cli/import_words.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.drift_compare import extract_old
from bench.import_extract import SOURCES, build

REPO = Path(__file__).resolve().parents[1]
LOADS = ("import json, sys\n"
         "for line in open(sys.argv[1], 'rb').read().split(b'\\n'):\n"
         "    if line.strip():\n"
         "        json.loads(line)")
ONLY_THE_IMPORT = ("import asyncio, sys\nfrom pathlib import Path\n"
                   "from inspector.services.importing import import_file\n"
                   "asyncio.run(import_file(Path(sys.argv[1]), Path(sys.argv[2]), actor='bench'))")
COMMAND = "import sys, runpy\nsys.argv = ['inspector', *sys.argv[1:]]\nrunpy.run_module('inspector', run_name='__main__')"


def timed(args: list[str], code: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, cwd=code, env={**os.environ, "PYTHONPATH": str(code)})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fresh(store: Path) -> Path:
    for p in store.parent.glob(store.name + "*"):
        p.unlink()
    return store


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", metavar="REV", help="also run `inspector import` with this git revision's package")
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024))
        size = src.stat().st_size
        old = root / "old"
        if args.against:
            extract_old(args.against, old)
        rows: dict[str, list[tuple[float, float]]] = {}
        py = sys.executable
        for run in range(args.runs):
            steps = [
                ("`json.loads` over its lines, a fresh process (baseline)", [py, "-c", LOADS, str(src)], REPO, None),
                ("a process importing only what the import needs, calling `import_file`",
                 [py, "-c", ONLY_THE_IMPORT, str(src), str(root / "only.db")], REPO, root / "only.db"),
                ("`inspector import FILE --into NEW.db --json`, this tree",
                 [py, "-c", COMMAND, "import", str(src), "--into", str(root / "this.db"), "--json"], REPO,
                 root / "this.db"),
            ]
            if args.against:
                steps.append((f"`inspector import FILE --into NEW.db --json`, {args.against}",
                              [py, "-c", COMMAND, "import", str(src), "--into", str(root / "old.db"), "--json"], old,
                              root / "old.db"))
            for name, cmd, code, store in (steps if run % 2 == 0 else steps[:1] + steps[:0:-1]):
                if store is not None:
                    fresh(store)
                rows.setdefault(name, []).append(timed(cmd, code))
    base_wall, base_cpu = (statistics.median(x[i] for x in next(iter(rows.values()))) for i in (0, 1))
    print(f"{size / 1e6:.2f} MB transcript; medians of {args.runs} runs, each in a fresh process, "
          "alternating")
    print("| what | wall | CPU | × the `json.loads` process (wall / CPU) |")
    print("|---|---:|---:|---:|")
    for name, found in rows.items():
        wall, cpu = (statistics.median(x[i] for x in found) for i in (0, 1))
        print(f"| {name} | {wall * 1000:,.0f} ms | {cpu * 1000:,.0f} ms | {wall / base_wall:.2f}× / {cpu / base_cpu:.2f}× |")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
