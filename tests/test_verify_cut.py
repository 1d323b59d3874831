"""A store file cut short is ``damaged_store`` whatever its page size and wherever the cut falls.

SQLite itself refuses a file shorter than its header's page count (a cut of whole pages), but
it opens one cut inside a page and reads the missing bytes as zeros; on the 16 KiB pages of a
new store a 4 KB cut is such a cut, and verify used to blame a material's bytes for it. Both
page sizes a store can have — 16 KiB (a store the import creates) and SQLite's default 4 KiB
(a store made by ``open_store``, or by any version before format 4) — are cut mid-page and by
whole pages, through the CLI and through ``verify_store`` on a store the app holds open.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import verify_length
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.schema import FORMAT_VERSION
from tests.conftest import DROP_CALLS, file_sha

from .conftest import event_record, session_record, write_sif

MATERIAL = "the quokka report " * 3000  # 54 KB: a chunk on overflow pages at either page size


def _records() -> list[dict[str, Any]]:
    events = [event_record(seq, content=f"message {seq} " + "x" * 400) for seq in range(1, 120)]
    return [session_record(), *events,
            {"type": "material", "session": "s1", "id": "m1", "encoding": "utf-8", "content": MATERIAL}]


_DIGESTS: dict[int, str] = {}


@pytest.fixture(scope="module")
def _masters() -> Iterator[dict[int, Path]]:
    """One store built per page size for this file; tests get byte copies (``store``). Each
    master's bytes are checked unchanged at the end: no test may lean on another's edit."""
    masters: dict[int, Path] = {}
    yield masters
    assert {size: file_sha(path) for size, path in masters.items()} == _DIGESTS


async def _build(folder: Path, page_size: int) -> Path:
    path = folder / "s.db"
    # a new store is filled at 16 KiB pages; one made at its name first keeps SQLite's 4 KiB
    await import_file(write_sif(folder / "a.jsonl", _records()), path, actor="t", fill_new=page_size == 16384)
    async with await open_store(path) as opened:
        await catch_up(opened)
    with closing(sqlite3.connect(path)) as con, con:
        assert con.execute("PRAGMA page_size").fetchone()[0] == page_size
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return path


@pytest.fixture(params=[16384, 4096], ids=["16KiB-pages", "4KiB-pages"])
def store(request: pytest.FixtureRequest, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
          _masters: dict[int, Path]) -> Path:
    """A byte copy of this file's one import at the page size (the tests cut and replace it;
    the import and catch-up are the same bytes every time, so they run once per page size)."""
    if request.param not in _masters:
        folder = tmp_path_factory.mktemp(f"cut-master-{request.param}")
        with ThreadPoolExecutor(1) as pool:  # its own event loop, whatever the test runs in
            _masters[request.param] = pool.submit(asyncio.run, _build(folder, request.param)).result()
        _DIGESTS[request.param] = file_sha(_masters[request.param])
    path = tmp_path / "s.db"
    shutil.copyfile(_masters[request.param], path)
    return path


def _page(path: Path) -> int:
    with closing(sqlite3.connect(path)) as con, con:
        return int(con.execute("PRAGMA page_size").fetchone()[0])


def _verify(path: Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["verify", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, json.loads(result.stdout)


# how many bytes to cut, given the store's page size: inside a page, or whole pages
CUTS: dict[str, Callable[[int], int]] = {
    "a byte": lambda page: 1,
    "4 KB": lambda page: 4096,  # a whole page at 4 KiB, a quarter of one at 16 KiB
    "all but a byte of a page": lambda page: page - 1,
    "one page": lambda page: page,
    "two and a half pages": lambda page: page * 5 // 2,
    "three pages": lambda page: 3 * page,
}


@pytest.mark.parametrize("cut", list(CUTS))
def test_a_cut_store_is_damaged_store_never_a_record_break(store: Path, cut: str) -> None:
    assert _verify(store)[0] == 0
    before = store.stat().st_size
    os.truncate(store, before - CUTS[cut](_page(store)))
    cut_to = store.read_bytes()
    code, report = _verify(store)
    assert code == 1 and report["first_break"]["code"] == "damaged_store", report
    assert "cut short" in report["first_break"]["message"]
    assert store.read_bytes() == cut_to  # judged before anything opened (or wrote to) it
    result = CliRunner().invoke(cli, ["verify", str(store)])
    assert result.exit_code == 1 and result.stdout.startswith("BROKEN: the store's file was cut short")
    assert "Traceback" not in result.output and "head " not in result.stdout  # no head of a store not read


async def test_a_store_cut_while_open_is_damaged_store_first(store: Path) -> None:
    """The app verifies the store it holds open: a cut inside a page opens fine for SQLite,
    and the length is still the first break, before whatever record its zeros land in."""
    async with await open_store(store) as opened:
        assert (await verify_store(opened)).ok
        os.truncate(store, store.stat().st_size - _page(store) // 4)
        report = await verify_store(opened)
    assert not report.ok and report.first_break is not None
    assert report.first_break["code"] == "damaged_store", report.problems


async def test_a_store_replaced_while_open_is_named_by_verify_not_raised(store: Path, tmp_path: Path) -> None:
    """verify's index check takes a write transaction (rolled back); on a file replaced under the
    open store that transaction is refused (store_file_replaced), which verify raised instead of
    answering. It now says so as its break and reads the index as a read-only store does."""
    other = tmp_path / "other.db"
    shutil.copy(store, other)
    async with await open_store(store) as opened:
        assert (await verify_store(opened)).ok
        os.replace(other, store)
        report = await verify_store(opened)
    assert not report.ok and report.first_break is not None
    assert report.first_break["code"] == "damaged_store" and "replaced" in report.first_break["message"]


def test_a_whole_store_is_never_called_cut(store: Path, tmp_path: Path) -> None:
    assert verify_length.cut_short(store) is None
    grown = tmp_path / "grown.db"  # SQLite's file longer than its header counts (space kept after a delete)
    shutil.copy(store, grown)
    with open(grown, "ab") as f:
        f.write(b"\0" * _page(store))
    assert verify_length.cut_short(grown) is None
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("hello")
    assert verify_length.cut_short(not_sqlite) is None and verify_length.cut_short(tmp_path) is None


def test_a_store_cut_into_its_header_is_damaged_store_and_a_foreign_file_stays_bad_input(store: Path,
                                                                                         tmp_path: Path) -> None:
    os.truncate(store, 80)  # the header's first 80 bytes: the page size and the application id are left
    code, report = _verify(store)
    assert code == 1 and report["first_break"]["code"] == "damaged_store", report
    foreign = tmp_path / "other.db"  # SQLite, not the inspector's: cut or not, it is not a store (exit 3)
    with closing(sqlite3.connect(foreign)) as con, con:
        con.execute("CREATE TABLE t (x)")
        con.executemany("INSERT INTO t VALUES (?)", [("x" * 500,)] * 100)
    os.truncate(foreign, foreign.stat().st_size - 100)
    assert verify_length.cut_short(foreign, 0x43495331) is None
    result = CliRunner().invoke(cli, ["verify", str(foreign)])
    assert result.exit_code == 3 and "damaged_store" not in result.output, result.output


def test_a_file_a_checkpoint_is_still_growing_is_not_reported(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's checkpoint writes page 1 (the new count) before the pages that grow the
    file: a short length that is whole on the next read is not a cut."""
    page = _page(store)
    whole = store.read_bytes()
    os.truncate(store, len(whole) - page)
    reads = {"n": 0}
    real = verify_length._geometry

    def geometry(path: Path, application_id: int | None) -> Any:
        reads["n"] += 1
        if reads["n"] == 2:
            store.write_bytes(whole)  # the checkpoint finished
        return real(path, application_id)

    monkeypatch.setattr(verify_length, "_geometry", geometry)
    assert verify_length.cut_short(store) is None and reads["n"] >= 2


