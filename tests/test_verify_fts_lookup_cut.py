"""A search index's lookup term cut shorter is a break (storefault-nine: `bench/verify_mutations.py
--missed` on the acts store found ``events_grams_idx.term: truncate`` missed, with the 1- and
2-character searches of a session then losing hits).

FTS5 finds a term's leaf page by the largest lookup term (``NAME_idx.term``) at or below it, and
stores for each page the shortest prefix of its first term that sorts after every term of the
pages before. verify checked only that the lookup term is a prefix of the page's first term; a
shorter prefix still is, but it no longer sorts after the previous page's last term, so a search
for the terms in between lands on this page and finds nothing. Now it must sort after them too.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from tests.conftest import write_sif

TEXT = "".join(chr(0x4E00 + i) for i in range(0, 6000, 3))  # 2,000 distinct characters: many grams, many pages


async def _store(tmp_path: Path) -> Path:
    records = [{"type": "session", "id": "s1", "title": "t", "created_at": "2025-05-01T08:00:00Z"},
               {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user",
                "content": TEXT, "at": "2025-05-01T08:00:00Z"}]
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), path, actor="t")
    async with await open_store(path) as store:
        await catch_up(store)
    return path


async def test_a_lookup_term_cut_shorter_is_a_break_and_would_lose_hits(tmp_path: Path) -> None:
    path = await _store(tmp_path)
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT segid, term, pgno FROM events_grams_idx WHERE length(term) > 1 "
                          "ORDER BY segid, term").fetchall()
    assert len(rows) >= 3, rows  # the index spans several leaf pages
    segid, term, pgno = rows[len(rows) // 2]
    with closing(sqlite3.connect(path)) as db:
        db.execute("UPDATE events_grams_idx SET term = ? WHERE segid = ? AND pgno = ?",
                   (term[: len(term) // 2], segid, pgno))
        db.commit()
    async with await open_store(path) as store:
        lost = [ch for ch in TEXT[::50] if not (await search(store, "s1", ch)).hits]
        report = await verify_store(store)
    assert lost, "the cut should cost a search its hits (else this test shows nothing)"
    assert not report.ok and any(p["code"] == "search_index_damaged" and p["where"] == "events_grams"
                                 for p in report.problems), report.problems


async def test_an_untouched_index_of_many_pages_verifies(tmp_path: Path) -> None:
    """Guard: the new order check holds on every page FTS5 writes."""
    async with await open_store(await _store(tmp_path)) as store:
        report = await verify_store(store)
    assert report.ok, report.problems
