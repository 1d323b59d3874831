"""The import's bulk writes (store/bulk.py): one JSON statement per batch stores exactly what
row-by-row ``executemany`` stores, including the values SQLite's JSON reader handles
differently, and a repeat inside the batch still falls back to the row-by-row check."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.errors import BadInput
from inspector.services.importing import import_file
from inspector.store import bulk
from inspector.store.catch_up import catch_up
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif

ODD = ["plain", "中文 — ½ 😀", "\u2028\u2029", "tab\tand\nnewline", 'quote " and \\ backslash', "", "123", "null",
       "\x7f\x1f", "\ufeffbom"]


def _records(with_nul: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [session_record("odd")]
    for seq in range(1, 201):
        extra: dict[str, Any] = {"args": {"n": seq, "big": 2**62 + seq, "f": seq / 7, "tiny": 1e-7}} if seq % 3 else {}
        content = ODD[seq % len(ODD)] + (" \x00 nul" if with_nul and seq == 150 else "")
        out.append(event_record(seq, "odd", content=content, call_id=f"c{seq}" if seq % 2 else None, **extra))
    return out


def _rows(path: Path) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT event_id, session, seq, kind, content, typeof(content), at, trust, call_id, tool, "
                           "extra, digest FROM events ORDER BY event_id").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("with_nul", [False, True])
async def test_the_json_batch_stores_what_executemany_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             with_nul: bool) -> None:
    src = write_sif(tmp_path / "odd.jsonl", _records(with_nul))
    sent: list[str] = []
    original = bulk._json_insert_sql
    monkeypatch.setattr(bulk, "_json_insert_sql", lambda spec: sent.append(spec.table) or original(spec))
    await import_file(src, tmp_path / "json.db", actor="t")
    assert ("events" in sent) != with_nul  # a batch holding a NUL goes row by row
    monkeypatch.setattr(bulk, "JSON_BATCH_MIN", 10**9)
    await import_file(src, tmp_path / "rows.db", actor="t")
    json_rows, plain_rows = _rows(tmp_path / "json.db"), _rows(tmp_path / "rows.db")
    assert len(json_rows) == 200 and json_rows == plain_rows
    if with_nul:
        assert any("\x00 nul" in (r[4] or "") for r in json_rows)


async def test_a_repeat_inside_a_json_batch_is_found_row_by_row(tmp_path: Path) -> None:
    records = _records(False)
    same = write_sif(tmp_path / "same.jsonl", [*records, records[100]])
    report = await import_file(same, tmp_path / "a.db", actor="t")
    assert report.added["event"] == 200 and report.skipped["event"] == 1
    differing = write_sif(tmp_path / "diff.jsonl", [*records, {**records[100], "content": "changed"}])
    with pytest.raises(BadInput) as err:
        await import_file(differing, tmp_path / "b.db", actor="t")
    assert err.value.code == "conflicting_record" and err.value.line == 203


async def test_compact_and_spaced_lines_give_the_same_rows_and_digests(tmp_path: Path) -> None:
    # Compact lines take the fast decoder and record check; spaced ones the guarded decoder
    # and the field loop (inspector/store/jsoncodec.py, inspector/domain/sif.py): same store.
    import json

    records = _records(True)
    spaced = write_sif(tmp_path / "spaced.jsonl", records)
    compact = tmp_path / "compact.jsonl"
    compact.write_text("\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"))
                                 for r in [{"type": "header", "format": "sif/1"}, *records]) + "\n", encoding="utf-8")
    await import_file(spaced, tmp_path / "spaced.db", actor="t")
    await import_file(compact, tmp_path / "compact.db", actor="t")
    assert _rows(tmp_path / "spaced.db") == _rows(tmp_path / "compact.db")


def _index_matches(path: Path) -> None:
    """The trigram index agrees with the events table, and every gram of every event's content
    finds exactly the events holding it (what the search service relies on)."""
    import unicodedata

    from inspector.store.grams import grams

    con = sqlite3.connect(path)
    try:
        con.execute("INSERT INTO events_fts (events_fts) VALUES ('integrity-check')")
        expected: dict[str, set[int]] = {}
        for event_id, content in con.execute("SELECT event_id, content FROM events WHERE content IS NOT NULL"):
            for token in (grams(content) or "").split(" "):
                if token and all(unicodedata.category(c)[0] in "LNMPS" or unicodedata.category(c) == "Co"
                                 for c in token):
                    expected.setdefault(token.casefold() if token.isascii() else token, set()).add(event_id)
        assert len(expected) > 50
        for token, ids in expected.items():
            quoted = '"' + token.replace('"', '""') + '"'
            found = {r[0] for r in con.execute("SELECT rowid FROM events_grams WHERE events_grams MATCH ?", (quoted,))}
            assert ids <= found, token
        (indexed,) = con.execute("SELECT COUNT(*) FROM events_fts").fetchone()
        (with_content,) = con.execute("SELECT COUNT(*) FROM events WHERE content IS NOT NULL").fetchone()
        assert indexed == with_content
    finally:
        con.close()


@pytest.mark.parametrize("with_nul", [False, True])
async def test_both_search_indexes_hold_every_added_event(tmp_path: Path, with_nul: bool) -> None:
    records = _records(with_nul)
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records[:120]), store, actor="t")
    # more events of the same session, one repeated: the row-by-row path indexes what it adds
    report = await import_file(write_sif(tmp_path / "b.jsonl", [*records, records[150]]), store, actor="t")
    assert report.added["event"] == 81 and report.skipped["event"] == 120  # 119 stored before, 1 repeated
    async with await open_store(store) as opened:  # the indexes are built after the imports
        assert await catch_up(opened) == 200
    _index_matches(store)


async def test_rows_carrying_much_text_go_through_executemany(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite reads long JSON strings slower than Python binds them (issue 18: a real
    transcript's events average ~1.5 KB): such batches skip the JSON statement, same rows."""
    records = [session_record("long"), *(event_record(n, "long", content=ODD[n % len(ODD)] * 200)
                                         for n in range(1, 101))]
    src = write_sif(tmp_path / "long.jsonl", records)
    sent: list[str] = []
    original = bulk._json_insert_sql
    monkeypatch.setattr(bulk, "_json_insert_sql", lambda spec: sent.append(spec.table) or original(spec))
    await import_file(src, tmp_path / "long.db", actor="t")
    assert "events" not in sent
    monkeypatch.setattr(bulk, "JSON_ROW_TEXT_MAX", 10**9)
    await import_file(src, tmp_path / "json.db", actor="t")
    assert "events" in sent and _rows(tmp_path / "long.db") == _rows(tmp_path / "json.db")
