"""Drift over 1,000 generations × 100 protected keys.

    python -m bench.drift_speed

Times, in one run: the drift of the latest generation (what ``inspector drift`` does),
every generation's findings plus the field timeline (what the Drift tab loads), and the
pure domain rules alone on the same data (the floor the store reads add to).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

from inspector.domain.drift import field_timeline, find_drift
from inspector.services.drift import drift, drift_overview, generation_texts, state_facts
from inspector.services.importing import import_file
from inspector.store.connection import open_store

KEYS, GENERATIONS = 100, 1000
KINDS = ["goal", "constraint", "permission", "acceptance", "open_issue", "decision"]


def write(path: Path) -> None:
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n{"type":"session","id":"s"}\n')
        values = [f"约束 {k}: 值 {k} must hold" for k in range(KEYS)]
        for k in range(KEYS):
            fh.write(json.dumps({"type": "state", "session": "s", "key": f"k{k}", "kind": KINDS[k % len(KINDS)],
                                 "value": values[k], "sources": ["evt:1"]}, ensure_ascii=False) + "\n")
        for g in range(1, GENERATIONS + 1):
            kept = [v for k, v in enumerate(values) if (k + g) % 7]  # each generation drops a different seventh
            fh.write(json.dumps({"type": "summary", "session": "s", "generation": g, "text": " ".join(kept),
                                 "unresolved": kept[:5], "sources": ["evt:1"],
                                 "claims": [{"key": "k1", "text": values[1] if g % 3 else "rewritten",
                                             "sources": ["evt:1"]}]}, ensure_ascii=False) + "\n")


async def measure(store: Path) -> None:
    async with await open_store(store) as opened:
        start = time.perf_counter()
        latest = await drift(opened, "s")
        one = time.perf_counter() - start
        start = time.perf_counter()
        findings, timeline, _ = await drift_overview(opened, "s")
        everything = time.perf_counter() - start
        gens, state = await generation_texts(opened, "s"), await state_facts(opened, "s")
    start = time.perf_counter()
    for g in gens:
        find_drift(g, state)
    field_timeline(gens, state)
    pure = time.perf_counter() - start
    total = sum(len(f) for f in findings.values())
    print(f"{GENERATIONS} generations × {KEYS} keys")
    print(f"latest generation (inspector drift):          {one * 1000:7.0f} ms, {len(latest.findings)} findings")
    print(f"all generations + field timeline (Drift tab): {everything * 1000:7.0f} ms, {total:,} findings, "
          f"{len(timeline.keys)}×{len(timeline.generations)} cells")
    print(f"pure rules alone on the same data:            {pure * 1000:7.0f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src, store = Path(tmp) / "d.jsonl", Path(tmp) / "d.db"
        write(src)
        asyncio.run(import_file(src, store, actor="bench"))
        asyncio.run(measure(store))


if __name__ == "__main__":
    main()
