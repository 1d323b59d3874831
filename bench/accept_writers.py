"""Accepted commits per second with four writer processes, on SQLite and on PostgreSQL, in one run.

    python -m bench.accept_writers [--writers 4] [--seconds 5]

Each writer process loops: read the session's context version v, accept its own candidate
built on base v. Of the writers that read the same v exactly one can win; the rest are
refused ``stale_base`` and read again. The figure is accepted commits per second, with the
refusals beside it; at the end the wins must equal the growth of ``context_version`` (no
lost update) and ``verify`` must pass. The same loop runs on an SQLite file and on a
PostgreSQL database (a throwaway server, tests/pg_cluster.py) one after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.pg_import import new_database
from inspector.domain.sif import identity_digest
from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store import ledger
from inspector.store.connection import open_store
from inspector.store.location import store_target
from inspector.store.tables import SPECS
from tests.pg_cluster import running_server

BASES = 6_000  # candidates per writer: more than any run accepts


async def prepare(store: str, writers: int, tmp: Path) -> None:
    src = tmp / f"session-{uuid.uuid4().hex[:6]}.jsonl"
    src.write_text('{"type":"header","format":"sif/1"}\n{"type":"session","id":"s"}\n', encoding="utf-8")
    await import_file(src, store_target(store), actor="bench")  # type: ignore[arg-type]
    spec = SPECS["candidate"]
    rows = []
    for base in range(1, BASES + 1):
        for w in range(writers):
            rec = {"type": "candidate", "session": "s", "id": f"w{w}-{base}", "base_version": base,
                   "goal_revision": 1, "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": "x",
                   "sources": ["evt:1"], "status": "pending"}
            rows.append(spec.to_row(rec, identity_digest("candidate", rec)))
    async with await open_store(store_target(store)) as opened, opened.transaction() as db:
        await db.executemany(spec.insert_sql, rows)
        await ledger.append(db, [ledger.NewEntry("s", "import", "bench", {
            "added": {"candidate": len(rows)}, "context_version": 1, "goal_revision": 1})])


async def writer(store: str, side: str, seconds: float, start_at: float) -> dict[str, int]:
    from inspector.services.candidates import accept

    wins = losses = 0
    async with await open_store(store_target(store)) as opened:
        await asyncio.sleep(max(0.0, start_at - time.time()))
        stop = time.time() + seconds
        while time.time() < stop:
            version = (await get_session(opened, "s")).context_version
            decision = await accept(opened, f"{side}-{version}", actor=side)
            if decision.validation.refusals:
                losses += 1
            else:
                wins += 1
    return {"wins": wins, "losses": losses}


def race(store: str, writers: int, seconds: float, tmp: Path) -> dict[str, object]:
    asyncio.run(prepare(store, writers, tmp))
    start_at = time.time() + 3  # every writer has the store open before the clock starts
    procs = [subprocess.Popen([sys.executable, "-m", "bench.accept_writers", "--seconds", str(seconds),
                               "--writer", store, f"w{n}", str(start_at)], stdout=subprocess.PIPE, text=True)
             for n in range(writers)]
    results = [json.loads(p.communicate()[0]) for p in procs]

    async def final() -> tuple[int, bool]:
        async with await open_store(store_target(store)) as opened:
            return (await get_session(opened, "s")).context_version, (await verify_store(opened)).ok

    version, ok = asyncio.run(final())
    wins = sum(int(r["wins"]) for r in results)
    return {"wins": wins, "per_s": wins / seconds, "refused": sum(int(r["losses"]) for r in results),
            "lost_updates": wins - (version - 1), "verify": ok}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writer", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        store, side, start_at = args.writer
        print(json.dumps(asyncio.run(writer(store, side, args.seconds, float(start_at)))))
        return
    rows = {}
    with tempfile.TemporaryDirectory() as tmp, running_server() as server:
        rows["sqlite"] = race(str(Path(tmp) / "accept.db"), args.writers, args.seconds, Path(tmp))
        rows["postgresql"] = race(asyncio.run(new_database(server)), args.writers, args.seconds, Path(tmp))
    print(f"{args.writers} writer processes, {args.seconds:.0f} s each backend")
    for name, r in rows.items():
        print(f"{name:<11} {r['per_s']:>7,.0f} accepts/s ({r['wins']} accepted, {r['refused']} refused stale_base); "
              f"lost updates: {r['lost_updates']}; verify: {'ok' if r['verify'] else 'BROKEN'}")
    print(f"postgresql / sqlite: {rows['postgresql']['per_s'] / max(rows['sqlite']['per_s'], 1e-9):.2f}")


if __name__ == "__main__":
    main()
