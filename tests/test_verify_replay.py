"""verify under faults: every edit the issue measured is reported as ok:false with the first
break named, never a traceback and never a false "ok"."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from inspector.cli.main import cli
from inspector.services import verifying
from inspector.services.candidates import accept
from inspector.services.expanding import Expansion, expand
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.materials import chunk_binding
from tests.conftest import SAMPLES, file_sha


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def verify_json(store: Path, *more: str) -> tuple[int, dict]:
    result = run("verify", str(store), "--json", *more)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def tamper(store: Path, *statements: tuple[str, tuple]) -> None:
    """Edit the file as another tool would (dropping our guard triggers first, putting them back after:
    verify reports a missing guard on its own)."""
    con = sqlite3.connect(store)
    guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for trigger, _ in guards:
        con.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for sql, params in statements:
        con.execute(sql, params)
    for _, sql in guards:
        con.execute(sql)
    con.commit()
    con.close()


@pytest.fixture(scope="module")
def _master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Two samples imported through the CLI once for this file (the tests edit copies; the
    master's bytes are checked unchanged at the end, so no test can lean on another's edit)."""
    path = tmp_path_factory.mktemp("replay-master") / "s.db"
    for name in ("01_export_timeout", "05_privacy_deletion"):
        assert run("import", str(SAMPLES[name]), "--into", str(path)).exit_code == 0
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    digest = file_sha(path)
    yield path
    assert file_sha(path) == digest


@pytest.fixture
def store(tmp_path: Path, _master: Path) -> Path:
    """A byte copy of the file's one import: every test tampers with its own."""
    path = tmp_path / "s.db"
    shutil.copyfile(_master, path)
    return path


def test_a_fresh_store_verifies_and_prints_its_head(store: Path) -> None:
    code, report = verify_json(store)
    assert code == 0 and report["ok"] and report["integrity"] == "integrity_check"
    assert report["head"]["seq"] == report["entries"] and len(report["head"]["hash"]) == 64
    pinned = f"{report['head']['seq']}:{report['head']['hash']}"
    assert verify_json(store, "--head", pinned)[0] == 0
    assert verify_json(store, "--full")[1]["integrity"] == "integrity_check"


def test_twenty_random_single_byte_edits_of_ledger_payloads_are_each_a_break(store: Path) -> None:
    con = sqlite3.connect(store)
    original = con.execute("SELECT seq, payload FROM ledger").fetchall()
    con.close()
    rng = random.Random(14)
    for _ in range(20):
        seq, payload = rng.choice(original)
        raw = bytearray(payload.encode("utf-8"))
        pos = rng.randrange(len(raw))
        raw[pos] = rng.choice([b for b in range(32, 127) if b != raw[pos]])
        tamper(store, ("UPDATE ledger SET payload = CAST(? AS TEXT) WHERE seq = ?", (bytes(raw), seq)))
        code, report = verify_json(store)
        assert code == 1 and report["ok"] is False, (seq, bytes(raw))
        assert report["first_break"]["where"] == "ledger" and report["first_break"]["seq"] == seq, report
        tamper(store, ("UPDATE ledger SET payload = ? WHERE seq = ?", (payload, seq)))
    assert verify_json(store)[0] == 0


def test_a_payload_that_is_not_json_is_a_break_not_a_traceback(store: Path) -> None:
    tamper(store, ("UPDATE ledger SET payload = '{not json' WHERE seq = 2", ()))
    code, report = verify_json(store)
    assert code == 1 and report["first_break"]["seq"] == 2
    assert "no longer a JSON object" in report["first_break"]["message"]


def test_a_deleted_last_entry_is_caught_with_the_pinned_head(store: Path) -> None:
    _, report = verify_json(store)
    head = f"{report['head']['seq']}:{report['head']['hash']}"
    tamper(store, ("DELETE FROM ledger WHERE seq = ?", (report["head"]["seq"],)))
    code, report2 = verify_json(store, "--head", head)
    assert code == 1 and report2["first_break"]["where"] == "ledger"
    assert "truncated" in report2["first_break"]["message"]


