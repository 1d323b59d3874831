"""An unchanged file imported again, against its full import, at several sizes in one run.

    python -m bench.reimport_speed [--events 10000 100000] [--runs 7] [--against main]

Issue #18: "an unchanged file re-imported in ≤ 5% of a full import". For each size, the events
file of bench/make_data.py is imported once (untimed) into a store kept for the re-imports; then
each run times, each in a fresh process (bench/import_speed.py's ``timed``: the clock starts after
the package is imported), a full import into a new store and the re-import of the same file into
the kept store — for this tree and, with ``--against``, for that revision's ``inspector``, the
trees alternating in order. Printed per size and tree: medians of CPU and wall time of both, the
ratio of the medians and the median of each run's ratio.

Then where this tree's re-import goes (in process, warm, median of 15): reading the file, telling
its format, opening and closing the store (two connections, the file-content fingerprint, the
checks every open makes), the keyed digest of the bytes (the proof the file is unchanged: its
bytes, never its size or times) and the ledger look-up.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.import_speed import REPO, timed
from bench.make_data import write_events_file


def median(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def parts(src: Path, store: Path, rounds: int = 15) -> dict[str, float]:
    """Median CPU (ms) of each part of this tree's re-import, in this process."""
    from inspector.domain.canonical import keyed_digest
    from inspector.domain.file_name_text import text_name
    from inspector.domain.formats.detect import detect
    from inspector.services.importing import import_file, read_bytes
    from inspector.services.unchanged_import import unchanged_import
    from inspector.store.connection import open_store
    from inspector.store.jsoncodec import fast_loads

    found: dict[str, list[float]] = {}

    def note(name: str, since: float) -> float:
        now = time.process_time()
        found.setdefault(name, []).append((now - since) * 1000)
        return now

    async def once() -> None:
        t = time.process_time()
        raw = read_bytes(src)
        t = note("read the file", t)
        fmt = detect(raw, text_name(src.name), fast_loads)
        t = note("tell its format", t)
        opened = await open_store(store, upgrade=False)
        t = note("open the store", t)
        keyed_digest(opened.digest_key, raw)
        t = note("keyed digest of its bytes", t)
        assert await unchanged_import(opened, raw, fmt) is not None, "the kept store does not hold this file"
        t = note("ledger look-up (its digest again included)", t)
        await opened.close()
        t = note("close the store", t)
        await import_file(src, store, actor="bench")
        note("the whole re-import (`import_file`)", t)

    for _ in range(rounds):
        asyncio.run(once())
    return {name: statistics.median(values) for name, values in found.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", metavar="REV", help="also the inspector package of this git revision")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        trees = {"this tree": REPO}
        if args.against:
            old = root / "old"
            old.mkdir()
            archive = subprocess.run(["git", "archive", args.against, "inspector"], cwd=REPO, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            trees[args.against] = old
        for n in args.events:
            src = write_events_file(root / f"bench{n}.jsonl", n)
            kept = {name: root / f"kept-{i}-{n}.db" for i, name in enumerate(trees)}
            for name, code in trees.items():
                timed(src, kept[name], "import", code)  # the store the re-imports find the file in
            full: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            again: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
            for run in range(args.runs):
                order = list(trees) if run % 2 == 0 else list(trees)[::-1]
                for name in order:
                    new = root / f"new{n}.db"
                    full[name].append(timed(src, new, "import", trees[name]))
                    again[name].append(timed(src, kept[name], "import", trees[name]))
                    for p in root.glob(f"new{n}.db*"):
                        p.unlink()
            print(f"\n{n:,} events ({src.stat().st_size / 1e6:.1f} MB), medians of {args.runs} runs, each import in "
                  "a fresh process, trees alternating")
            print("| tree | full import CPU / wall | re-import CPU / wall | re-import ÷ full (CPU, medians) | "
                  "median of each run's ratio (CPU) | (wall, medians) |")
            print("|---|---:|---:|---:|---:|---:|")
            for name in trees:
                fc, fw = median(full[name], "cpu"), median(full[name], "wall")
                ac, aw = median(again[name], "cpu"), median(again[name], "wall")
                each = statistics.median(a["cpu"] / f["cpu"] for a, f in zip(again[name], full[name], strict=True))
                print(f"| {name} | {fc * 1000:,.0f} / {fw * 1000:,.0f} ms | {ac * 1000:.1f} / {aw * 1000:.1f} ms | "
                      f"**{ac / fc * 100:.1f}%** | {each * 100:.1f}% | {aw / fw * 100:.1f}% |")
            print(f"\nwhere this tree's re-import of {n:,} events goes (in process, warm, CPU, median of 15):")
            for part, ms in parts(src, kept["this tree"]).items():
                print(f"  {part}: {ms:.2f} ms")


if __name__ == "__main__":
    main()
