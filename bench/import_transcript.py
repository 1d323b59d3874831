"""A 4 MB real Claude Code transcript imported, against ``json.loads`` over its lines, in one run.

    python -m bench.import_transcript [--mb 4] [--runs 5] [--against REV]

Issue #18: "a 4 MB real transcript in ≤ 3× the time of json.loads over its lines". The file
is built as bench/import_extract.py builds it: the real one-record-per-line Claude Code
files in ../shared/real_sessions/claude-code/ repeated with fresh ids under one sessionId
until it reaches the size. Each run, in turn: ``json.loads`` of every line (the baseline)
and ``import_file`` into a new store (what ``inspector import`` does: convert, propose
facts, validate, digest, write, ledger), then the search index catch-up that follows it
(what the first search, or the app after its first paint, does: inspector/store/catch_up.py),
timed on its own. Printed: medians of wall and CPU time, and where the import's time goes
(one extra run, phases timed in process).

Also in each run, the floor: the same lines and the original file written by bare
``sqlite3`` in one transaction (``executemany``, no conversion, no checks, no indexes but the
key), in WAL mode with ``synchronous=FULL``, with a rollback journal, and as the import fills a
new store (16 KiB pages, journal in memory, no syncs, then one ``fsync``); and orjson's decode
of the lines alone (CPU). ``--against REV``
also imports with the ``inspector`` package of that git revision and with this tree, each
in a process of its own after one untimed import there (so both are warm), alternating.

``--bounds``: the most any faster conversion could give (session 19, import-twelve). In each
run, in this process, ``import_file`` with the transcript's conversion done beforehand (its records made by
the real converter before the clock starts and handed over in place of converting), then with
the proposed facts done beforehand too: what is left is the import without the conversion's (and
the facts') Python at all — the floor for a converter in C (msgspec, orjson, Cython, Rust).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

from bench.import_extract import SOURCES, build
from inspector.domain.facts import extract_from_records
from inspector.domain.file_name_text import text_name
from inspector.domain.formats.detect import convert
from inspector.services.import_stream import parse_converted
from inspector.services.importing import import_file
from inspector.services.transcript_records import all_proposed_facts, to_sif
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.jsoncodec import fast_loads


def loads_lines(raw: bytes) -> float:
    start = time.perf_counter()
    for line in raw.split(b"\n"):
        if line.strip():
            json.loads(line)
    return time.perf_counter() - start


def orjson_lines(raw: bytes) -> float:
    """The decoder the import reads lines with (orjson), alone: the least any import reads them in."""
    import orjson

    start = time.process_time()
    for line in raw.split(b"\n"):
        if line.strip():
            orjson.loads(line)
    return time.process_time() - start


def import_once(src: Path, store: Path) -> tuple[float, float]:
    for p in store.parent.glob(store.name + "*"):
        p.unlink()
    wall, cpu = time.perf_counter(), time.process_time()
    asyncio.run(import_file(src, store, actor="bench"))
    return time.perf_counter() - wall, time.process_time() - cpu


def floor_once(raw: bytes, store: Path, journal: str) -> float:
    """The lines and the original written by bare sqlite3 in one durable transaction."""
    for p in store.parent.glob(store.name + "*"):
        p.unlink()
    start = time.perf_counter()
    lines = [line for line in raw.split(b"\n") if line.strip()]
    con = sqlite3.connect(store, isolation_level=None)
    if journal == "fill":  # as a new store is filled (inspector/store/fresh.py): no syncs until one fsync
        con.execute("PRAGMA page_size = 16384")
        con.execute("PRAGMA journal_mode = MEMORY")
        con.execute("PRAGMA synchronous = OFF")
    else:
        con.execute(f"PRAGMA journal_mode = {journal}")
        con.execute("PRAGMA synchronous = FULL")
    con.execute("CREATE TABLE e (id INTEGER PRIMARY KEY, session TEXT, seq INT, content TEXT, digest TEXT)")
    con.execute("CREATE TABLE m (id TEXT PRIMARY KEY, body BLOB)")
    con.execute("BEGIN")
    con.executemany("INSERT INTO e (session, seq, content, digest) VALUES (?, ?, ?, ?)",
                    [("s", i, line.decode("utf-8"), hashlib.sha256(line).hexdigest()) for i, line in enumerate(lines)])
    con.execute("INSERT INTO m VALUES ('original', ?)", (raw,))
    con.execute("COMMIT")
    con.close()
    if journal == "fill":
        fd = os.open(store, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    return time.perf_counter() - start


WARM_RUN = """
import asyncio, json, os, sys, time
from pathlib import Path
from inspector.services.importing import import_file
src, db = Path(sys.argv[1]), Path(sys.argv[2])
warm = db.with_name("warm-" + db.name)
asyncio.run(import_file(src, warm, actor="bench"))  # untimed: modules loaded, caches warm
cpu, start = time.process_time(), time.perf_counter()
asyncio.run(import_file(src, db, actor="bench"))
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}))
"""
REPO = Path(__file__).resolve().parents[1]


def import_in_process_of_its_own(src: Path, store: Path, code: Path) -> tuple[float, float]:
    for p in store.parent.glob(f"*{store.name}*"):
        p.unlink()
    out = subprocess.run([sys.executable, "-c", WARM_RUN, str(src), str(store)], capture_output=True, text=True,
                         check=True, cwd=code, env={**os.environ, "PYTHONPATH": str(code)})
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return found["wall"], found["cpu"]


@contextmanager
def done_beforehand(src: Path, runs: int, *, facts: bool) -> Iterator[None]:
    """``import_file`` hands over records converted before the clock starts (one conversion per
    import, by the real converter with the import's arguments), and with ``facts`` the proposals
    made for them beforehand too: the import without that Python."""
    raw = src.read_bytes()
    made = [convert(raw, text_name(src.name), "claude-code", fast_loads, original_text=False) for _ in range(runs)]
    proposed = [all_proposed_facts(records) for records in made] if facts else []
    with mock.patch("inspector.services.importing.convert", lambda *_a, **_k: made.pop()):
        if facts:
            with mock.patch("inspector.services.importing.all_proposed_facts", lambda _records: proposed.pop()):
                yield
        else:
            yield
    if made or proposed:  # a bound the import never used would time the whole import and call it a bound
        raise SystemExit(f"the import did not take the work done beforehand ({len(made)} conversions, "
                         f"{len(proposed)} proposals left): inspector.services.importing changed, fix --bounds")


BOUNDS = (("conversion", False), ("conversion and facts", True))


def bound_once(src: Path, store: Path, facts: bool) -> tuple[float, float]:
    """(wall, CPU) of one ``import_file`` with the conversion (and with ``facts`` the proposals) done beforehand."""
    with done_beforehand(src, 1, facts=facts):
        return import_once(src, store)


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
    parser.add_argument("--against", metavar="REV", help="also import with the inspector package of this git "
                        "revision (e.g. main), each import in a process of its own, alternating")
    parser.add_argument("--bounds", action="store_true", help="also import with the conversion (then the "
                        "conversion and the facts) done beforehand: the most a faster converter could give")
    args = parser.parse_args()
    if not SOURCES.is_dir():
        raise SystemExit(f"needs {SOURCES} (the shared real transcripts)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src, _ = build(root / "long-session.jsonl", int(args.mb * 1024 * 1024))
        raw = src.read_bytes()
        base: list[tuple[float, float]] = []
        decoded: list[float] = []
        ours: list[tuple[float, float]] = []
        index: list[tuple[float, float]] = []
        floor: dict[str, list[float]] = {"wal": [], "delete": [], "fill": []}
        pair: dict[str, list[tuple[float, float]]] = {"this": [], "old": []}
        bounded: dict[str, list[tuple[float, float]]] = {}
        old = root / "old"
        if args.against:
            old.mkdir()
            archive = subprocess.run(["git", "archive", args.against, "inspector"], cwd=REPO, capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        for run in range(args.runs):
            cpu = time.process_time()
            base.append((loads_lines(raw), time.process_time() - cpu))
            decoded.append(orjson_lines(raw))
            ours.append(import_once(src, root / "s.db"))
            index.append(catch_up_once(root / "s.db"))
            for name, facts in BOUNDS if args.bounds else ():  # in the same runs, so the same load
                bounded.setdefault(name, []).append(bound_once(src, root / "b.db", facts))
            for journal in floor:
                floor[journal].append(floor_once(raw, root / "floor.db", journal))
            if args.against:
                for which in (("this", "old") if run % 2 == 0 else ("old", "this")):
                    pair[which].append(import_in_process_of_its_own(src, root / f"{which}.db",
                                                                    REPO if which == "this" else old))
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
    d = statistics.median(decoded)
    print(f"| `orjson.loads` over its lines (the import's decoder, alone) | — | {d * 1000:,.0f} ms | — / {d / bc:.2f}× |")
    for journal, label in (("wal", "WAL, synchronous=FULL"), ("delete", "rollback journal, synchronous=FULL"),
                           ("fill", "as a new store is filled: 16 KiB pages, journal in memory, one fsync")):
        f = statistics.median(floor[journal])
        print(f"| floor: bare sqlite3, the lines + the original in one transaction ({label}) | {f * 1000:,.0f} ms "
              f"| — | {f / bw:.2f}× |")
    if args.against:
        for which, label in (("this", "this tree"), ("old", args.against)):
            w, c = (statistics.median(x[i] for x in pair[which]) for i in (0, 1))
            print(f"| `import_file`, {label}, own process (warm), alternating | {w * 1000:,.0f} ms | {c * 1000:,.0f} ms "
                  f"| {w / bw:.2f}× / {c / bc:.2f}× |")
    for name, found in bounded.items():
        w, c = (statistics.median(x[i] for x in found) for i in (0, 1))
        print(f"| `import_file` with the {name} done beforehand (in process) | {w * 1000:,.0f} ms | {c * 1000:,.0f} ms "
              f"| {w / bw:.2f}× / {c / bc:.2f}× |")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"parts (one run, in process): convert {converted * 1000:.0f} ms, propose facts {extracted * 1000:.0f} ms, "
          f"validate, digest and build rows {parsed * 1000:.0f} ms; the rest is opening the store, writing and "
          "committing")


if __name__ == "__main__":
    main()
