"""A store an import creates: filled under a hidden name, published whole in WAL mode
(inspector/store/fresh.py). Killed at any point, nothing is at the store's path or a whole
store is; a failed import leaves nothing; a store someone else created meanwhile is kept."""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.make_data import write_events_file
from inspector.domain.errors import BadInput
from inspector.services import sessions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store import fresh
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif


def _hidden(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if ".importing-" in p.name)


def _journal_mode_in_header(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:20]
    return head[18], head[19]  # the file format's write/read versions: 2 = WAL, 1 = rollback journal


async def test_a_new_store_is_published_in_wal_mode_and_nothing_else_is_left(tmp_path: Path) -> None:
    src = write_sif(tmp_path / "a.jsonl", [session_record(), *(event_record(n) for n in range(1, 40))])
    target = tmp_path / "new" / "s.db"
    target.parent.mkdir()
    report = await import_file(src, target, actor="t")
    assert report.created_store and report.store == str(target) and report.added["event"] == 39
    assert _journal_mode_in_header(target) == (2, 2)
    assert sorted(p.name for p in target.parent.iterdir()) == ["s.db"]  # no hidden file, no -wal, no -journal
    with sqlite3.connect(target) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    async with await open_store(target) as store:
        assert (await verify_store(store)).ok
        assert (await sessions.get_session(store, "s1")).events == 39


async def test_the_second_import_into_it_takes_the_ordinary_path(tmp_path: Path) -> None:
    target = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), target, actor="t")
    report = await import_file(write_sif(tmp_path / "b.jsonl", [session_record(), event_record(1), event_record(2)]),
                               target, actor="t")
    assert not report.created_store and report.added["event"] == 1 and report.skipped["event"] == 1
    assert _hidden(tmp_path) == []
    async with await open_store(target) as store:
        assert (await verify_store(store)).ok


async def test_a_refused_import_leaves_neither_the_store_nor_its_hidden_file(tmp_path: Path) -> None:
    bad = write_sif(tmp_path / "bad.jsonl", [session_record(), event_record(1), {"type": "event", "session": "s1"}])
    with pytest.raises(BadInput):
        await import_file(bad, tmp_path / "s.db", actor="t")
    assert not (tmp_path / "s.db").exists() and _hidden(tmp_path) == []


async def test_a_store_created_meanwhile_is_kept_and_imported_into(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two imports race to create one store: the one that publishes second finds the name
    taken (``link`` never replaces a file) and imports into that store instead."""
    target = tmp_path / "s.db"
    other = write_sif(tmp_path / "other.jsonl", [session_record("s0"), event_record(1, "s0")])
    publish = fresh.publish

    async def someone_else_first(store: object, into: Path, *rest: object) -> None:
        monkeypatch.setattr(fresh, "publish", publish)
        await import_file(other, into, actor="other")  # publishes its own store at the name
        await publish(store, into, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(fresh, "publish", someone_else_first)
    report = await import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), target,
                               actor="t")
    assert not report.created_store and report.added["event"] == 1
    assert _hidden(tmp_path) == []
    async with await open_store(target) as store:
        assert sorted(s.id for s in await sessions.list_sessions(store)) == ["s0", "s1"]
        assert (await verify_store(store)).ok


def test_stale_hidden_files_of_dead_imports_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    target = tmp_path / "s.db"
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f".s.db.importing-{done.stdout.strip()}-0a1b"
    live = tmp_path / f".s.db.importing-{os.getpid()}-0a1b"
    unrelated = tmp_path / f".t.db.importing-{done.stdout.strip()}-0a1b"
    recent = tmp_path / f".s.db.importing-{done.stdout.strip()}-0c0d"
    for p in (dead, Path(f"{dead}-journal"), live, unrelated, recent):
        p.write_bytes(b"x")
    hour_ago = time.time() - 3600
    for p in (dead, live, unrelated):
        os.utime(p, (hour_ago, hour_ago))
    # recent: its process is gone, but the file changed lately (an import on another machine
    # or in another container sharing the folder may still be filling it)
    assert fresh.remove_stale(target) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, unrelated.name, recent.name])
    assert fresh.remove_stale(target, now=time.time() + fresh.STALE_SECONDS + 1) == [recent]


@pytest.mark.parametrize("delay", [0.0, 0.3, 0.8])
def test_an_import_killed_while_creating_a_store_leaves_no_store_and_rerunning_completes_it(
        tmp_path: Path, delay: float) -> None:
    """SIGKILL at some point after the hidden file appears (schema made, or filling, or
    publishing): the store's path holds nothing or a whole store, never a torn one."""
    src = write_events_file(tmp_path / "big.jsonl", 20_000)
    store = tmp_path / "s.db"
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "import", str(src), "--into", str(store)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not _hidden(tmp_path) and proc.poll() is None:
        time.sleep(0.005)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    if store.exists():  # killed after the link: the store is whole
        verify = subprocess.run([sys.executable, "-m", "inspector", "verify", str(store)], capture_output=True)
        assert verify.returncode == 0
        assert _journal_mode_in_header(store) == (2, 2)
    else:
        assert not any(Path(f"{store}{s}").exists() for s in ("-wal", "-shm", "-journal"))
    again = subprocess.run([sys.executable, "-m", "inspector", "import", str(src), "--into", str(store), "--json"],
                           capture_output=True, text=True)
    assert again.returncode == 0 and ('"events": 20000' in again.stdout or '"unchanged_since"' in again.stdout)
    assert subprocess.run([sys.executable, "-m", "inspector", "verify", str(store)],
                          capture_output=True).returncode == 0
    # what the killed import left is its hidden file alone, removed once it is stale
    left = [p for p in _hidden(tmp_path) if not p.name.endswith(fresh.SIDECARS)]
    assert len(left) <= 1 and fresh.remove_stale(store, now=time.time() + fresh.STALE_SECONDS + 1) == left
    assert _hidden(tmp_path) == []


async def test_without_hard_links_the_store_is_made_at_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(fresh.os, "link", no_links)
    target = tmp_path / "s.db"
    report = await import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), target,
                               actor="t")
    assert report.created_store and report.added["event"] == 1 and _hidden(tmp_path) == []
    assert _journal_mode_in_header(target) == (2, 2)
    async with await open_store(target) as store:
        assert (await verify_store(store)).ok


