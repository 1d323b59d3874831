"""Streaming import: worker-parsed chunks, repeats across chunks, and a killed import."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.make_data import write_events_file
from inspector.domain.errors import BadInput
from inspector.services import import_stream, sessions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import event_record, file_sha, session_record, write_sif


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the worker-process path on small files (and on a machine with few cores)."""
    monkeypatch.setenv("INSPECTOR_IMPORT_WORKERS", "1")
    monkeypatch.setattr(import_stream, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(import_stream, "CHUNK_LINES", 50)


async def test_worker_parsed_import_matches_inline_import(tmp_path: Path, small_chunks: None) -> None:
    src = write_events_file(tmp_path / "e.jsonl", 400)
    report = await import_file(src, tmp_path / "s.db", actor="t")
    assert report.added == {"session": 1, "event": 400}
    async with await open_store(tmp_path / "s.db") as store:
        assert (await sessions.get_session(store, "s-bench")).events == 400
        assert (await verify_store(store)).ok


async def test_a_repeat_in_a_later_chunk_is_skipped_or_refused(tmp_path: Path, small_chunks: None) -> None:
    records = [session_record()] + [event_record(n) for n in range(1, 120)]
    same = write_sif(tmp_path / "same.jsonl", [*records, event_record(5)])
    report = await import_file(same, tmp_path / "a.db", actor="t")
    assert report.added["event"] == 119 and report.skipped["event"] == 1
    differing = write_sif(tmp_path / "diff.jsonl", [*records, event_record(5, content="changed")])
    with pytest.raises(BadInput) as err:
        await import_file(differing, tmp_path / "b.db", actor="t")
    assert err.value.code == "conflicting_record" and err.value.line == 122
    assert not (tmp_path / "b.db").exists()


async def test_a_bad_line_deep_in_a_large_file_leaves_the_store_unchanged(tmp_path: Path, small_chunks: None) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record("s0"), event_record(1, "s0")]), store, actor="t")
    before = file_sha(store)
    lines = (tmp_path / "e.jsonl")
    write_events_file(lines, 300)
    text = lines.read_text(encoding="utf-8").splitlines()
    text[250] = '{"type":"event","session":"s-bench","seq":"x","kind":"other"}'
    lines.write_text("\n".join(text) + "\n", encoding="utf-8")
    with pytest.raises(BadInput) as err:
        await import_file(lines, store, actor="t")
    assert err.value.line == 251
    assert file_sha(store) == before


def test_a_killed_import_leaves_a_store_that_verifies_and_rerunning_completes_it(tmp_path: Path) -> None:
    # Large enough that the import is still inside its one transaction when the WAL passes
    # 1 MB (if it had committed, the listing below would show s-bench and the test fail).
    src = write_events_file(tmp_path / "big.jsonl", 50_000)
    store = tmp_path / "s.db"
    subprocess.run([sys.executable, "-m", "inspector", "import", str(write_sif(
        tmp_path / "first.jsonl", [session_record("s0"), event_record(1, "s0")])), "--into", str(store)], check=True)
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "import", str(src), "--into", str(store)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    wal = Path(f"{store}-wal")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not wal.exists() or wal.stat().st_size < 1_000_000):
        time.sleep(0.02)  # wait until the import is writing its transaction
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    verify = subprocess.run([sys.executable, "-m", "inspector", "verify", str(store), "--json"],
                            capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout
    listed = subprocess.run([sys.executable, "-m", "inspector", "sessions", str(store), "--json"],
                            capture_output=True, text=True, check=True)
    assert '"s-bench"' not in listed.stdout  # nothing of the killed import is visible
    again = subprocess.run([sys.executable, "-m", "inspector", "import", str(src), "--into", str(store), "--json"],
                           capture_output=True, text=True)
    assert again.returncode == 0 and '"events": 50000' in again.stdout
    assert subprocess.run([sys.executable, "-m", "inspector", "verify", str(store)]).returncode == 0


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_killing_only_the_importing_process_leaves_no_worker_behind(tmp_path: Path) -> None:
    src = write_events_file(tmp_path / "big.jsonl", 120_000)
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "import", str(src), "--into", str(tmp_path / "s.db")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "INSPECTOR_IMPORT_WORKERS": "1"})
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < import_stream.WORKERS and proc.poll() is None:
        workers = [p for p in _children(proc.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()]
        time.sleep(0.05)
    assert workers, "the import finished before its workers were seen; make the file larger"
    os.kill(proc.pid, signal.SIGKILL)  # the parent only, as a crash or the OOM killer would
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "worker processes outlived the killed import"


def test_workers_run_only_where_there_are_cores_to_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INSPECTOR_IMPORT_WORKERS", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert not import_stream.use_workers()  # measured: on 2 cores the pool is slower and larger
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert import_stream.use_workers()
    monkeypatch.setenv("INSPECTOR_IMPORT_WORKERS", "0")
    assert not import_stream.use_workers()


def test_converted_chunks_start_small_and_grow_to_the_chunk_size() -> None:
    assert import_stream.converted_bounds(0) == []
    assert import_stream.converted_bounds(1509) == [(0, 500), (500, 1500), (1500, 1509)]
    sizes = [b - a for a, b in import_stream.converted_bounds(200_000)]
    assert sizes[:4] == [500, 1000, 2000, 4000] and max(sizes) == import_stream.CHUNK_LINES and sum(sizes) == 200_000


async def test_records_computed_meanwhile_follow_as_if_appended() -> None:
    """A new store's proposed facts are computed while the records are written: they come last,
    on the same line numbers and with the same digests as when appended before the import."""
    records = [session_record(), *(event_record(n) for n in range(1, 1200))]
    facts = [{"type": "state", "session": "s1", "key": "goal", "version": 1, "kind": "goal", "value": "v",
              "writer": "extractor", "status": "pending", "at": "2025-05-01T00:00:00Z"}]

    async def later() -> list[dict[str, object]]:
        return facts

    appended = [(r.line, r.digest) async for chunk, _, _ in import_stream.parsed_records([*records, *facts])
                for r in chunk]
    meanwhile = [(r.line, r.digest) async for chunk, _, _ in import_stream.parsed_records(records, later())
                 for r in chunk]
    assert meanwhile == appended and appended[-1][0] == len(records) + 2
    progress = [(done, total) async for _, done, total in import_stream.parsed_records(records, later())]
    assert progress[-1] == (len(records) + 3, len(records) + 3)
