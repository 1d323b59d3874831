"""A store path or medium that fails: one sentence with the cause's code, never a traceback,
nothing changed — found by attacking the store under faults (issue 14, second pass).

Before: a folder as STORE was a usage error (exit 2, no JSON under --json); importing into
a FIFO, a symbolic link loop or a dangling symbolic link printed a thread's traceback
("Event loop is closed") and then *removed* the FIFO or link; a full disk met mid-write
said ``damaged_store`` ("`inspector verify` says where it is damaged") although nothing
was damaged; on a disk too full for WAL's -shm file even ``sessions`` and ``verify``
failed ("not a readable store: disk I/O error").

The full disk is simulated with RLIMIT_FSIZE in a child process (writes past the limit
fail with EFBIG, which SQLite reports as SQLITE_FULL, as on a full disk); bytecode
writing is off in the child so the limit cannot truncate a cached .pyc.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import SAMPLES

CODEX = [{"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-lock", "cwd": "/r"}},
         {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
          "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix it"}]}}]
REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"


def _special(tmp: Path, kind: str) -> Path:
    path = tmp / f"{kind}.db"
    if kind == "folder":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink_loop":
        os.symlink(tmp / "other.db", path)
        os.symlink(path, tmp / "other.db")
    else:  # dangling symlink
        os.symlink(tmp / "gone" / "s.db", path)
    return path


def _state(path: Path) -> tuple[int, str | None]:
    st = os.lstat(path)
    return st.st_mode, os.readlink(path) if os.path.islink(path) else None


@pytest.mark.parametrize("kind", ["folder", "fifo", "symlink_loop", "dangling_symlink"])
@pytest.mark.parametrize("command", ["sessions", "verify", "import", "accept"])
def test_a_path_that_cannot_be_a_store_is_refused_in_one_sentence_and_left_as_it_was(
        tmp_path: Path, kind: str, command: str) -> None:
    store = _special(tmp_path, kind)
    before = _state(store)
    args = {"sessions": ["sessions", str(store)], "verify": ["verify", str(store)],
            "import": ["import", str(SAMPLES["01_export_timeout"]), "--into", str(store)],
            "accept": ["accept", str(store), "cand-good", "--reviewer", "lin"]}[command]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "not_a_store" and str(store) in error["message"], error
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: "), result.stderr
    assert _state(store) == before  # the FIFO or link is still there, unchanged
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(kind)) in ([], ["other.db"])


def _child(args: list[str], *, fsize: int | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", INSPECTOR_REVIEWER="lin")
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, env=env,
                          preexec_fn=limit, timeout=120, cwd=cwd)


@pytest.mark.parametrize("kind", ["fifo", "dangling_symlink"])
def test_importing_into_a_fifo_or_a_dangling_link_prints_no_traceback(tmp_path: Path, kind: str) -> None:
    store = _special(tmp_path, kind)
    done = _child(["import", str(SAMPLES["01_export_timeout"]), "--into", str(store), "--json"])
    assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["error"]["code"] == "not_a_store"
    assert os.path.lexists(store)


def _ledger(store: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(store) as db:
        return db.execute("SELECT seq, hash FROM ledger ORDER BY seq").fetchall()


@pytest.mark.skipif(not REAL.is_dir(), reason=f"the real Claude Code transcripts are not beside the project ({REAL})")
def test_a_disk_that_fills_during_an_import_is_said_to_be_full_and_nothing_is_written(sample_store: Path) -> None:
    transcript = REAL / "7662d755ef9f-2__compact_and_microcompact_v2.1.14.jsonl"  # 656 KB: needs far more than the limit
    before = _ledger(sample_store)
    done = _child(["import", str(transcript), "--into", str(sample_store), "--json"],
                  fsize=256 * 1024)  # the -wal file cannot grow past 256 KiB
    assert done.returncode == 3, done.stderr
    error = json.loads(done.stdout)["error"]
    # a file past RLIMIT_FSIZE fails with EFBIG, which SQLite reports as an I/O error, not SQLITE_FULL
    assert error["code"] in ("disk_full", "io_error") and "nothing was written" in error["message"], error
    assert "damaged" not in error["message"]
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert _ledger(sample_store) == before
    assert _child(["verify", str(sample_store)]).returncode == 0


async def _caught_up(store: Path) -> None:
    from inspector.store.catch_up import catch_up
    from inspector.store.connection import open_store

    async with await open_store(store) as opened:
        await catch_up(opened)


@pytest.mark.parametrize("command", ["import", "correct", "delete"])
def test_a_store_that_cannot_grow_says_the_disk_is_full_not_damaged(
        sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """SQLite's ``max_page_count`` makes every write that needs a new page fail as on a full
    disk (SQLITE_FULL)."""
    from inspector.store import sqlite_connections

    configure = sqlite_connections.configure

    async def full(db: object) -> None:
        await configure(db)  # type: ignore[arg-type]
        pages = (await db.execute_fetchall("PRAGMA page_count"))[0][0]  # type: ignore[attr-defined]
        await db.execute(f"PRAGMA max_page_count = {pages}")  # type: ignore[attr-defined]

    asyncio.run(_caught_up(sample_store))  # as after the first search or the app: materials' text indexed (format 4)
    with sqlite3.connect(sample_store) as db:
        db.execute("VACUUM")  # no free pages left to reuse: every new page is past the limit
    monkeypatch.setattr(sqlite_connections, "configure", full)
    rollout = tmp_path / "rollout-full.jsonl"
    # 20 KB of text: its rows need new pages (a two-line rollout fits in the free space of the
    # store's pages since the import no longer writes the material search index, format 4)
    big = [*CODEX[:1], {**CODEX[1], "payload": {**CODEX[1]["payload"], "content": [
        {"type": "input_text", "text": "fix it " * 3000}]}}]
    rollout.write_text("".join(json.dumps(r) + "\n" for r in big))
    args = {"import": ["import", str(rollout), "--into", str(sample_store)],
            "correct": ["correct", str(sample_store), "--session", "s-export", "--key", "constraint.prod", "--value",
                        "x" * 20000, "--reason", "r", "--reviewer", "lin"],
            "delete": ["delete", str(sample_store), "del-1", "--reviewer", "zhou"]}[command]
    before = _ledger(sample_store)
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "disk_full" and "nothing was written" in error["message"], error
    assert len(result.stderr.strip().splitlines()) == 1
    monkeypatch.setattr(sqlite_connections, "configure", configure)
    assert _ledger(sample_store) == before
    assert CliRunner().invoke(cli, ["verify", str(sample_store)]).exit_code == 0


def test_a_store_on_a_disk_too_full_for_its_shm_file_is_still_read_and_writes_are_refused(sample_store: Path) -> None:
    readable: Callable[[list[str]], subprocess.CompletedProcess[str]] = lambda args: _child(args, fsize=4096)  # noqa: E731
    listed = readable(["sessions", str(sample_store), "--json"])
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)) == 6 or "s-export" in listed.stdout
    assert readable(["verify", str(sample_store)]).returncode == 0
    refused = readable(["accept", str(sample_store), "cand-good", "--json"])
    assert refused.returncode == 3 and "Traceback" not in refused.stderr, refused.stderr
    assert json.loads(refused.stdout)["error"]["code"] == "read_only"
    assert "full" in json.loads(refused.stdout)["error"]["message"]


@pytest.mark.parametrize("command", ["import", "correct"])
def test_a_store_locked_by_another_writer_is_a_refusal_not_damage(
        sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.setattr("inspector.store.sqlite_connections.BUSY_TIMEOUT_MS", 200)
    rollout = tmp_path / "rollout-lock.jsonl"
    rollout.write_text("".join(json.dumps(r) + "\n" for r in CODEX))
    before = _ledger(sample_store)
    args = {"import": ["import", str(rollout), "--into", str(sample_store)],
            "correct": ["correct", str(sample_store), "--session", "s-export", "--key", "constraint.prod", "--value",
                        "x", "--reason", "r", "--reviewer", "lin"]}[command]
    holder = sqlite3.connect(sample_store, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        result = CliRunner().invoke(cli, [*args, "--json"])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["error"]["code"] == "store_busy"
    assert "damaged" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert _ledger(sample_store) == before


@pytest.mark.parametrize(("error", "code"), [
    (sqlite3.OperationalError("database or disk is full"), "disk_full"),
    (sqlite3.OperationalError("database is locked"), "store_busy"),
    (sqlite3.OperationalError("disk I/O error"), "io_error"),
    (OSError(28, "No space left on device"), "disk_full"),
])
def test_the_apps_error_dialog_names_a_fault_of_the_disk_as_what_it_is(error: BaseException, code: str) -> None:
    from inspector.ui.dialogs import error_dialog

    dialog = error_dialog(error)
    assert dialog.dialog_title == f"Cannot do that ({code})" and "Error" not in str(dialog.body)


def test_opening_a_fifo_in_the_app_is_refused_at_once_not_a_hang(tmp_path: Path) -> None:
    """`inspector FIFO` read the FIFO's first bytes to see whether it is a store, and waited forever."""
    store = _special(tmp_path, "fifo")
    done = subprocess.run([sys.executable, "-m", "inspector", str(store)], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, INSPECTOR_REVIEWER="lin"))
    assert done.returncode == 3 and done.stderr == f"error: {store} is a FIFO (named pipe), not a store file\n"
