"""Expanding 4 KiB from a 128 MB material vs from a 1 MB material, whole process each time.

    python -m bench.expand_speed [--runs 7]

Target (issue #4): the large costs at most 1.25x the small. For comparison, the naive
approach (read every chunk, hash the whole original, then slice) is timed the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from inspector.domain.canonical import content_hash
from inspector.services.importing import import_file

OUT = Path(__file__).resolve().parent / "out"
LINE = "{n:08d} 部署节点 check ok latency={l}ms 🚀\n"

NAIVE = """
import hashlib, sqlite3, sys
con = sqlite3.connect(sys.argv[1])
mid, chash = con.execute("SELECT material_id, content_hash FROM materials WHERE id = 'res:big'").fetchone()
data = b"".join(r[0] for r in con.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx", (mid,)))
assert "sha256:" + hashlib.sha256(data).hexdigest() == chash
sys.stdout.write(data[1_000_000:1_004_096].decode("utf-8", "replace")[:10])
"""


def build(size_mb: int) -> Path:
    OUT.mkdir(exist_ok=True)
    store = OUT / f"expand-{size_mb}mb.db"
    if store.exists():
        return store
    lines, total, n = [], 0, 0
    target = size_mb * 1024 * 1024
    while total < target:
        line = LINE.format(n=n, l=n % 500)
        lines.append(line)
        total += len(line.encode())
        n += 1
    text = "".join(lines)
    data = text.encode()
    src = OUT / f"expand-{size_mb}mb.jsonl"
    with src.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n')
        fh.write(json.dumps({"type": "session", "id": "s"}) + "\n")
        fh.write(json.dumps({"type": "material", "session": "s", "id": "res:big", "source_version": "v1",
                             "disclosure_scope": "team", "content": text}, ensure_ascii=False) + "\n")
        fh.write(json.dumps({"type": "stub", "session": "s", "id": "stub", "material": "res:big",
                             "content_hash": content_hash(data), "source_version": "v1",
                             "read_slice": [1_000_000, 1_004_096], "disclosure_scope": "team"}) + "\n")
    asyncio.run(import_file(src, store, actor="bench"))
    src.unlink()
    return store


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


async def in_process(store: Path, runs: int) -> float:
    """Median of the expand service alone (store already open): the cost of the read itself."""
    from inspector.services.expanding import expand
    from inspector.store.connection import open_store

    times = []
    async with await open_store(store) as opened:
        for _ in range(runs):
            start = time.perf_counter()
            result = await expand(opened, "stub", actor="bench")
            times.append(time.perf_counter() - start)
            assert result.ok
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    stores = {"1 MB": build(1), "128 MB": build(128)}
    ours: dict[str, list[float]] = {k: [] for k in stores}
    naive: dict[str, list[float]] = {k: [] for k in stores}
    for _ in range(args.runs):
        for name, store in stores.items():
            ours[name].append(timed([sys.executable, "-m", "inspector", "expand", str(store), "stub", "--json",
                                     "--reviewer", "bench"]))
            naive[name].append(timed([sys.executable, "-c", NAIVE, str(store)]))
    med = {k: statistics.median(v) for k, v in ours.items()}
    nmed = {k: statistics.median(v) for k, v in naive.items()}
    for name in stores:
        print(f"{name:>7}: inspector expand {med[name] * 1000:7.0f} ms   naive read-all+hash {nmed[name] * 1000:7.0f} ms")
    inner = {name: asyncio.run(in_process(store, 51)) for name, store in stores.items()}
    print(f"in process (expand service only): 1 MB {inner['1 MB'] * 1000:.2f} ms, 128 MB {inner['128 MB'] * 1000:.2f} ms "
          f"= {inner['128 MB'] / inner['1 MB']:.2f}x")
    print(f"ratio 128 MB / 1 MB: inspector {med['128 MB'] / med['1 MB']:.2f}x (target ≤ 1.25x), "
          f"naive {nmed['128 MB'] / nmed['1 MB']:.2f}x")


if __name__ == "__main__":
    main()
