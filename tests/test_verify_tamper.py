"""verify against edits made with sqlite3 directly, each covering its own tracks.

Each edit bypasses the product (the append-only triggers dropped and put back) and
recomputes what a naive check would compare — a row's own digest, a chunk's layout — so
only the ledger's seals, the replay and the layout checks can tell. Each must end in
``ok: false`` with the place named, never a traceback.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.sif import identity_digest
from inspector.services import corrections, deletions
from inspector.services.verifying import verify_store
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.sqlite_store import Store
from inspector.store.tables import SPECS
from tests import acted_master
from tests.backend_sql import run_sql

Edit = Callable[[sqlite3.Connection], None]


def _edit(store: Path, edit: Edit) -> None:
    con = sqlite3.connect(store)
    con.isolation_level = None
    con.execute("BEGIN")
    triggers = con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        con.execute(f"DROP TRIGGER {name}")
    edit(con)
    for _, sql in triggers:
        con.execute(sql)
    con.execute("COMMIT")
    con.close()


def _redigest(con: sqlite3.Connection, table: str, where: str, params: tuple[object, ...]) -> None:
    type_ = next(t for t, s in SPECS.items() if s.table == table)
    spec = SPECS[type_]
    for rowid, *row in con.execute(f"SELECT rowid, {spec.select_columns} FROM {table} WHERE {where}", params).fetchall():
        con.execute(f"UPDATE {table} SET digest = ? WHERE rowid = ?", (identity_digest(type_, spec.to_record(row)), rowid))


def _state_reworded(con: sqlite3.Connection) -> None:
    con.execute("UPDATE state_records SET value = '谨慎修改生产数据' WHERE session = 's-export' AND key = 'constraint.prod'")
    _redigest(con, "state_records", "session = 's-export' AND key = 'constraint.prod'", ())


def _summary_added(con: sqlite3.Connection) -> None:
    cols = [r[1] for r in con.execute("PRAGMA table_info(summaries)")]
    picked = ", ".join("generation + 100" if c == "generation" else c for c in cols)
    con.execute(f"INSERT INTO summaries ({', '.join(cols)}) SELECT {picked} FROM summaries WHERE session = 's-export' "
                "ORDER BY generation DESC LIMIT 1")
    _redigest(con, "summaries", "session = 's-export' AND generation > 100", ())
    # the counts the ledger keeps would show one row too many: remove another to keep them equal
    con.execute("DELETE FROM summaries WHERE session = 's-export' AND generation = 1")


def _candidates_reordered(con: sqlite3.Connection) -> None:
    a, b = [r[0] for r in con.execute("SELECT rowid FROM candidates WHERE session = 's-export' ORDER BY rowid LIMIT 2")]
    con.execute("UPDATE candidates SET rowid = -1 WHERE rowid = ?", (a,))
    con.execute("UPDATE candidates SET rowid = ? WHERE rowid = ?", (a, b))
    con.execute("UPDATE candidates SET rowid = ? WHERE rowid = -1", (b,))


def _json_column_broken(con: sqlite3.Connection) -> None:
    con.execute("UPDATE sessions SET extra = '{broken' WHERE id = 's-export'")


def _material_size(con: sqlite3.Connection) -> None:
    con.execute("UPDATE materials SET size = size - 1 WHERE id = 'res:run-184'")


def _chunk_removed(con: sqlite3.Connection) -> None:
    con.execute("DELETE FROM material_chunks WHERE rowid = (SELECT MAX(c.rowid) FROM material_chunks c JOIN materials m "
                "ON m.material_id = c.material_id WHERE m.chunk_count > 1)")


def _chunk_byte_flipped(con: sqlite3.Connection) -> None:
    data = bytearray(con.execute("SELECT data FROM material_chunks ORDER BY rowid LIMIT 1").fetchone()[0])
    data[0] ^= 1
    con.execute("UPDATE material_chunks SET data = ? WHERE rowid = (SELECT MIN(rowid) FROM material_chunks)",
                (bytes(data),))


def _watermark_raised(con: sqlite3.Connection) -> None:
    con.execute("UPDATE search_watermark SET indexed_through = indexed_through + 5")


def _index_entry_dropped(con: sqlite3.Connection) -> None:
    con.execute("DELETE FROM events_fts_docsize WHERE id = (SELECT MIN(id) FROM events_fts_docsize)")


def _grams_entry_dropped(con: sqlite3.Connection) -> None:
    con.execute("DELETE FROM events_grams_docsize WHERE id = (SELECT MIN(id) FROM events_grams_docsize)")


def _deleted_material_searchable(con: sqlite3.Connection) -> None:
    con.execute("INSERT INTO materials_fts (rowid, text) SELECT material_id, '客户电话 138-0013-8000' FROM materials "
                "WHERE deleted_at IS NOT NULL")


def _tombstone_time(con: sqlite3.Connection) -> None:
    con.execute("UPDATE materials SET deleted_at = '2020-01-01T00:00:00Z' WHERE deleted_at IS NOT NULL")


EDITS: dict[str, tuple[Edit, str]] = {
    "a constraint reworded, its row digest recomputed": (_state_reworded, "state_records"),
    "a summary added and another removed, digests recomputed": (_summary_added, "summaries"),
    "two candidates reordered": (_candidates_reordered, "candidates"),
    "a JSON column no longer JSON": (_json_column_broken, "sessions"),
    "a material's size changed": (_material_size, "materials"),
    "a chunk removed": (_chunk_removed, "materials"),
    "a chunk's byte flipped (small store: rehashed by default)": (_chunk_byte_flipped, "materials"),
    "the search watermark raised": (_watermark_raised, "search_watermark"),
    "an event's search entry dropped": (_index_entry_dropped, "events_fts"),
    "a tombstone's deletion time changed": (_tombstone_time, "materials"),
    "an event's short-query index entry dropped": (_grams_entry_dropped, "events_grams"),
    "a deleted material's text put back in the search index": (_deleted_material_searchable, "materials_fts"),
}


async def _act(store: Store) -> None:
    await corrections.correct(store, session="s-export", key="open_issue.p95", value="P95 仍待测 (reopened)",
                              reason="summary closed it", actor="lin")
    await deletions.delete(store, "del-1", actor="zhou")
    await catch_up(store)


@pytest.fixture(scope="module")
def _acted_master(sample_store_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The acts run once for this file (tests/acted_master.py), checked unchanged at the end."""
    master = acted_master.build(sample_store_master, tmp_path_factory.mktemp("acted-master"), _act)
    yield master
    acted_master.unchanged(master)


