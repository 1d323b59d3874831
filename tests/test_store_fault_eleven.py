"""Faults not tried before (storefault-eleven): a full disk during an act, a medium that cannot be
written under an older store, the store replaced under a running ``follow``, two ``follow``s of one
transcript into one store, the clock set back between two acts of which the first upgrades.

Each: a clear error with a stable code (or none, where there is nothing wrong), nothing half
written, ``verify`` passing after.
"""

from __future__ import annotations

import asyncio
import json
import os
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.candidates import accept, reject
from inspector.store import connection, ledger, sqlite_connections
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION
from tests.test_format_upgrade_said import _folder, _version
from tests.test_older_store_busy_said import _to_format_8

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code" / \
    "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
NEW_SESSION = Path(__file__).resolve().parents[1] / "sample_sessions" / "06_large_fold.jsonl"


def _no_room(monkeypatch: pytest.MonkeyPatch, store: Path) -> None:
    """The store may not grow by a page (SQLite's ``max_page_count`` on every connection to it): what
    a disk that filled up after the open gives an act that needs a new page — SQLITE_FULL."""
    with closing(sqlite3.connect(store)) as db:
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    real = sqlite_connections.configure

    async def capped(db: Any) -> None:
        await real(db)
        await db.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(sqlite_connections, "configure", capped)


def test_a_full_disk_during_an_import_into_a_store_writes_nothing(sample_store: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    new = tmp_path / "new" / "other.jsonl"
    new.parent.mkdir()
    new.write_bytes(NEW_SESSION.read_bytes().replace(b"s-bigfold", b"s-other"))
    before = _folder(sample_store)
    _no_room(monkeypatch, sample_store)
    done = CliRunner().invoke(cli, ["import", str(new), "--into", str(sample_store), "--json"])
    assert done.exit_code == 3, done.output
    assert json.loads(done.stdout)["error"]["code"] == "disk_full"
    assert "Traceback" not in done.output
    monkeypatch.undo()
    assert _folder(sample_store) == before
    assert CliRunner().invoke(cli, ["verify", str(sample_store)]).exit_code == 0


def test_a_full_disk_during_the_act_that_upgrades_an_older_store_leaves_it_at_its_format(
        sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The act's transaction makes the upgrade, then the import: the full disk part way rolls both back."""
    new = tmp_path / "new" / "other.jsonl"
    new.parent.mkdir()
    new.write_bytes(NEW_SESSION.read_bytes().replace(b"s-bigfold", b"s-other"))
    _to_format_8(sample_store)
    before = _folder(sample_store)
    _no_room(monkeypatch, sample_store)
    done = CliRunner().invoke(cli, ["import", str(new), "--into", str(sample_store), "--json"])
    assert done.exit_code == 3, done.output
    assert json.loads(done.stdout)["error"]["code"] == "disk_full"
    monkeypatch.undo()
    assert _folder(sample_store) == before and _version(sample_store) == 8
    assert CliRunner().invoke(cli, ["upgrade", str(sample_store)]).exit_code == 0
    assert CliRunner().invoke(cli, ["verify", str(sample_store)]).exit_code == 0


@pytest.mark.parametrize("reason", ["a read-only medium", "its folder is not writable", "the file is not writable"])
def test_an_older_store_that_cannot_be_written_is_read_and_its_acts_refused(
        sample_store: Path, monkeypatch: pytest.MonkeyPatch, reason: str) -> None:
    """Before: "has store format 8 and must be upgraded to 9 before this version can read it, but it
    can only be read here" (format_upgrade_needed) — for a read that needs no write. Now it is read
    through an upgraded copy elsewhere (store/read_copy.py); an act is refused read_only. (Simulated:
    the tests run as root, whom file modes do not stop; by hand on a tmpfs remounted read-only.)"""
    _to_format_8(sample_store)
    before = _folder(sample_store)
    monkeypatch.setattr(connection, "read_only_reason", lambda _target: reason)
    read = CliRunner().invoke(cli, ["sessions", str(sample_store), "--json"])
    assert read.exit_code == 0 and len(json.loads(read.stdout)) == 6, read.output
    act = CliRunner().invoke(cli, ["reject", str(sample_store), "cand-stale", "--reason", "r", "--reviewer", "lin",
                                   "--json"])
    assert act.exit_code == 3 and json.loads(act.stdout)["error"]["code"] == "read_only", act.output
    checked = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])  # verify still reads no copy
    assert checked.exit_code == 3 and json.loads(checked.stdout)["error"]["code"] == "format_upgrade_needed"
    assert _folder(sample_store) == before  # no -wal or -shm left by the read-only look either


