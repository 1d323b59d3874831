"""A follow tick on a large session: what one look of the live follow costs when the agent has
appended a few lines — this tree against a baseline commit, in one run.

    python -m bench.follow_tick [--events 100000] [--append 5] [--polls 7] [--runs 3] [--baseline REV]

Each worker process builds one sif/1 session of ``--events`` events in a temporary store, then
``--polls`` times appends ``--append`` events to the file and times the follower's ``poll()``
(stat, read the tail, import it in one transaction with its ledger entry and seals, read the new
events back). Three ways, run in alternation ``--runs`` times each so load hits all alike:

- ``baseline``: the code at ``--baseline`` (default 07bebae, before this work), exported with
  ``git archive`` into a temporary folder;
- ``whole-seals``: this tree with the previous seal rule patched back in (every type of the
  session re-read whole at each import) — what the seal links alone save;
- ``now``: this tree.

Medians over every timed poll. Also times ``verify`` once on a grown store of this tree.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def lines(first: int, count: int) -> bytes:
    return b"".join(json.dumps({"type": "event", "session": "s-bench", "seq": n, "kind": "user_message",
                                "content": f"appended line {n}", "at": "2025-05-02T00:00:00Z", "trust": "user"},
                               separators=(",", ":")).encode() + b"\n" for n in range(first, first + count))


async def worker(events: int, append: int, polls: int, whole_seals: bool, verify: bool) -> dict[str, Any]:
    """Runs inside the tree on sys.path (this one, or the baseline's)."""
    from bench.make_data import write_events_file
    from inspector.services.following import Follower, catch_up
    from inspector.store import seals

    if whole_seals:
        from inspector.store.tables import WRITE_ORDER

        async def whole(db: Any, key: bytes, session: str, kind: str, payload: dict[str, Any],
                        earlier: Any = None) -> dict[str, str]:
            types = list(WRITE_ORDER) if kind in seals.CREATING_KINDS else seals.sealed_types(kind, payload)
            return {t: await seals.seal(db, key, session, t) for t in types}

        seals.seals_for = whole  # type: ignore[assignment]
    with tempfile.TemporaryDirectory(prefix="follow-tick-") as tmp:
        src, db = Path(tmp) / "run.jsonl", Path(tmp) / "run.db"
        write_events_file(src, events)
        await catch_up(src, db, actor="bench", live=True)
        follower = await Follower.open(db, src, actor="bench")
        times: list[float] = []
        seq = events + 1
        try:
            for _ in range(polls + 1):  # the first poll warms the caches and is not counted
                with src.open("ab") as fh:
                    fh.write(lines(seq, append))
                seq += append
                start = time.perf_counter()
                step = await follower.poll()
                times.append(time.perf_counter() - start)
                assert len(step.events) == append
        finally:
            await follower.close()
        import inspector

        out: dict[str, Any] = {"polls_s": times[1:], "tree": str(Path(inspector.__file__).parents[1])}
        if verify:
            from inspector.services.verifying import verify_store
            from inspector.store.connection import open_store

            async with await open_store(db) as store:
                start = time.perf_counter()
                out["verify_ok"] = (await verify_store(store)).ok
                out["verify_s"] = time.perf_counter() - start
        return out


def run_worker(tree: Path, args: argparse.Namespace, *, whole_seals: bool = False, verify: bool = False) -> dict[str, Any]:
    # this file run by path; inspector and bench.make_data imported from ``tree``
    cmd = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); script = sys.argv[2]; "
           "sys.argv = sys.argv[2:]; import runpy; runpy.run_path(script, run_name='__main__')",
           str(tree), str(Path(__file__).resolve()), "--worker", "--events", str(args.events), "--append", str(args.append),
           "--polls", str(args.polls)]
    cmd += ["--whole-seals"] if whole_seals else []
    cmd += ["--verify"] if verify else []
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tree, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="follow-tick-base-") as base:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", base], input=archive.stdout, check=True)
        polls: dict[str, list[float]] = {"baseline": [], "whole-seals": [], "now": []}
        verified: dict[str, Any] = {}
        for n in range(args.runs):
            got = run_worker(Path(base), args)
            assert got["tree"] == str(Path(base)), got["tree"]  # the baseline's code, not this tree's
            polls["baseline"] += got["polls_s"]
            polls["whole-seals"] += run_worker(ROOT, args, whole_seals=True)["polls_s"]
            got = run_worker(ROOT, args, verify=n == 0)
            polls["now"] += got["polls_s"]
            verified = verified or {k: got[k] for k in ("verify_ok", "verify_s") if k in got}
    med = {k: statistics.median(v) for k, v in polls.items()}
    return {"events": args.events, "append": args.append, "polls": len(polls["now"]), "baseline": args.baseline,
            **{f"poll_ms_{k}": round(v * 1000, 2) for k, v in med.items()},
            "ratio_baseline_over_now": round(med["baseline"] / med["now"], 1),
            "ratio_whole_seals_over_now": round(med["whole-seals"] / med["now"], 1),
            "verify_ok": verified.get("verify_ok"), "verify_s": round(verified.get("verify_s", 0.0), 2)}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--append", type=int, default=5)
    parser.add_argument("--polls", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", default="07bebae")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--whole-seals", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--verify", action="store_true", help=argparse.SUPPRESS)
    a = parser.parse_args()
    if a.worker:
        print(json.dumps(asyncio.run(worker(a.events, a.append, a.polls, a.whole_seals, a.verify))))
    else:
        print(json.dumps(main(a)))
