"""A 4 MB real Claude Code transcript imported, against ``json.loads`` over its lines, in one run.

    python -m bench.import_transcript [--mb 4] [--runs 5]

Issue #18: "a 4 MB real transcript in ≤ 3× the time of json.loads over its lines". The file
is built as bench/import_extract.py builds it: the real one-record-per-line Claude Code
files in ../shared/real_sessions/claude-code/ repeated with fresh ids under one sessionId
until it reaches the size. Each run, in turn: ``json.loads`` of every line (the baseline)
and ``import_file`` into a new store (what ``inspector import`` does: convert, propose
facts, validate, digest, write, ledger), then the search index catch-up that follows it
(what the first search, or the app after its first paint, does: inspector/store/catch_up.py),
timed on its own. Printed: medians of wall and CPU time, and where the import's time goes
(one extra run, phases timed in process).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bench.import_extract import SOURCES, build
from inspector.domain.facts import extract_from_records
from inspector.domain.formats.detect import convert
from inspector.services.import_stream import parse_converted
from inspector.services.importing import import_file, to_sif
from inspector.store.catch_up import catch_up
from inspector.store.jsoncodec import fast_loads
from inspector.store.connection import open_store


def loads_lines(raw: bytes) -> float:
    start = time.perf_counter()
    for line in raw.split(b"\n"):
        if line.strip():
            json.loads(line)
    return time.perf_counter() - start


def import_once(src: Path, store: Path) -> tuple[float, float]:
    for p in store.parent.glob(store.name + "*"):
        p.unlink()
    wall, cpu = time.perf_counter(), time.process_time()
    asyncio.run(import_file(src, store, actor="bench"))
    return time.perf_counter() - wall, time.process_time() - cpu


def catch_up_once(store: Path) -> tuple[float, float]:
    async def index() -> int:
        async with await open_store(store) as opened:
            return await catch_up(opened)

    wall, cpu = time.perf_counter(), time.process_time()
    assert asyncio.run(index()) > 0
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=4.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024))
        raw = src.read_bytes()
        base: list[tuple[float, float]] = []
        ours: list[tuple[float, float]] = []
        index: list[tuple[float, float]] = []
        for _ in range(args.runs):
            cpu = time.process_time()
            base.append((loads_lines(raw), time.process_time() - cpu))
            ours.append(import_once(src, root / "s.db"))
            index.append(catch_up_once(root / "s.db"))
        start = time.perf_counter()
        records = convert(raw, src.name, "claude-code", fast_loads)
        converted = time.perf_counter() - start
        start = time.perf_counter()
        extract_from_records(records)
        extracted = time.perf_counter() - start
        start = time.perf_counter()
        parse_converted((records, 2, False))
        parsed = time.perf_counter() - start
        sif = to_sif(records)
    bw, bc = (statistics.median(x[i] for x in base) for i in (0, 1))
    ow, oc = (statistics.median(x[i] for x in ours) for i in (0, 1))
    iw, ic = (statistics.median(x[i] for x in index) for i in (0, 1))
    events = sum(1 for r in records if r.get("type") == "event")
    print(f"transcript: {len(raw) / 1e6:.2f} MB, {len(raw.splitlines()):,} "
          f"lines, {events:,} events ({len(sif) / 1e6:.2f} MB as sif/1); medians of {args.runs} runs")
    print("| what | wall | CPU | × json.loads (wall / CPU) |")
    print("|---|---:|---:|---:|")
    print(f"| `json.loads` over its lines (baseline) | {bw * 1000:,.0f} ms | {bc * 1000:,.0f} ms | 1× |")
    print(f"| `import_file` into a new store | {ow * 1000:,.0f} ms | {oc * 1000:,.0f} ms | "
          f"**{ow / bw:.2f}× / {oc / bc:.2f}×** |")
    print(f"| search index catch-up after it | {iw * 1000:,.0f} ms | {ic * 1000:,.0f} ms | "
          f"{iw / bw:.2f}× / {ic / bc:.2f}× |")
    print(f"| import + catch-up | {(ow + iw) * 1000:,.0f} ms | {(oc + ic) * 1000:,.0f} ms | "
          f"{(ow + iw) / bw:.2f}× / {(oc + ic) / bc:.2f}× |")
    print(f"parts (one run, in process): convert {converted * 1000:.0f} ms, propose facts {extracted * 1000:.0f} ms, "
          f"validate, digest and build rows {parsed * 1000:.0f} ms; the rest is opening the store, writing and "
          "committing")


if __name__ == "__main__":
    main()