def test_a_rewritten_chain_is_caught_with_the_pinned_head(store: Path) -> None:
    _, report = verify_json(store)
    head = f"{report['head']['seq']}:{report['head']['hash']}"
    tamper(store, ("UPDATE ledger SET hash = ? WHERE seq = ?", ("f" * 64, report["head"]["seq"])))
    code, report2 = verify_json(store, "--head", head)
    assert code == 1 and any("rewritten" in p["message"] for p in report2["problems"])


def test_a_bad_head_argument_is_a_usage_error(store: Path) -> None:
    assert run("verify", str(store), "--head", "3:abc").exit_code == 2


@pytest.mark.parametrize(("sql", "where"), [
    ("UPDATE state_records SET status = 'active' WHERE key = 'constraint.skip_checks'", "state_records"),
    ("UPDATE candidates SET status = 'accepted' WHERE id = 'cand-good'", "candidates"),
    ("UPDATE deletion_requests SET status = 'done'", "deletion_requests"),
    ("UPDATE materials SET deleted_at = '2026-01-01T00:00:00Z' WHERE id = 'res:run-184'", "materials"),
])
def test_a_status_flipped_in_sql_is_caught_by_the_replay(store: Path, sql: str, where: str) -> None:
    tamper(store, (sql, ()))
    code, report = verify_json(store)
    assert code == 1 and report["first_break"]["where"] == where, report
    assert "ledger" in report["first_break"]["message"]


def test_a_status_set_by_an_act_then_flipped_back_is_caught(store: Path) -> None:
    async def act() -> str:
        async with await open_store(store) as opened:
            return (await accept(opened, "cand-good", actor="alice")).as_dict()["status"]

    assert asyncio.run(act()) == "accepted"
    assert verify_json(store)[0] == 0
    tamper(store, ("UPDATE candidates SET status = 'pending' WHERE id = 'cand-good'", ()))
    code, report = verify_json(store)
    assert code == 1 and report["first_break"]["where"] == "candidates"


def test_rebound_chunks_are_caught_and_never_expanded_as_verified(store: Path) -> None:
    con = sqlite3.connect(store)
    mid, chash, size = con.execute("SELECT material_id, content_hash, chunk_size FROM materials "
                                   "WHERE id = 'res:run-184'").fetchone()
    chunks = [bytes(r[0]) for r in con.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                               (mid,))]
    con.close()
    forged = b"X" * len(chunks[0])
    hashes = b"".join(hashlib.sha256(c).digest() for c in [forged, *chunks[1:]])
    tamper(store, ("UPDATE material_chunks SET data = ? WHERE material_id = ? AND idx = 0", (forged, mid)),
           ("UPDATE materials SET chunk_hashes = ?, chunk_binding = ? WHERE material_id = ?",
            (hashes, chunk_binding(chash, hashes), mid)))
    code, report = verify_json(store)
    assert code == 1 and report["first_break"]["where"] == "materials" and "rebound" in report["first_break"]["message"]

    async def read() -> Expansion:
        async with await open_store(store) as opened:
            stub = (await opened.db.execute_fetchall("SELECT id FROM stubs WHERE material = 'res:run-184'"))[0][0]
            return await expand(opened, stub, actor="t", byte_range=(0, 100))

    result = asyncio.run(read())
    assert [r.code for r in result.refusals] == ["hash_mismatch"] and not result.verified and result.data == b""
    assert size >= 100


