"""A follow look on a 100,000-event Claude Code session: the extractor's share, before and after.

    python -m bench.follow_facts [--events 100000] [--append 5] [--polls 7] [--runs 3]

A followed *transcript* (not sif/1) has the extractor propose the facts its new lines hold
at every look that imported some (``fact_proposals.write``). It used to extract from the
whole session at each look; it now reads the appended events only
(``domain/facts_running.py``). Two ways, each in its own process, alternated ``--runs``
times on copies of one store so load hits both alike:

- ``whole``: this tree with every look extracting from the whole log again (the previous
  rule: ``fact_proposals.Followed`` switched off);
- ``running``: this tree.

The session is a generated Claude Code transcript of ``--events`` events: user requests
(some with a constraint or a reference), assistant text, Bash and Edit calls with their
results (some failing, later fixed), todo lists — about the mix of a real one, in short
lines. Each look appends ``--append`` such events to the file and times ``Follower.poll()``
(stat, read the tail, convert, import it with its ledger entry, propose facts, read the new
events back). The first look of each worker is not counted (it reads the whole log once in
both ways). Medians over every timed look; the ratio is whole / running.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SESSION = "0b5e6a1c-5f0e-4c1e-9d6a-000000000001"


def _line(n: int, kind: str, message: dict[str, Any]) -> str:
    return json.dumps({"parentUuid": f"00000000-0000-4000-8000-{n - 1:012d}" if n > 1 else None,
                       "isSidechain": False, "userType": "external", "cwd": "/work/repo", "sessionId": SESSION,
                       "version": "2.1.14", "gitBranch": "main", "type": kind, "message": message,
                       "uuid": f"00000000-0000-4000-8000-{n:012d}",
                       "timestamp": f"2026-01-06T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"},
                      separators=(",", ":"))


def lines(first: int, count: int) -> str:
    """``count`` events from event number ``first`` on (each line is one event)."""
    out = []
    for n in range(first, first + count):
        step = n % 10
        if step == 0:
            text = (f"Please look at the export timeout again (run {n}). Never touch the production database."
                    if n % 50 == 0 else f"Continue with step {n}, see https://example.org/runs/{n // 100}")
            out.append(_line(n, "user", {"role": "user", "content": text}))
        elif step in (1, 5):
            out.append(_line(n, "assistant", {"role": "assistant", "content": [
                {"type": "text", "text": f"Looking at step {n}: the export still times out on large batches."}]}))
        elif step in (2, 6, 8):
            tool, args = (("Bash", {"command": f"pytest -q tests/test_export_{n // 20 % 7}.py"}) if step == 2 else
                          ("Edit", {"file_path": f"/work/repo/src/export_{n // 10 % 40}.py", "old_string": "a",
                                    "new_string": "b"}) if step == 6 else
                          ("TodoWrite", {"todos": [{"content": f"measure P95 of batch {n // 1000}",
                                                    "status": "completed" if n % 3 else "in_progress"}]}))
            out.append(_line(n, "assistant", {"role": "assistant", "content": [
                {"type": "tool_use", "id": f"toolu_{n:08d}", "name": tool, "input": args}]}))
        elif step in (3, 7, 9):
            failing = step == 3 and n % 40 == 3
            content = ("FAILED tests/test_export.py::test_large_batch - AssertionError\n1 failed, 3 passed\nexit code 1"
                       if failing else "4 passed in 0.5s" if step == 3 else "ok")
            out.append(_line(n, "user", {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": f"toolu_{n - 1:08d}", "content": content,
                 "is_error": failing}]}))
        else:
            out.append(_line(n, "assistant", {"role": "assistant", "content": [
                {"type": "text", "text": f"Step {n} done; next the streaming path."}]}))
    return "".join(line + "\n" for line in out)


WORKER = r'''
import asyncio, json, sys, time
from pathlib import Path
from bench.follow_facts import lines
from inspector.services import fact_proposals
from inspector.services.following import Follower

async def main(src, db, first, append, polls, way):
    if way == "whole":  # the previous rule: every look extracts from the whole log
        fact_proposals.Followed.facts_before = fact_proposals.Followed.facts
        async def whole(self, conn, session):
            self.running = None
            return await fact_proposals.Followed.facts_before(self, conn, session)
        fact_proposals.Followed.facts = whole
    follower = await Follower.open(db, src, actor="bench")
    times, n = [], first
    try:
        for _ in range(polls + 1):
            with src.open("a", encoding="utf-8") as fh:
                fh.write(lines(n, append))
            n += append
            t0 = time.perf_counter(), time.process_time()
            step = await follower.poll()
            times.append((time.perf_counter() - t0[0], time.process_time() - t0[1]))
            assert len(step.events) == append, len(step.events)
    finally:
        await follower.close()
    import inspector
    print(json.dumps({"polls": times[1:], "tree": inspector.__file__}))

a = sys.argv
asyncio.run(main(Path(a[1]), Path(a[2]), int(a[3]), int(a[4]), int(a[5]), a[6]))
'''


def prepare(folder: Path, events: int) -> tuple[Path, Path]:
    """The transcript of ``events`` events, imported once, followed live from its end."""
    from inspector.services.following import catch_up

    src, db = folder / "session.jsonl", folder / "session.db"
    with src.open("w", encoding="utf-8") as fh:
        for first in range(1, events + 1, 10_000):
            fh.write(lines(first, min(10_000, events + 1 - first)))
    report = asyncio.run(catch_up(src, db, actor="bench", live=True))
    assert report.added_events == events, report.added_events
    return src, db


def run(way: str, base: tuple[Path, Path], folder: Path, first: int, args: argparse.Namespace) -> list[list[float]]:
    # The store knows the transcript by its name: each way's copy keeps it, in a folder of its own.
    shutil.rmtree(folder / way, ignore_errors=True)
    (folder / way).mkdir()
    src, db = folder / way / base[0].name, folder / way / base[1].name
    shutil.copyfile(base[0], src)
    shutil.copyfile(base[1], db)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", WORKER, str(src), str(db), str(first), str(args.append),
                           str(args.polls), way], env=env, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"the {way} worker failed:\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert str(out["tree"]).startswith(str(ROOT)), out["tree"]
    return out["polls"]  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--append", type=int, default=5)
    parser.add_argument("--polls", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="follow-facts-") as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        base = prepare(folder, args.events)
        print(f"{args.events:,} events imported and checkpointed in {time.perf_counter() - start:.1f} s "
              f"({base[0].stat().st_size / 1e6:.1f} MB transcript)")
        times: dict[str, list[list[float]]] = {"whole": [], "running": []}
        for _ in range(args.runs):
            for way in times:
                times[way] += run(way, base, folder, args.events + 1, args)
    med = {way: [statistics.median(t[i] for t in v) for i in (0, 1)] for way, v in times.items()}
    print(f"a look after appending {args.append} events, median of {len(times['running'])} looks per way "
          f"({args.runs} alternating runs); load average {os.getloadavg()[0]:.1f}")
    print("| way | wall | CPU |")
    print("|---|---:|---:|")
    for way, (wall, cpu) in med.items():
        print(f"| {way} | {wall * 1000:.1f} ms | {cpu * 1000:.1f} ms |")
    print(f"| whole / running | {med['whole'][0] / med['running'][0]:.1f}× | {med['whole'][1] / med['running'][1]:.1f}× |")


if __name__ == "__main__":
    main()