@pytest.fixture
def acted_store(sample_store: Path, _acted_master: tuple[Path, str]) -> Path:
    """The sample store after a correction, a deletion and a search-index catch-up: a byte copy
    of this file's one acted store, so each test may tamper with its own."""
    return acted_master.copy_to(_acted_master, sample_store)


async def _report(store: Path) -> dict[str, object]:
    async with await open_store(store) as opened:
        return (await verify_store(opened)).as_dict()


async def test_the_untouched_store_verifies(acted_store: Path) -> None:
    report = await _report(acted_store)
    assert report["ok"], report["problems"]
    assert report["not_sealed"] == [] and report["bytes_rehashed"] and report["search_index"] == "checked"


@pytest.mark.parametrize("name", list(EDITS))
async def test_each_covered_edit_is_reported(acted_store: Path, name: str) -> None:
    edit, where = EDITS[name]
    _edit(acted_store, edit)
    report = await _report(acted_store)
    assert report["ok"] is False, f"{name}: verify said ok"
    assert where in {p["where"] for p in report["problems"]}, report["problems"]


def test_the_cli_reports_it_as_json_with_exit_1(acted_store: Path) -> None:
    _edit(acted_store, _state_reworded)
    result = CliRunner().invoke(cli, ["verify", str(acted_store), "--json"])
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert json.loads(result.stdout)["first_break"]["where"] == "state_records"


async def test_a_dropped_guard_is_reported(acted_store: Path) -> None:
    con = sqlite3.connect(acted_store)
    con.execute("DROP TRIGGER ledger_no_update")
    con.commit()
    con.close()
    report = await _report(acted_store)
    assert report["ok"] is False and report["first_break"]["where"] == "schema"  # type: ignore[index]


async def test_a_record_edited_with_its_digest_recomputed_is_caught_on_both_backends(
        backend_sample_store: Path | str) -> None:
    store = backend_sample_store
    spec = SPECS["state"]
    where = "session = 's-export' AND key = 'constraint.prod'"
    async with await open_store(store) as opened:
        row = (await opened.db.execute_fetchall(f"SELECT {spec.select_columns} FROM state_records WHERE {where}"))[0]
        assert (await verify_store(opened)).ok
    digest = identity_digest("state", {**spec.to_record(row), "value": "谨慎修改生产数据"})
    run_sql(store, f"UPDATE state_records SET value = '谨慎修改生产数据', digest = '{digest}' WHERE {where}",
            guards_off=True)
    async with await open_store(store) as opened:
        report = (await verify_store(opened)).as_dict()
    assert report["ok"] is False and report["first_break"]["where"] == "state_records", report["problems"]
    assert "sealed" in report["first_break"]["message"]
