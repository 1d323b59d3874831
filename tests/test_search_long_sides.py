"""A tool call's input and an event's thinking are indexed through their first EVENT_INDEX_CHARS
characters (store format 9), as an event's text is since format 8; a search still finds what lies
past that, reading the long text itself, counts a hit's occurrences in the whole text, and says
when it did not read.

Before (lead-16-17 item 7) the call-input and thinking indexes took such a text whole: a 30 MB file
written by one Write call, or a long thinking block, cost the first search a minute of trigram
insert, the cost growing faster than the text.
"""

from __future__ import annotations

import json
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
CALL_WORD, THOUGHT_WORD, EARLY = "ZEBRAFISH-WROTE", "PELICAN-THOUGHT", "early-marker"


def _long(word: str) -> str:
    """A text past the index's bound: a word early, the word (and a character only it has) only past it."""
    body = LINE * (EVENT_INDEX_CHARS // len(LINE) + 2_000)
    return f"{EARLY} " + body + f"{word} ゑ {EARLY}\n" + LINE * 10


def _records() -> list[dict[str, Any]]:
    at = "2025-05-01T08:00:00Z"
    return [
        {"type": "session", "id": "s1", "title": "long", "created_at": at},
        {"type": "event", "session": "s1", "seq": 1, "kind": "user_message", "trust": "user", "content": "write it",
         "at": at},
        {"type": "event", "session": "s1", "seq": 2, "kind": "tool_call", "trust": "model", "call_id": "c2",
         "tool": "Write", "args": {"file_path": "big.log", "content": _long(CALL_WORD)}, "at": at},
        {"type": "event", "session": "s1", "seq": 3, "kind": "assistant_message", "trust": "model",
         "content": "done", "reasoning_content": _long(THOUGHT_WORD), "at": at},
        {"type": "event", "session": "s1", "seq": 4, "kind": "tool_call", "trust": "model", "call_id": "c4",
         "tool": "Bash", "args": {"command": f"echo {CALL_WORD}"}, "at": at},
        {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:2", "evt:3"]},
    ]


async def _imported(tmp_path: Path) -> Path:
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", _records()), path, actor="t")
    return path


def _entry_lengths(path: Path) -> dict[str, list[int]]:
    with closing(sqlite3.connect(path)) as con:
        return {table: [len(text) for (text,) in con.execute(f"SELECT text FROM {table} ORDER BY rowid")]
                for table in ("calls_fts", "reasoning_fts")}


def _found(result: Any) -> list[tuple[str, str]]:
    return [(h.ref, h.matched) for h in result.hits]


async def test_the_indexes_hold_the_first_part_and_a_search_finds_the_rest(tmp_path: Path) -> None:
    path = await _imported(tmp_path)
    async with await open_store(path) as store:
        await catch_up(store)
        assert _entry_lengths(path) == {"calls_fts": [EVENT_INDEX_CHARS, len(f"echo {CALL_WORD}")],
                                        "reasoning_fts": [EVENT_INDEX_CHARS]}
        found = await search(store, "s1", CALL_WORD)
        assert _found(found) == [("evt:2", "call input of Write"), ("evt:4", "call input of Bash")]
        assert found.complete and not found.note
        assert _found(await search(store, "s1", THOUGHT_WORD)) == [("evt:3", "thinking")]
        # the short path: a character only past the bound, in both texts
        assert _found(await search(store, "s1", "ゑ")) == [("evt:2", "call input of Write"), ("evt:3", "thinking")]
        # a hit found by the index in the first part counts and places every occurrence of the whole text
        early = await search(store, "s1", EARLY)
        assert _found(early) == [("evt:2", "call input of Write"), ("evt:3", "thinking")]
        whole = _long(THOUGHT_WORD)
        assert early.hits[1].occurrences == 2 and early.hits[1].offsets == (0, whole.rindex(EARLY))
        assert (await verify_store(store, full=True)).ok
        # a deletion takes the cut entries out with what they hold
        assert not (await deletions.delete(store, "del-1", actor="owner")).refusals
        assert _found(await search(store, "s1", CALL_WORD)) == [("evt:4", "call input of Bash")]
        assert _found(await search(store, "s1", THOUGHT_WORD)) == []
        assert (await verify_store(store, full=True)).ok
    assert _entry_lengths(path) == {"calls_fts": [len(f"echo {CALL_WORD}")], "reasoning_fts": []}


async def test_a_search_says_whose_call_input_or_thinking_it_did_not_read(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = await _imported(tmp_path)
    monkeypatch.setattr(search_long, "SCAN_CHARS", 1000)
    async with await open_store(path) as store:
        result = await search(store, "s1", CALL_WORD)
    assert _found(result) == [("evt:4", "call input of Bash")]
    assert not result.complete
    assert "the call input or thinking of 2 events longer than 1,000,000 characters were searched only" in result.note


def _index_whole(path: Path) -> None:
    """Put the side indexes back as format 8 left them (each text whole) and the number to 8."""
    with closing(sqlite3.connect(path)) as con, con:
        grams.register(con)
        for table, key in (("calls", "args"), ("reasoning", "reasoning_content")):
            con.executescript(f"""
                INSERT INTO {table}_grams ({table}_grams, rowid, grams) SELECT 'delete', rowid, ci_grams(text)
                    FROM {table}_fts;
                DELETE FROM {table}_fts;""")
            for event_id, extra in con.execute(f"SELECT event_id, extra FROM events WHERE instr(extra, '\"{key}\"')"):
                value = json.loads(extra)[key]
                text = "\n".join(v for v in value.values()) if isinstance(value, dict) else value
                con.execute(f"INSERT INTO {table}_fts (rowid, text) VALUES (?, ?)", (event_id, text))
                con.execute(f"INSERT INTO {table}_grams (rowid, grams) VALUES (?, ci_grams(?))", (event_id, text))
        con.executescript("DROP INDEX events_long_extra; PRAGMA user_version = 8;")


async def test_a_format_8_store_indexed_whole_is_cut_to_the_first_part_on_open(tmp_path: Path) -> None:
    path = await _imported(tmp_path)
    async with await open_store(path) as store:
        await catch_up(store)
    _index_whole(path)
    assert max(_entry_lengths(path)["calls_fts"]) > EVENT_INDEX_CHARS
    async with await open_store(path, hold_upgrade=False) as store:  # upgraded at once, as `inspector upgrade` opens it
        said = store.format_upgraded
        assert said is not None and said["long_call_input_or_thinking_reindexed"] == 2, said
        assert "the call input or thinking of 2 events over 1,000,000 characters re-indexed" in said["message"]
        assert _entry_lengths(path)["reasoning_fts"] == [EVENT_INDEX_CHARS]
        assert _found(await search(store, "s1", THOUGHT_WORD)) == [("evt:3", "thinking")]
        assert (await verify_store(store, full=True)).ok
        assert not (await deletions.delete(store, "del-1", actor="owner")).refusals
        assert (await verify_store(store, full=True)).ok
    with closing(sqlite3.connect(path)) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT_VERSION == 9
