"""An event's text is indexed through its first EVENT_INDEX_CHARS characters (store format 8); a
search still finds what lies past that, reading the long event's text, and says when it did not.

A pasted 30 MB log took a minute to index for search (trigram cost grows faster than the text):
the index now holds a bounded prefix, ``events_long`` finds the few longer events, and the search
checks the rest of their text itself (services/search_long.py) — never a silent miss.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.services import deletions, search_long
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store import grams
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from inspector.store.schema import EVENT_INDEX_CHARS, FORMAT_VERSION
from tests.conftest import write_sif

LINE = "2026-01-06T14:55:20Z INFO req=1672798 user=mubcrdls latency=59ms status=500\n"
TAIL_WORD = "ZEBRAFISH-LATE"


def _event(seq: int, content: str) -> dict[str, Any]:
    return {"type": "event", "session": "s1", "seq": seq, "kind": "tool_result", "trust": "tool",
            "content": content, "at": "2025-05-01T08:00:00Z"}


def _long_text() -> str:
    """A text past the index's bound, a word and a two-character token only past it."""
    body = LINE * (EVENT_INDEX_CHARS // len(LINE) + 2_000)
    return body + f"{TAIL_WORD} Ω§\n" + LINE * 10


def _records() -> list[dict[str, Any]]:
    return [{"type": "session", "id": "s1", "title": "log", "created_at": "2025-05-01T08:00:00Z"},
            _event(1, "look at this log"), _event(2, _long_text()), _event(3, "and the ZEBRAFISH-LATE after it"),
            {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:2"]}]


async def _imported(tmp_path: Path) -> Path:
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", _records()), path, actor="t")
    return path


def _entry_size(path: Path, seq: int) -> int:
    """The trigram count events_fts holds for an event (FTS5's docsize: one per position)."""
    with closing(sqlite3.connect(path)) as con:
        blob = con.execute("SELECT d.sz FROM events_fts_docsize d JOIN events e ON e.event_id = d.id "
                           "WHERE e.seq = ?", (seq,)).fetchone()[0]
    value = 0
    for byte in blob:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value


async def test_a_word_past_the_indexed_part_is_found_in_order(tmp_path: Path) -> None:
    path = await _imported(tmp_path)
    async with await open_store(path) as store:
        result = await search(store, "s1", TAIL_WORD.lower())
        assert [h.ref for h in result.hits] == ["evt:2", "evt:3"] and result.complete
        assert result.hits[0].offsets == (_long_text().index(TAIL_WORD),)
        short = await search(store, "s1", "Ω§")  # a two-character query: the gram index holds the prefix only
        assert [h.ref for h in short.hits] == ["evt:2"]
        assert (await verify_store(store)).ok
    assert _entry_size(path, 2) == EVENT_INDEX_CHARS - 2  # the index holds the bounded prefix


async def test_a_search_says_what_it_did_not_read_past_the_index(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = await _imported(tmp_path)
    monkeypatch.setattr(search_long, "SCAN_CHARS", 1000)
    async with await open_store(path) as store:
        result = await search(store, "s1", TAIL_WORD)
    assert [h.ref for h in result.hits] == ["evt:3"]
    assert not result.complete and "1 event longer than 1,000,000 characters was searched only" in result.note


async def test_a_long_event_is_deleted_from_the_index_and_the_store_verifies(tmp_path: Path) -> None:
    path = await _imported(tmp_path)
    async with await open_store(path) as store:
        await catch_up(store)
        assert not (await deletions.delete(store, "del-1", actor="owner")).refusals
        assert [h.ref for h in (await search(store, "s1", TAIL_WORD)).hits] == ["evt:3"]
        assert (await verify_store(store, full=True)).ok


def index_long_events_whole(path: Path, *, then: str = "") -> None:
    """Put the store's index back as format 7 left it: each long event indexed whole, not its prefix
    (``then``: more SQL in the same transaction, e.g. the format number taken back)."""
    with closing(sqlite3.connect(path)) as con, con:
        grams.register(con)
        long_events = "FROM events WHERE length(content) > 1000000"
        con.executescript(f"""
            INSERT INTO events_fts (events_fts, rowid, content) SELECT 'delete', event_id, substr(content, 1, 1000000)
                {long_events};
            INSERT INTO events_grams (events_grams, rowid, grams) SELECT 'delete', event_id,
                ci_grams(substr(content, 1, 1000000)) {long_events};
            INSERT INTO events_fts (rowid, content) SELECT event_id, content {long_events};
            INSERT INTO events_grams (rowid, grams) SELECT event_id, ci_grams(content) {long_events};
            {then}""")


async def test_a_format_7_store_indexed_whole_is_cut_to_the_prefix_on_open(tmp_path: Path) -> None:
    path = await _imported(tmp_path)
    async with await open_store(path) as store:
        await catch_up(store)
    index_long_events_whole(path, then='DROP INDEX events_long; PRAGMA user_version = 7;')
    assert _entry_size(path, 2) > EVENT_INDEX_CHARS
    async with await open_store(path) as store:
        assert [h.ref for h in (await search(store, "s1", TAIL_WORD)).hits] == ["evt:2", "evt:3"]
        assert not (await deletions.delete(store, "del-1", actor="owner")).refusals
        assert (await verify_store(store, full=True)).ok
    with closing(sqlite3.connect(path)) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION


@pytest.mark.parametrize("query", ["status=500", "INFO", "zebrafish", "x", "\n2026", "ß", "K"])
@pytest.mark.parametrize("text", [LINE * 200, LINE * 200 + "ZEBRAFISH", "Straße " * 1000 + "K"])
def test_counting_on_the_lower_cased_copy_answers_as_the_pattern(text: str, query: str) -> None:
    pattern = re.compile(re.escape(query), re.IGNORECASE)
    want = [m.start() for m in pattern.finditer(text)]
    assert search_long.occurrences(pattern, text, 100) == (len(want), tuple(want[:100]))
    assert search_long.contains(pattern, text) is bool(want)


def test_the_indexed_part_is_what_sqlite_indexes() -> None:
    """SQLite's length() and substr() stop at a NUL: such a text is indexed whole, as before format 8."""
    from inspector.store.search_index import indexed_part

    long = "x" * (EVENT_INDEX_CHARS + 10)
    assert indexed_part(long) == long[:EVENT_INDEX_CHARS]
    assert indexed_part("a\0" + long) == "a\0" + long and indexed_part("short") == "short"
    with closing(sqlite3.connect(":memory:")) as con:
        from inspector.store.search_index import INDEXED_TEXT

        for text in (long, "a\0" + long, "short"):
            got = con.execute(f"SELECT {INDEXED_TEXT} FROM (SELECT ? AS content)", (text,)).fetchone()[0]
            assert got == indexed_part(text)
