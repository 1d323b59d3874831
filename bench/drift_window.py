"""What reading every event through the fact rules' window costs drift and survival (verdict-ten).

    python -m bench.drift_window [--old-tree /tmp/main] [--events 120] [--chars 60000] [--rounds 3]

Drift, survival and the rebuild read each event's first 4,000 and last 600 characters until
verdict-ten; now they read it as the fact rules do (whole under 64,000 characters, else its first
48,000 and last 16,000). The worst case for that change is a session of many long tool outputs
just under the bound: here ``--events`` Bash results of ``--chars`` characters each (build-log
lines, a test summary at the end), one summary generation over all of them. Both trees judge the
same store (``drift`` and ``survival`` services, latest generation), alternating rounds in separate
processes so machine load hits both alike; the figure is the ratio new / old of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AT = "2025-05-01T08:00:00Z"

WORKER = r'''
import asyncio, json, sys, time
from pathlib import Path
from inspector.services.drift import drift
from inspector.services.survival import survival_report
from inspector.store.connection import open_store
async def main(store):
    async with await open_store(Path(store)) as opened:
        t0 = time.perf_counter()
        await drift(opened, "w", None)
        await survival_report(opened, "w", 1)
        print(json.dumps({"s": time.perf_counter() - t0}))
asyncio.run(main(sys.argv[1]))
'''


def write_session(path: Path, events: int, chars: int) -> Path:
    line = "compiling module_{i:05d}.c ... ok (warnings: 0)\n"
    recs = [{"type": "header", "format": "sif/1"},
            {"type": "session", "id": "w", "title": "window", "created_at": AT, "owner": "o"},
            {"type": "event", "session": "w", "seq": 1, "kind": "user_message", "at": AT, "trust": "user",
             "content": "Fix the build. Do not delete the audit logs."}]
    seq = 1
    for n in range(events):
        body = "".join(line.format(i=i) for i in range(chars // len(line.format(i=0))))[:chars - 60]
        body += f"\n========== {40 + n % 3} passed, {n % 2} failed in 3.2s =========="
        recs += [{"type": "event", "session": "w", "seq": seq + 1, "kind": "tool_call", "at": AT, "trust": "model",
                  "call_id": f"c{n}", "tool": "Bash", "args": {"command": f"make build-{n}"}},
                 {"type": "event", "session": "w", "seq": seq + 2, "kind": "tool_result", "at": AT, "trust": "tool",
                  "call_id": f"c{n}", "tool": "Bash", "content": body}]
        seq += 2
    recs += [{"type": "state", "session": "w", "key": "constraint.audit", "kind": "constraint",
              "value": "Do not delete the audit logs", "sources": ["evt:1"], "writer": "user", "at": AT,
              "scope": "task", "version": 1, "status": "active"},
             {"type": "summary", "session": "w", "generation": 1, "kind": "recursive", "base_version": 1,
              "covers": [1, seq], "sources": ["evt:1"], "unresolved": [],
              "text": "Goal: fix the build. Constraint: Do not delete the audit logs. The last build: 41 passed, "
                      "1 failed; all other modules compile."}]
    path.write_text("\n".join(json.dumps(r) for r in recs) + "\n", encoding="utf-8")
    return path


def timed(tree: Path, store: Path) -> float:
    out = subprocess.run([sys.executable, "-c", WORKER, str(store)], cwd=tree, capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    return float(json.loads(out.stdout.strip().splitlines()[-1])["s"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old-tree", type=Path, required=True, help="a checkout of main before verdict-ten")
    parser.add_argument("--events", type=int, default=120)
    parser.add_argument("--chars", type=int, default=60_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import asyncio

    from inspector.services.importing import import_file  # noqa: PLC0415 (after the path)

    with tempfile.TemporaryDirectory() as tmp:
        src = write_session(Path(tmp) / "w.jsonl", args.events, args.chars)
        store = Path(tmp) / "w.db"
        asyncio.run(import_file(src, store, actor="bench"))
        old: list[float] = []
        new: list[float] = []
        for _ in range(args.rounds):
            old.append(timed(args.old_tree, store))
            new.append(timed(ROOT, store))
    o, n = statistics.median(old), statistics.median(new)
    print(f"{args.events} results × {args.chars:,} characters: old {o:.2f} s, new {n:.2f} s (median of "
          f"{args.rounds}); new / old = {n / o:.2f}")


if __name__ == "__main__":
    main()