def test_random_byte_edits_of_the_file_never_print_a_traceback(store: Path, tmp_path: Path) -> None:
    pristine = store.read_bytes()
    rng = random.Random(1414)
    seen: set[int] = set()
    for i in range(20):
        data = bytearray(pristine)
        for _ in range(8):
            data[rng.randrange(100, len(data))] = rng.randrange(256)
        copy = tmp_path / f"edit{i}.db"
        copy.write_bytes(bytes(data))
        result = run("verify", str(copy), "--json")
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1, 3) and "Traceback" not in result.output
        doc = json.loads(result.stdout)
        if result.exit_code == 1:
            assert doc["ok"] is False and doc["first_break"]["message"]
        elif result.exit_code == 3:
            assert doc["error"]["code"] and len(result.stderr.strip().splitlines()) == 1
        seen.add(result.exit_code)
    assert 1 in seen  # most edits land in pages that matter


def test_not_a_store_is_exit_3_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "x.db").write_bytes(b"hello")
    result = run("verify", str(tmp_path / "x.db"))
    assert result.exit_code == 3 and result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


def test_a_damaged_search_index_page_fails_the_page_check(store: Path) -> None:
    con = sqlite3.connect(store)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events_fts_data'").fetchone()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(store.read_bytes())
    offset = (root - 1) * page_size
    data[offset] = 0x77  # not a b-tree page type: SQLite's own check must say so
    store.write_bytes(bytes(data))
    code, report = verify_json(store)
    assert code == 1 and report["first_break"]["where"] == "sqlite", report
    assert report["integrity"] == "integrity_check"


async def _caught_up(store: Path) -> None:
    async with await open_store(store) as opened:
        await catch_up(opened)


def test_full_rehashes_bytes_rewritten_behind_unchanged_chunk_hashes(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asyncio.run(_caught_up(store))  # as the first search or the app does: the materials' text is indexed (format 4)
    con = sqlite3.connect(store)
    (mid,) = con.execute("SELECT material_id FROM materials WHERE id = 'res:run-184'").fetchone()
    con.close()
    tamper(store, ("UPDATE material_chunks SET data = zeroblob(length(data)) WHERE material_id = ? AND idx = 0",
                   (mid,)))
    code, report = verify_json(store)  # a small store's materials are rehashed by default
    assert code == 1 and report["bytes_rehashed"] and "no longer hash" in report["first_break"]["message"]
    monkeypatch.setattr(verifying, "FULL_CHECK_BELOW", 0)  # above the threshold the default run reads no bytes
    code, report = verify_json(store)
    # no bytes rehashed (said), but the rewritten chunk is the material's indexed prefix: the
    # index-text comparison reads it and finds the search would show text the bytes lack
    assert code == 1 and report["bytes_rehashed"] is False
    assert {p["where"] for p in report["problems"]} == {"materials_fts"}, report["problems"]
    code, report = verify_json(store, "--full")
    assert code == 1 and report["first_break"]["where"] == "materials"
    assert "no longer hash" in report["first_break"]["message"]


def test_reading_commands_on_a_damaged_store_answer_in_one_sentence(store: Path, tmp_path: Path) -> None:
    pristine = store.read_bytes()
    rng = random.Random(77)
    codes: set[int] = set()
    # at least 12 damaged copies, and on until one is refused as damaged (exit 3): where 16 random
    # bytes land depends on the store's layout, which each format's new tables shift (format 6's
    # empty thinking index made the first 12 copies of this seed all readable)
    for i in range(48):
        if i >= 12 and 3 in codes:
            break
        data = bytearray(pristine)
        for _ in range(16):
            data[rng.randrange(100, len(data))] = rng.randrange(256)
        copy = tmp_path / f"d{i}.db"
        copy.write_bytes(bytes(data))
        for command in ("sessions", "ledger", "check"):
            result = run(command, str(copy), "--json")
            assert result.exception is None or isinstance(result.exception, SystemExit), (command, result.exception)
            assert "Traceback" not in result.output
            if result.exit_code == 3:
                assert len(result.stderr.strip().splitlines()) == 1, result.stderr
            codes.add(result.exit_code)
    assert 3 in codes
