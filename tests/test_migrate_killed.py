"""A ``migrate`` killed half-way (SIGKILL: no handler runs) leaves a target that says so.

The copy commits as it goes, so a killed run leaves part of the source in the target. That
target must not pass for a store — nor merely for a damaged one: every command refuses it
with ``migration_unfinished`` (exit 3, one sentence naming the source and how to finish),
``verify`` reports it as that break (exit 1), and running the same ``migrate`` again
finishes the copy, after which the target verifies with the source's ledger head.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.built_once import built_once
from tests.conftest import PgDatabases, file_sha

EVENTS = 40_000  # 20 pages of 2,000 rows: the copy takes long enough to be caught half-way


def _child(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, env=env,
                          timeout=300)


@pytest.fixture(scope="module")
def big_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store, imported once per test run (tests/built_once.py); each worker migrates its own copy."""
    [store] = built_once(tmp_path_factory, "migrate-killed", _big_store, tmp_path_factory.mktemp("migrate-killed"))
    return store


def _big_store(folder: Path) -> list[Path]:
    lines = [json.dumps({"type": "header", "format": "sif/1"}),
             json.dumps({"type": "session", "id": "s-big", "title": "t", "created_at": "2025-05-01T00:00:00Z",
                         "owner": "alice"})]
    lines += [json.dumps({"type": "event", "session": "s-big", "seq": i, "kind": "user_message",
                          "content": f"message {i} about the export batch", "at": "2025-05-01T00:00:00Z",
                          "trust": "user"}) for i in range(1, EVENTS + 1)]
    (folder / "big.jsonl").write_text("\n".join(lines) + "\n")
    store = folder / "big.db"
    done = _child("import", str(folder / "big.jsonl"), "--into", str(store))
    assert done.returncode == 0, done.stderr
    assert not Path(f"{store}-wal").exists()  # the file alone is the whole store: a copy of it is one
    return [store]


def _kill_mid_copy(source: Path, target: str, copied: Callable[[], int]) -> None:
    """Start ``migrate``, SIGKILL it once the target holds some events but not all of them."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    child = subprocess.Popen([sys.executable, "-m", "inspector", "migrate", str(source), "--to", target],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if child.poll() is not None:
                pytest.fail("migrate finished before it could be killed half-way")
            if 0 < copied() < EVENTS:
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(30)
    assert 0 < copied() < EVENTS, "the target should hold part of the source"


def _sqlite_events(path: Path) -> Callable[[], int]:
    def count() -> int:
        if not path.exists():
            return 0
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.2) as db:
                return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        except sqlite3.Error:  # not made yet, or locked for a moment
            return 0
    return count


def _assert_refused_then_finished(source: Path, target: str) -> None:
    listed = _child("sessions", target, "--json")
    assert listed.returncode == 3, (listed.stdout, listed.stderr)
    error = json.loads(listed.stdout)["error"]
    assert error["code"] == "migration_unfinished", error
    assert str(source) in error["message"] and "inspector migrate" in error["message"], error
    plain = _child("sessions", target)
    assert plain.returncode == 3 and len(plain.stderr.strip().splitlines()) == 1 and "Traceback" not in plain.stderr
    verified = _child("verify", target, "--json")
    assert verified.returncode == 1, verified.stderr
    report = json.loads(verified.stdout)
    assert report["ok"] is False and report["first_break"]["code"] == "migration_unfinished", report
    finished = _child("migrate", str(source), "--to", target, "--json")
    assert finished.returncode == 0, finished.stderr
    document = json.loads(finished.stdout)
    assert document["ok"] and document["heads_match"] and document["finished_unfinished"], document
    assert document["tables"]["events"]["already"] > 0
    verified = _child("verify", target, "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["ok"], verified.stdout
    assert _child("sessions", target, "--json").returncode == 0


def test_a_killed_sqlite_migration_is_refused_as_unfinished_and_finished_by_running_it_again(
        big_source: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    _kill_mid_copy(big_source, str(target), _sqlite_events(target))
    _assert_refused_then_finished(big_source, str(target))


def test_refusing_an_unfinished_target_changes_nothing_on_disk(big_source: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    _kill_mid_copy(big_source, str(target), _sqlite_events(target))
    with sqlite3.connect(target) as db:  # fold the killed run's log into the file, so its bytes stand still
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = file_sha(target)
    for args in (("sessions", str(target)), ("verify", str(target)), ("ledger", str(target), "--json")):
        assert _child(*args).returncode in (1, 3)
    assert file_sha(target) == before


def test_a_killed_migration_to_postgresql_is_refused_as_unfinished_and_finished_by_running_it_again(
        big_source: Path, pg_databases: PgDatabases) -> None:
    import asyncpg  # noqa: PLC0415 - only this test talks to the server directly

    target = pg_databases.create("killed")

    def copied() -> int:
        async def count() -> int:
            conn = await asyncpg.connect(target)
            try:
                return int(await conn.fetchval("SELECT COUNT(*) FROM events"))
            except asyncpg.PostgresError:  # the tables are not made yet
                return 0
            finally:
                await conn.close()
        import asyncio  # noqa: PLC0415
        return asyncio.run(count())

    _kill_mid_copy(big_source, target, copied)
    _assert_refused_then_finished(big_source, target)
