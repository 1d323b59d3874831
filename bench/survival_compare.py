"""The survival view of 50 generations × 500 facts, this tree against an older commit, in one run.

    python -m bench.survival_compare [--rounds 5] [--old-commit 71d9694]

bench/survival_speed.py gives the figure against the target (< 0.5 s); on a machine shared
by several agents its absolute time moves with the load, so this bench runs the same
measurement with the code of an older commit (extracted with ``git archive``, as
bench/drift_compare.py does) and with this tree, in separate processes, alternating
rounds, on the same data. Per round and tree: the first ``survival_all`` of the process
(what opening the Survival view costs: no per-value cache is warm yet) and the median of
four more. CPU time (``time.process_time``) is the steadier figure here; wall time is shown too.
The default old commit, 71d9694, is the code after the hostile-review fixes of issue #12
(594–636 ms CPU in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bench.drift_compare import extract_old, run
from bench.survival_speed import write

ROOT = Path(__file__).resolve().parent.parent

# Runs inside the tree under test (old or new); uses only APIs both trees have.
WORKER = r'''
import asyncio, json, statistics, sys, time
from pathlib import Path
import inspector
from inspector.services.importing import import_file
from inspector.services.survival import survival_all
from inspector.store.connection import open_store

async def main(src, store):
    await import_file(src, store, actor="bench")
    runs = []
    async with await open_store(store) as opened:
        for _ in range(5):
            w, c = time.perf_counter(), time.process_time()
            reports = await survival_all(opened, "s")
            runs.append((time.perf_counter() - w, time.process_time() - c))
    counts = {}
    for r in reports:
        for k, v in (r.result.counts if r.result else {}).items():
            counts[k] = counts.get(k, 0) + v
    print(json.dumps({"tree": inspector.__file__, "first": runs[0],
                      "warm": [statistics.median(x[i] for x in runs[1:]) for i in (0, 1)], "counts": counts}))

asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--old-commit", default="71d9694")
    args = parser.parse_args()
    results: dict[str, list[dict[str, object]]] = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        old = extract_old(args.old_commit, root / "old")
        src = root / "survival.jsonl"
        write(src)
        for _ in range(args.rounds):
            for label, tree in (("old", old), ("new", ROOT)):
                results[label].append(run(tree, src, root / f"{label}.db", WORKER))
    med = {label: {"first": [statistics.median(float(r["first"][i]) for r in rs) for i in (0, 1)],  # type: ignore[index]
                   "warm": [statistics.median(float(r["warm"][i]) for r in rs) for i in (0, 1)]}  # type: ignore[index]
           for label, rs in results.items()}
    print(f"survival view, 50 generations × 500 facts, median of {args.rounds} alternating rounds "
          f"(old = {args.old_commit})")
    print("| measure | old wall | new wall | ratio | old CPU | new CPU | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for m, label in (("first", "first open (cold)"), ("warm", "later opens (median of 4)")):
        (ow, oc), (nw, nc) = med["old"][m], med["new"][m]
        print(f"| {label} | {ow * 1000:.0f} ms | {nw * 1000:.0f} ms | {nw / ow:.2f}× | {oc * 1000:.0f} ms "
              f"| {nc * 1000:.0f} ms | {nc / oc:.2f}× |")
    same = results["old"][-1]["counts"] == results["new"][-1]["counts"]
    print(f"verdicts: old {results['old'][-1]['counts']}, new {results['new'][-1]['counts']}"
          f" ({'the same' if same else 'DIFFERENT'})")


if __name__ == "__main__":
    main()
