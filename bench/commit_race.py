"""Accepted commits per second with two competing writer processes, and zero lost updates.

    python -m bench.commit_race [--seconds 5]

Also, alternating in one process: what the commit mark every write carries (store/wal_commits.py)
costs a write transaction.

Each writer loops: read the session's context version v, accept its own candidate on base
v. Exactly one of each pair can win. At the end, the number of wins must equal the growth
of context_version (no lost update), and verify must pass. Also measured in the same run,
for reference: a bare compare-and-swap (BEGIN IMMEDIATE; UPDATE … WHERE v = ?; COMMIT) loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiosqlite

from inspector.domain.sif import identity_digest
from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store import ledger
from inspector.store.connection import open_store
from inspector.store.tables import SPECS

PAIRS = 40_000


async def prepare(store: Path) -> None:
    src = store.with_suffix(".jsonl")
    src.write_text('{"type":"header","format":"sif/1"}\n{"type":"session","id":"s"}\n', encoding="utf-8")
    await import_file(src, store, actor="bench")
    spec = SPECS["candidate"]
    rows = []
    for base in range(1, PAIRS + 1):
        for side in "ab":
            rec = {"type": "candidate", "session": "s", "id": f"{side}{base}", "base_version": base, "goal_revision": 1,
                   "exact_fields": {}, "open_actions": [], "unknowns": [], "summary": "x", "sources": ["evt:1"],
                   "status": "pending"}
            rows.append(spec.to_row(rec, identity_digest("candidate", rec)))
    async with await open_store(store) as opened, opened.transaction() as db:
        await db.executemany(spec.insert_sql, rows)
        await ledger.append(db, [ledger.NewEntry("s", "import", "bench", {
            "added": {"candidate": len(rows)}, "context_version": 1, "goal_revision": 1})])


async def writer(store: Path, side: str, seconds: float, start_at: float) -> dict[str, int]:
    from inspector.services.candidates import accept

    wins = losses = 0
    async with await open_store(store) as opened:
        time.sleep(max(0.0, start_at - time.time()))
        stop = time.time() + seconds
        while time.time() < stop:
            version = (await get_session(opened, "s")).context_version
            decision = await accept(opened, f"{side}{version}", actor=side)
            if decision.validation.refusals:
                losses += 1
            else:
                wins += 1
    return {"wins": wins, "losses": losses}


async def bare_cas(seconds: float) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        async with aiosqlite.connect(Path(tmp) / "cas.db", isolation_level=None) as db:
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("CREATE TABLE s (id INTEGER PRIMARY KEY, v INTEGER)")
            await db.execute("INSERT INTO s VALUES (1, 1)")
            n, stop = 0, time.perf_counter() + seconds
            while time.perf_counter() < stop:
                await db.execute("BEGIN IMMEDIATE")
                async with db.execute("SELECT v FROM s WHERE id = 1") as cur:
                    (v,) = await cur.fetchone()  # type: ignore[misc]
                await db.execute("UPDATE s SET v = ? WHERE id = 1 AND v = ?", (v + 1, v))
                await db.execute("COMMIT")
                n += 1
    return n / seconds


async def mark_cost(rounds: int = 6, per_round: int = 300) -> tuple[float, float]:
    """Microseconds per write transaction (one row rewritten) through Store.transaction, with the
    commit mark (store/wal_commits.py) and with it replaced by a no-op, alternating in rounds so
    a loaded machine's drift falls on both alike: the median round of each."""
    from inspector.store import wal_commits

    real = wal_commits.MARK_SQL
    timings: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "mark.db"
        await prepare_small(store)
        async with await open_store(store) as opened:
            try:
                for _ in range(rounds):
                    for marked in (True, False):
                        wal_commits.MARK_SQL = real if marked else "SELECT 1"
                        began = time.perf_counter()
                        for _ in range(per_round):
                            async with opened.transaction() as db:
                                await db.execute("UPDATE sessions SET title = title WHERE id = 's'")
                        timings[marked].append((time.perf_counter() - began) / per_round * 1e6)
            finally:
                wal_commits.MARK_SQL = real
    return sorted(timings[True])[rounds // 2], sorted(timings[False])[rounds // 2]


async def prepare_small(store: Path) -> None:
    src = store.with_suffix(".jsonl")
    src.write_text('{"type":"header","format":"sif/1"}\n{"type":"session","id":"s"}\n', encoding="utf-8")
    await import_file(src, store, actor="bench")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--writer", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.writer:
        store, side, start_at = args.writer
        print(json.dumps(asyncio.run(writer(Path(store), side, args.seconds, float(start_at)))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "race.db"
        asyncio.run(prepare(store))
        start_at = time.time() + 2
        procs = [subprocess.Popen([sys.executable, "-m", "bench.commit_race", "--seconds", str(args.seconds),
                                   "--writer", str(store), side, str(start_at)], stdout=subprocess.PIPE, text=True)
                 for side in "ab"]
        results = [json.loads(p.communicate()[0]) for p in procs]

        async def final() -> tuple[int, bool]:
            async with await open_store(store) as opened:
                return (await get_session(opened, "s")).context_version, (await verify_store(opened)).ok

        version, ok = asyncio.run(final())
    wins = sum(r["wins"] for r in results)
    losses = sum(r["losses"] for r in results)
    print(f"two writers, {args.seconds:.0f} s: {wins} accepted ({wins / args.seconds:,.0f}/s), {losses} refused stale_base")
    print(f"context_version grew by {version - 1}; lost updates: {wins - (version - 1)}; verify: {'ok' if ok else 'BROKEN'}")
    print(f"bare aiosqlite CAS loop, one writer: {asyncio.run(bare_cas(args.seconds)):,.0f}/s")
    marked, bare = asyncio.run(mark_cost())
    print(f"one write transaction: {marked:,.0f} µs with the commit mark, {bare:,.0f} µs without "
          f"({marked - bare:+,.0f} µs, {(marked - bare) / bare:+.0%})")


if __name__ == "__main__":
    main()
