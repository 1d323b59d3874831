"""Eight reviewers in eight processes race on one candidate base, 20 rounds: exactly one wins each
round, the others are told ``stale_base``, and the ledger verifies — on SQLite and on PostgreSQL.

The workers (tests/race_worker.py) are started once and driven round by round: each round
the test imports eight valid candidates on the session's current context version, one per
worker, and hands each worker its candidate only when every worker has answered the round
before, so all eight accepts start together and compete for the one compare-and-swap.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.services.importing import import_file
from inspector.services.sessions import get_session
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.store.location import store_target
from tests.conftest import session_record, write_sif

REVIEWERS = 8
ROUNDS = 20


@pytest.fixture
def race_store(backend_empty_store: Path | str) -> str:
    return str(backend_empty_store)


def _candidates(round_: int, base: int) -> list[dict]:
    return [{"type": "candidate", "session": "s1", "id": f"r{round_}-{n}", "base_version": base, "goal_revision": 1,
             "exact_fields": {}, "summary": f"round {round_} by reviewer {n}", "sources": ["evt:1"]}
            for n in range(REVIEWERS)]


@pytest.fixture
def reviewers(race_store: str) -> Iterator[list[subprocess.Popen[str]]]:
    procs = [subprocess.Popen([sys.executable, "-m", "tests.race_worker", race_store, f"reviewer-{n}"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for n in range(REVIEWERS)]
    try:
        yield procs
    finally:
        for p in procs:
            if p.stdin:
                p.stdin.close()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


async def _version(store: str) -> int:
    async with await open_store(store_target(store)) as opened:
        return (await get_session(opened, "s1")).context_version


async def test_eight_reviewers_race_on_one_candidate_base_twenty_rounds(race_store: str, tmp_path: Path,
                                                                        request: pytest.FixtureRequest) -> None:
    await import_file(write_sif(tmp_path / "s.jsonl", [session_record()]), store_target(race_store), actor="t")
    procs: list[subprocess.Popen[str]] = request.getfixturevalue("reviewers")
    for p in procs:  # every reviewer has the store open before the first round
        assert p.stdout is not None and p.stdout.readline() == "ready\n"
    winners: list[str] = []
    for round_ in range(ROUNDS):
        base = await _version(race_store)
        await import_file(write_sif(tmp_path / f"r{round_}.jsonl", _candidates(round_, base)), store_target(race_store), actor="t")
        for n, p in enumerate(procs):  # all at once: each worker is already waiting on its stdin
            assert p.stdin is not None
            p.stdin.write(f"r{round_}-{n}\n")
            p.stdin.flush()
        results = [json.loads(p.stdout.readline()) for p in procs if p.stdout is not None]
        won = [r for r in results if r["status"] == "accepted"]
        lost = [r for r in results if r["status"] != "accepted"]
        assert len(won) == 1 and len(lost) == REVIEWERS - 1, results
        assert all([x["code"] for x in r["refusals"]] == ["stale_base"] for r in lost), lost
        assert won[0]["context_version"] == base + 1 == await _version(race_store)
        winners.append(won[0]["candidate"])
    async with await open_store(store_target(race_store)) as opened:
        report = await verify_store(opened)
        assert report.ok, report.first_break
        accepts = [e for e in await opened.db.execute_fetchall(
            "SELECT payload FROM ledger WHERE kind = 'candidate.accept' ORDER BY seq")]
        assert [json.loads(p[0])["candidate"] for p in accepts] == winners
        assert (await get_session(opened, "s1")).context_version == 1 + ROUNDS
