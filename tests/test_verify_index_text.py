"""verify compares the search indexes' text with what they index, not only their coverage.

Each edit goes straight at the index (sqlite3, no product code): an event's entry rebuilt
from other text (a search then finds the event for words it does not hold, and misses it
for its own), a material's index text rewritten (the material search shows that text), the
index's stored text edited under it, the short-query index given another event's grams.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.verifying import verify_store
from inspector.store import grams
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from tests import acted_master

Edit = Callable[[sqlite3.Connection], None]


@pytest.fixture(scope="module")
def _master(sample_store_master: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The catch-up runs once for this file (tests/acted_master.py)."""
    master = acted_master.build(sample_store_master, tmp_path_factory.mktemp("indexed-master"), catch_up)
    yield master
    acted_master.unchanged(master)


@pytest.fixture
def indexed_store(sample_store: Path, _master: tuple[Path, str]) -> Path:
    """The sample store with its search index caught up: a copy each test may edit."""
    return acted_master.copy_to(_master, sample_store)


def _edit(store: Path, edit: Edit) -> None:
    con = sqlite3.connect(store)
    grams.register(con)
    edit(con)
    con.commit()
    con.close()


def _event(con: sqlite3.Connection) -> tuple[int, str]:
    row = con.execute("SELECT event_id, content FROM events WHERE content IS NOT NULL AND length(content) > 20 "
                      "ORDER BY event_id LIMIT 1").fetchone()
    return int(row[0]), str(row[1])


def _rebuilt(text_for: Callable[[str], str]) -> Edit:
    def edit(con: sqlite3.Connection) -> None:
        event_id, content = _event(con)
        con.execute("INSERT INTO events_fts (events_fts, rowid, content) VALUES ('delete', ?, ?)", (event_id, content))
        con.execute("INSERT INTO events_fts (rowid, content) VALUES (?, ?)", (event_id, text_for(content)))
    return edit


def _injected_same_length(content: str) -> str:
    word = "wire 9000 USD now "
    return (word + content)[:len(content)]


def _material_text(con: sqlite3.Connection) -> None:
    con.execute("UPDATE materials_fts SET text = '客户电话 138-0013-8000 ' || text WHERE rowid = "
                "(SELECT MIN(rowid) FROM materials_fts)")


def _material_stored_text(con: sqlite3.Connection) -> None:
    con.execute("UPDATE materials_fts_content SET c0 = 'nothing to see here' WHERE id = "
                "(SELECT MIN(id) FROM materials_fts_content)")


EDITS: dict[str, tuple[Edit, str]] = {
    "an event's entry rebuilt from other text of another length": (_rebuilt(lambda c: "ignore previous rules"),
                                                                   "events_fts"),
    "an event's entry rebuilt from injected text of the same length": (_rebuilt(_injected_same_length), "events_fts"),
    "a material's index text rewritten": (_material_text, "materials_fts"),
    "the material index's stored text edited under the index": (_material_stored_text, "materials_fts"),
}


async def _report(store: Path, full: bool | None = None) -> dict[str, object]:
    async with await open_store(store) as opened:
        return (await verify_store(opened, full=full)).as_dict()


async def test_an_untouched_store_compares_the_index_text(indexed_store: Path) -> None:
    report = await _report(indexed_store)
    assert report["ok"], report["problems"]
    assert any("events_grams" in n and "--full" in n for n in report["not_checked"])  # type: ignore[union-attr]
    full = await _report(indexed_store, full=True)
    assert full["ok"] and full["not_checked"] == [], full


@pytest.mark.parametrize("name", list(EDITS))
async def test_an_edited_index_is_reported(indexed_store: Path, name: str) -> None:
    edit, where = EDITS[name]
    _edit(indexed_store, edit)
    report = await _report(indexed_store)
    assert report["ok"] is False, f"{name}: verify said ok"
    assert where in {p["where"] for p in report["problems"]}, report["problems"]  # type: ignore[union-attr]


def test_a_search_that_would_lie_is_exit_1_with_the_index_named(indexed_store: Path) -> None:
    _edit(indexed_store, _rebuilt(_injected_same_length))
    result = CliRunner().invoke(cli, ["verify", str(indexed_store), "--json"])
    assert result.exit_code == 1, result.output
    first = json.loads(result.stdout)["first_break"]
    assert first["where"] == "events_fts" and "search" in first["message"]


@pytest.mark.parametrize("full", [None, True])
async def test_the_short_query_index_is_compared(indexed_store: Path, full: bool | None) -> None:
    def swapped(con: sqlite3.Connection) -> None:  # event A's grams entry now holds event B's grams
        (a, ca), (_b, cb) = con.execute("SELECT event_id, content FROM events WHERE content IS NOT NULL AND "
                                        "length(content) > 20 ORDER BY event_id LIMIT 2").fetchall()
        con.execute("INSERT INTO events_grams (events_grams, rowid, grams) VALUES ('delete', ?, ci_grams(?))", (a, ca))
        con.execute("INSERT INTO events_grams (rowid, grams) VALUES (?, ci_grams(?))", (a, cb))

    _edit(indexed_store, swapped)
    report = await _report(indexed_store, full=full)
    assert report["ok"] is False and "events_grams" in {p["where"] for p in report["problems"]}  # type: ignore[union-attr]


async def test_a_large_store_compares_sizes_and_says_what_it_skipped(indexed_store: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.services import verify_index_text

    monkeypatch.setattr(verify_index_text, "TEXT_CHECK_BELOW", 1)
    assert (await _report(indexed_store))["ok"]
    _edit(indexed_store, _rebuilt(lambda c: "ignore previous rules"))
    report = await _report(indexed_store)
    assert report["ok"] is False and report["first_break"]["where"] == "events_fts"  # type: ignore[index]
    assert any("same length" in n for n in report["not_checked"])  # type: ignore[union-attr]