def _indexes(path: Path, table: str) -> set[str]:
    with sqlite3.connect(path) as db:
        return {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                                              "AND sql IS NOT NULL", (table,))}


def test_a_store_is_filled_without_the_events_plain_indexes(tmp_path: Path) -> None:
    """Filled without them, each is built whole at publish (fresh.DEFERRED_INDEX_TABLES); the UNIQUE
    identity stays, so a repeated event is still refused while the import runs."""
    fresh.create_schema(tmp_path / "filling.db")
    assert _indexes(tmp_path / "filling.db", "events") == set()
    with sqlite3.connect(tmp_path / "filling.db") as db:
        assert db.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_autoindex_events_1'").fetchone()[0]


async def test_the_published_store_has_every_index_of_its_format(tmp_path: Path) -> None:
    from inspector.store.schema_expected import expected_schema, schema_of

    src = write_sif(tmp_path / "a.jsonl", [session_record(), *(event_record(n) for n in range(1, 200))])
    target = tmp_path / "s.db"
    await import_file(src, target, actor="t")
    assert _indexes(target, "events") == {"events_time", "events_call", "events_trust_label", "events_long", "events_long_extra"}
    with sqlite3.connect(target) as db:
        assert schema_of(db) == expected_schema()
        plan = " ".join(str(r[-1]) for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT seq FROM events WHERE session = 's1' ORDER BY IFNULL(at, ''), seq"))
        assert "events_time" in plan
    async with await open_store(target) as store:
        assert (await verify_store(store)).ok


async def test_a_repeated_event_is_still_refused_while_filling(tmp_path: Path) -> None:
    first = event_record(1)
    src = write_sif(tmp_path / "a.jsonl", [session_record(), first, {**first, "content": "changed"}])
    with pytest.raises(BadInput):
        await import_file(src, tmp_path / "s.db", actor="t")
    assert not (tmp_path / "s.db").exists() and _hidden(tmp_path) == []


def test_making_the_schema_keeps_what_the_import_needs_again(tmp_path: Path) -> None:
    """The left-out indexes' SQL as the file stored it (publish makes them from it), the store's
    key and the imported bytes' keyed digest under it (the ledger names the file by it)."""
    from inspector.domain.canonical import keyed_digest
    from inspector.store.schema_expected import expected_schema

    made = fresh.create_schema(tmp_path / "filling.db", b"the file's bytes\n")
    want = {sql for (kind, _name), sql in expected_schema().items()
            if kind == "index" and sql is not None and "ON events(" in sql and "UNIQUE" not in sql}
    assert len(made.deferred) == 5 and set(made.deferred) == want  # events_time, _call, _trust_label, _long, _long_extra
    with sqlite3.connect(tmp_path / "filling.db") as db:
        assert db.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0] == made.key.hex()
    assert made.file_digest == keyed_digest(made.key, b"the file's bytes\n")
    assert fresh.create_schema(tmp_path / "other.db").file_digest is None


async def test_a_new_store_runs_no_migration_twice_and_digests_the_file_beside_the_conversion(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Publishing makes the left-out indexes from the SQL the schema's thread kept (not from
    ``expected_schema``, every migration run again in memory), and the file's keyed digest comes
    from that thread too: neither runs on the import's own path (issue #18)."""
    from inspector.services import importing
    from inspector.store.schema_expected import expected_schema, schema_of

    src = write_sif(tmp_path / "a.jsonl", [session_record(), *(event_record(n) for n in range(1, 50))])
    whole = src.read_bytes()
    keyed = importing.keyed_digest

    def not_the_file(key: bytes, data: bytes) -> str:
        assert data != whole, "the file's keyed digest was taken again on the import's path"
        return keyed(key, data)

    def no_migrations() -> None:
        raise AssertionError("expected_schema() ran the migrations again")

    monkeypatch.setattr(importing, "keyed_digest", not_the_file)
    monkeypatch.setattr(fresh, "expected_schema", no_migrations)
    target = tmp_path / "s.db"
    await import_file(src, target, actor="t")
    monkeypatch.undo()
    with sqlite3.connect(target) as db:
        assert schema_of(db) == expected_schema()
    async with await open_store(target) as store:
        (entry,) = [e for e in await store.db.execute_fetchall("SELECT payload FROM ledger WHERE kind = 'import'")]
        assert f'"file_digest":"{keyed(store.digest_key, whole)}"' in entry[0].replace(" ", "")
        assert (await verify_store(store)).ok
