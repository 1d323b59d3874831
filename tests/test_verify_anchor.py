"""verify against the edits scripts/tamper_verify.py added: the schema, WAL-only edits, a
chain rewritten with its seals after a verify on this machine, and a file cut short.

Each is an edit a person editing the file with sqlite3 could make; each must end in exit 1
with the place named (``verify --json``), never "ok".
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import corrections
from inspector.store.catch_up import catch_up
from inspector.store.sqlite_store import Store
from tests import acted_master

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import tamper_verify  # noqa: E402


async def _act(opened: Store) -> None:
    await corrections.correct(opened, session="s-export", key="open_issue.p95", value="P95 (reopened)",
                              reason="closed too early", actor="lin")
    await catch_up(opened)


@pytest.fixture(scope="module")
def _master(sample_store_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The correction and catch-up run once for this file (tests/acted_master.py)."""
    master = acted_master.build(sample_store_master, tmp_path_factory.mktemp("anchor-master"), _act)
    yield master
    acted_master.unchanged(master)


@pytest.fixture
def store(sample_store: Path, _master: tuple[Path, str]) -> Path:
    """The sample store after a correction and a catch-up: a copy each test may tamper with."""
    return acted_master.copy_to(_master, sample_store)


def _verify(path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["verify", str(path), "--json", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


def _edit(path: Path, sql: list[str]) -> None:
    con = sqlite3.connect(path)
    con.executescript(";\n".join(sql))
    con.close()


@pytest.mark.parametrize(("name", "sql"), [
    ("a trigger added", ["CREATE TRIGGER later AFTER INSERT ON state_records BEGIN UPDATE state_records SET "
                         "status = 'active' WHERE rowid = new.rowid; END"]),
    ("a guard made a no-op", ["DROP TRIGGER ledger_no_update",
                              "CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT 1; END"]),
    ("an index dropped", ["DROP INDEX ledger_sif_record"]),
    ("a view added", ["CREATE VIEW v AS SELECT * FROM events"]),
])
def test_a_schema_change_is_reported(store: Path, name: str, sql: list[str]) -> None:
    assert _verify(store)[0] == 0
    _edit(store, sql)
    code, report = _verify(store)
    assert code == 1 and "schema" in {p["where"] for p in report["problems"]}, (name, report["problems"])


def test_an_edit_left_only_in_the_wal_is_refused_before_the_store_opens(store: Path, tmp_path: Path) -> None:
    """Before the commit mark (store/wal_commits.py) verify read the edit through the log and reported
    the events; now the log is refused before anything is opened (its commit is not the inspector's),
    and the file itself still verifies once the log is moved away."""
    con = sqlite3.connect(store)
    con.isolation_level = None
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute("BEGIN")
    con.execute("DROP TRIGGER events_no_update")
    con.execute("UPDATE events SET content = content || ' (edited)' WHERE rowid = (SELECT MIN(rowid) FROM events "
                "WHERE content IS NOT NULL)")
    con.execute("COMMIT")
    copy = tmp_path / "wal-only" / "s.db"
    copy.parent.mkdir()
    for suffix in ("", "-wal", "-shm"):  # as another process sees it while the edit is only in the WAL
        shutil.copy(f"{store}{suffix}", f"{copy}{suffix}")
    con.close()
    assert os.path.getsize(f"{copy}-wal") > 0
    code, report = _verify(copy)
    assert code == 3 and report["error"]["code"] == "foreign_wal", report
    assert "not made by Context Inspector" in report["error"]["message"]
    for suffix in ("-wal", "-shm"):
        os.remove(f"{copy}{suffix}")
    assert _verify(copy)[0] == 0


def test_a_chain_rewritten_with_its_seals_after_a_verify_here_is_reported(store: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "copy.db"
    shutil.copy(store, elsewhere)
    code, first = _verify(store)
    assert code == 0 and first["remembered_head"] is None
    assert _verify(store)[1]["remembered_head"] == first["head"]
    con = sqlite3.connect(store)
    key = bytes.fromhex(con.execute("SELECT value FROM store_meta WHERE key = 'digest_key'").fetchone()[0])
    con.close()
    edits = {what: e for _t, _c, what, e, _k, _m in tamper_verify.new_edits(store)}
    resealed = edits["edited with its seal recomputed and the chain rewritten (no --head)"]
    for path in (store, elsewhere):
        con = sqlite3.connect(path)
        con.isolation_level = None
        con.execute("BEGIN")
        guards = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, _ in guards:
            con.execute(f"DROP TRIGGER {name}")
        resealed(con)
        for _, sql in guards:
            con.execute(sql)
        con.execute("COMMIT")
        con.close()
    code, report = _verify(store)
    assert code == 1 and report["first_break"]["where"] == "ledger", report["problems"]
    assert "last good verify of this store on this machine" in report["first_break"]["message"]
    assert key  # the key is in the store: only the head remembered outside it could tell
    # a copy at another path was never verified here: nothing is remembered for it (documented)
    assert _verify(elsewhere)[0] == 0


def test_a_store_cut_short_is_a_break_not_bad_input(store: Path, tmp_path: Path) -> None:
    # a new store has 16 KiB pages (store/fresh.py): cut mid-page, SQLite opens it, and it is
    # still damaged_store (every page size and cut: test_verify_cut.py)
    mid_page = tmp_path / "mid-page.db"
    shutil.copy(store, mid_page)
    os.truncate(mid_page, mid_page.stat().st_size - 4096)
    code, report = _verify(mid_page)
    assert code == 1 and report["first_break"]["code"] == "damaged_store", report
    with sqlite3.connect(store) as con:
        (page,) = con.execute("PRAGMA page_size").fetchone()
    os.truncate(store, store.stat().st_size - page)  # a whole page gone: SQLite itself calls it damaged
    code, report = _verify(store)
    assert code == 1 and report["first_break"]["code"] == "damaged_store", report
    result = CliRunner().invoke(cli, ["verify", str(store)])
    assert result.exit_code == 1 and "BROKEN" in result.stdout and "Traceback" not in result.output


def test_a_file_replaced_on_purpose_is_accepted_after_forget_head(store: Path, tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    shutil.copy(store, backup)
    assert _verify(store)[0] == 0
    CliRunner().invoke(cli, ["correct", str(store), "--session", "s-export", "--key", "open_issue.p95", "--value",
                             "P95 (again)", "--reason", "r", "--reviewer", "lin"])
    assert _verify(store)[0] == 0  # the head moves on with every good verify
    shutil.copy(backup, store)  # restored from the backup: the history it remembered is gone
    code, report = _verify(store)
    assert code == 1 and report["first_break"]["code"] == "remembered_head_differs"  # the CLI line says --forget-head
    assert _verify(store, "--forget-head")[0] == 0 and _verify(store)[0] == 0
