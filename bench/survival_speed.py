"""Survival view of a session with 50 generations × 500 protected facts.

    python -m bench.survival_speed [--runs 5]

Target (issue #11): the survival view (every generation's verdicts, ``survival_all``,
what the app's Survival view computes) in under 0.5 s. Baseline in the same run: reading
the same facts and generations from the store without judging them, so the figure shows
what the verdict rules add to the reads they cannot avoid.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from inspector.services.channels import generations
from inspector.services.importing import import_file
from inspector.services.survival import protected_facts, survival_all
from inspector.store.connection import open_store

FACTS, GENERATIONS, EVENTS = 500, 50, 1000
AT = "2025-05-01T08:00:00Z"


def _fact(k: int) -> dict[str, object]:
    kind = ["artifact", "constraint", "decision", "open_issue", "failure", "reference", "goal", "artifact"][k % 8]
    value = {
        "artifact": f"/home/dev/project/src/module_{k}/handler_{k}.py",
        "constraint": f"不要修改 service_{k} 的公开接口",
        "decision": f"use the streaming exporter for job {k}",
        "open_issue": f"P95 of endpoint {k} still untested",
        "failure": f"pytest -q tests/test_{k}.py failed: AssertionError in test_case_{k}",
        "reference": f"https://github.com/example/repo/pull/{k}",
        "goal": f"make export job {k} finish under two minutes",
    }[kind]
    rec: dict[str, object] = {"type": "state", "session": "s", "key": f"{kind}.{k}", "kind": kind, "value": value,
                              "sources": [f"evt:{1 + (k * 7) % EVENTS}"], "writer": "extractor", "status": "pending",
                              "at": AT}
    if kind == "decision":
        rec.update(alternatives=[f"paged exporter for job {k}"], rationale="long transactions time out")
    return rec


def write(path: Path) -> None:
    facts = [_fact(k) for k in range(FACTS)]
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"type":"header","format":"sif/1"}\n{"type":"session","id":"s","owner":"bench"}\n')
        for seq in range(1, EVENTS + 1):
            fh.write(json.dumps({"type": "event", "session": "s", "seq": seq, "kind": "user_message", "trust": "user",
                                 "at": AT, "content": f"step {seq}"}) + "\n")
        for f in facts:
            fh.write(json.dumps(f, ensure_ascii=False) + "\n")
        for g in range(1, GENERATIONS + 1):
            last = g * EVENTS // GENERATIONS
            kept = [str(f["value"]) for k, f in enumerate(facts) if (k + g) % 3]  # each generation keeps two thirds
            claims = [f"P95 of endpoint {k} passed" for k in range(3, FACTS, 40)]  # some contradictions
            text = "。".join(kept[: len(kept) // 2]) + ". " + ". ".join(claims) + ". " + " ".join(kept[len(kept) // 2:])
            fh.write(json.dumps({"type": "summary", "session": "s", "generation": g, "kind": "recursive",
                                 "text": text, "covers": [1, last], "unresolved": [], "sources": ["evt:1"]},
                                ensure_ascii=False) + "\n")


async def measure(store: Path) -> tuple[float, float, int, dict[str, int], float]:
    async with await open_store(store) as opened:
        start = time.perf_counter()
        facts = await protected_facts(opened, "s")
        gens = await generations(opened, "s")
        reads = time.perf_counter() - start
        start, cpu = time.perf_counter(), time.process_time()
        reports = await survival_all(opened, "s")
        full, full_cpu = time.perf_counter() - start, time.process_time() - cpu
    counts: dict[str, int] = {}
    for r in reports:
        for k, v in (r.result.counts if r.result else {}).items():
            counts[k] = counts.get(k, 0) + v
    assert len(facts) == FACTS and len(gens) == GENERATIONS
    return reads, full, sum(len(r.verdicts) for r in reports), counts, full_cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src, store = Path(tmp) / "s.jsonl", Path(tmp) / "s.db"
        write(src)
        asyncio.run(import_file(src, store, actor="bench"))
        runs = [asyncio.run(measure(store)) for _ in range(args.runs)]
    reads = statistics.median(r[0] for r in runs)
    full = statistics.median(r[1] for r in runs)
    cpu = statistics.median(r[4] for r in runs)
    print(f"{GENERATIONS} generations × {FACTS} facts, median of {args.runs}")
    print(f"baseline: read the facts and generations:   {reads * 1000:6.0f} ms")
    print(f"survival view (survival_all, all verdicts): {full * 1000:6.0f} ms wall, {cpu * 1000:.0f} ms CPU "
          f"(target < 500 ms); {runs[-1][2]:,} verdicts {runs[-1][3]}")


if __name__ == "__main__":
    main()