def _follow(transcript: Path, store: Path, tmp_path: Path, name: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", INSPECTOR_REVIEWER="lin",
               INSPECTOR_DATA_DIR=str(tmp_path / "data"), INSPECTOR_CONFIG_DIR=str(tmp_path / "config"))
    return subprocess.Popen([sys.executable, "-m", "inspector", "follow", str(transcript), "--into", str(store)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _attached(child: subprocess.Popen[str]) -> None:
    """Wait for the follow's first printed event: it prints the events it holds once it is attached
    (its catch-up's opens and the follower's own are done), so a file moved in from here is one it
    has open — not one its attach would open."""
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], 90)
    assert ready and child.stdout.readline(), child.poll()
    threading.Thread(target=child.stdout.read, daemon=True).start()  # the rest drained: the pipe never fills


def _imports(store: Path) -> list[list[int]]:
    with closing(sqlite3.connect(f"file:{store}?mode=ro", uri=True)) as db:
        return [json.loads(p)["bytes"] for (p,) in db.execute("SELECT payload FROM ledger WHERE kind = 'import' "
                                                              "ORDER BY seq")]


def _wait_for(check: Any, children: list[subprocess.Popen[str]], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if not all(c.poll() is None for c in children) or time.monotonic() >= deadline:
            for child in children:  # a follower still running would keep communicate() waiting for ever
                if child.poll() is None:
                    child.kill()
            pytest.fail(str([c.communicate(timeout=30)[1] for c in children]))
        time.sleep(0.1)


def test_the_store_replaced_under_a_running_follow_is_said_and_the_new_file_left(tmp_path: Path) -> None:
    lines = REAL.read_bytes().splitlines(keepends=True)
    work = tmp_path / "work"
    work.mkdir()
    transcript, store = work / "t.jsonl", work / "s.db"
    transcript.write_bytes(b"".join(lines[:20]))
    other = tmp_path / "other.db"
    assert CliRunner().invoke(cli, ["import", str(NEW_SESSION), "--into", str(other)]).exit_code == 0
    kept = other.read_bytes()
    child = _follow(transcript, store, tmp_path, "one")
    _attached(child)
    shutil.move(other, store)  # `mv other.db s.db` under the follow
    with transcript.open("ab") as fh:
        fh.write(b"".join(lines[20:30]))
    _, err = child.communicate(timeout=90)
    assert child.returncode == 1, err
    assert "Traceback" not in err and "was replaced by another file while it was open" in err, err
    assert store.read_bytes() == kept  # the file moved in: not a byte of the follow's in it
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0


def test_the_store_replaced_under_a_follow_with_nothing_appended_is_said_at_its_next_look(tmp_path: Path) -> None:
    """Before: with nothing appended the follow went on, silently, following into the file moved away."""
    lines = REAL.read_bytes().splitlines(keepends=True)
    work = tmp_path / "work"
    work.mkdir()
    transcript, store = work / "t.jsonl", work / "s.db"
    transcript.write_bytes(b"".join(lines[:20]))
    other = tmp_path / "other.db"
    assert CliRunner().invoke(cli, ["import", str(NEW_SESSION), "--into", str(other)]).exit_code == 0
    child = _follow(transcript, store, tmp_path, "one")
    _attached(child)
    shutil.move(other, store)
    try:
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 1 and "was replaced by another file while it was open" in err, err


def test_two_follows_of_one_transcript_into_one_store_both_go_on(tmp_path: Path) -> None:
    """Before: the second to import the same appended lines was refused "line 6: material
    'original:t.jsonl@…' differs from an earlier record with the same identity" (exit 3) and ended."""
    lines = REAL.read_bytes().splitlines(keepends=True)
    work = tmp_path / "work"
    work.mkdir()
    transcript, store = work / "t.jsonl", work / "s.db"
    transcript.write_bytes(b"".join(lines[:20]))
    assert CliRunner().invoke(cli, ["import", str(transcript), "--into", str(store)]).exit_code == 0
    children = [_follow(transcript, store, tmp_path, name) for name in ("one", "two")]
    for child in children:  # the events are printed by whoever imports them: drained, the pipes never fill
        threading.Thread(target=child.stdout.read, daemon=True).start()  # type: ignore[union-attr]
    time.sleep(3)  # both attached (Python's start), neither has anything to import yet
    for line in lines[20:]:
        with transcript.open("ab") as fh:
            fh.write(line)
        time.sleep(0.05)
    size = transcript.stat().st_size
    _wait_for(lambda: _imports(store)[-1][1] == size, children)
    time.sleep(1)  # the slower follower's look at the same lines
    for child in children:
        child.send_signal(signal.SIGINT)
    for child in children:
        _, err = child.communicate(timeout=60)
        assert child.returncode == 130 and "differs from an earlier record" not in err, err
    extents = _imports(store)
    assert all(a[1] == b[0] for a, b in zip(extents, extents[1:], strict=False)), extents  # every byte once
    assert CliRunner().invoke(cli, ["verify", str(store)]).exit_code == 0


def test_the_clock_set_back_after_the_act_that_upgraded_an_older_store(sample_store: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard (store-fault-seven's check, now with the upgrade in the first act's transaction): verify
    passes and says the stamps going back."""
    _to_format_8(sample_store)

    async def acts() -> None:
        async with await open_store(sample_store) as store:
            monkeypatch.setattr(ledger, "utc_now", lambda: "2099-12-01T12:00:00.000000Z")
            await accept(store, "cand-good", actor="lin")  # upgrades the file with it
        async with await open_store(sample_store) as store:
            monkeypatch.setattr(ledger, "utc_now", lambda: "2099-11-30T12:00:00.000000Z")
            await reject(store, "cand-stale", actor="lin", reason="stale")

    asyncio.run(acts())
    monkeypatch.undo()
    assert _version(sample_store) == FORMAT_VERSION
    done = CliRunner().invoke(cli, ["verify", str(sample_store), "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["ok"] and report["clock_went_back"][0]["at"] == "2099-11-30T12:00:00.000000Z"


async def test_a_read_only_open_leaves_nothing_beside_the_store(sample_store: Path) -> None:
    """Before: opened read-only (on purpose, or a file without write permission on a writable folder)
    a current store's read left an empty -wal and a 32 KiB -shm beside it."""
    from inspector.services.sessions import list_sessions

    before = _folder(sample_store)
    async with await open_store(sample_store, read_only=True) as store:
        assert len(await list_sessions(store)) == 6
    assert _folder(sample_store) == before


async def test_a_read_only_open_never_removes_a_log_another_process_took_up(sample_store: Path) -> None:
    """The log and index a read-only look made are removed at close only when no other process has
    the store open (the index's DMS lock): a writer that opened it meanwhile keeps them, and its commit."""
    from inspector.services.sessions import list_sessions

    holder_code = ("import sqlite3, sys, time\n"
                   f"db = sqlite3.connect({str(sample_store)!r}, isolation_level=None)\n"
                   "db.execute('SELECT count(*) FROM sessions').fetchall()\n"
                   "print('open', flush=True)\n"
                   "sys.stdin.readline()\n"
                   "db.execute(\"INSERT INTO store_meta(key, value) VALUES ('holder', 'kept')\")\n"
                   "db.close()\n")
    async with await open_store(sample_store, read_only=True) as store:
        assert len(await list_sessions(store)) == 6
        holder = subprocess.Popen([sys.executable, "-c", holder_code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
    assert Path(f"{sample_store}-shm").exists()  # the holder's now: not removed under it
    holder.communicate("go\n", timeout=60)
    assert holder.returncode == 0
    with closing(sqlite3.connect(sample_store)) as db:
        assert db.execute("SELECT value FROM store_meta WHERE key = 'holder'").fetchone() == ("kept",)
