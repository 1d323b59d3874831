"""Two processes accept two valid candidates on the same base: exactly one wins, every time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from inspector.services.candidates import validate
from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import session_record, write_sif

ROUNDS = 8
PG_ROUNDS = 3  # the many-process, many-round race on PostgreSQL is its own test (pg-tools)


def _pair(round_: int, base: int) -> list[dict]:
    return [{"type": "candidate", "session": "s1", "id": f"{side}{round_}", "base_version": base, "goal_revision": 1,
             "exact_fields": {}, "summary": f"round {round_} by {side}", "sources": ["evt:1"]} for side in "ab"]


async def test_exactly_one_of_two_concurrent_accepts_wins(tmp_path: Path, backend: str,
                                                         backend_empty_store: Path | str) -> None:
    store = backend_empty_store
    rounds = ROUNDS if backend == "sqlite" else PG_ROUNDS
    await import_file(write_sif(tmp_path / "s.jsonl", [session_record()]), store, actor="t")
    for round_ in range(rounds):
        async with await open_store(store) as opened:
            base = (await get_session(opened, "s1")).context_version
        await import_file(write_sif(tmp_path / f"r{round_}.jsonl", _pair(round_, base)), store, actor="t")
        procs = [subprocess.Popen([sys.executable, "-m", "tests.race_worker", str(store), f"{side}{round_}"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for side in "ab"]
        for p in procs:  # both have the store open and wait at the barrier
            assert p.stdout is not None and p.stdout.readline() == "ready\n"
        for p in procs:  # released together: the two accepts race for the writer
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        results = [json.loads(p.communicate(timeout=60)[0]) for p in procs]
        winners = [r for r in results if r["status"] == "accepted"]
        losers = [r for r in results if r["status"] != "accepted"]
        assert len(winners) == 1 and len(losers) == 1, results
        assert [x["code"] for x in losers[0]["refusals"]] == ["stale_base"]
        async with await open_store(store) as opened:
            assert (await get_session(opened, "s1")).context_version == base + 1
            again = await validate(opened, losers[0]["candidate"])
            assert [r.code for r in again.refusals] == ["stale_base"]
            assert (await verify_store(opened)).ok