def test_an_old_4k_format_3_store_upgrades_and_verifies(tmp_path: Path) -> None:
    """A store of the format before this one, at SQLite's default 4 KiB pages (as every store
    was before format 4), opens with this code, is upgraded to format 4, keeps its page size
    and verifies; a search finds its material's words at once."""
    path = tmp_path / "old.db"

    async def build() -> None:
        await import_file(write_sif(tmp_path / "a.jsonl", _records()), path, actor="t", fill_new=False)
        async with await open_store(path) as opened:
            await catch_up(opened)  # format 3 indexed each material in its import

    asyncio.run(build())
    with closing(sqlite3.connect(path)) as con, con:
        con.executescript(DROP_CALLS + "DELETE FROM search_watermark WHERE name = 'materials'; PRAGMA user_version = 3;")
    assert _page(path) == 4096
    upgraded = CliRunner().invoke(cli, ["upgrade", str(path), "--json"])  # verify writes nothing: it would refuse
    assert upgraded.exit_code == 0 and json.loads(upgraded.stdout)["upgraded"]["from"] == 3, upgraded.output
    code, report = _verify(path)
    assert code == 0 and report["ok"], report["problems"]
    with closing(sqlite3.connect(path)) as con, con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION
        assert con.execute("SELECT indexed_through FROM search_watermark WHERE name = 'materials'").fetchone() == (1,)
    assert _page(path) == 4096
    found = CliRunner().invoke(cli, ["search", str(path), "--session", "s1", "quokka", "--json"])
    assert found.exit_code == 0 and "m1" in found.stdout, found.output
