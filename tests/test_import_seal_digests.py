"""An import into an empty store seals each record type from the row digests its writer wrote
(store/seals.py ``known``), not by reading every row back; the seals are the same, so verify
passes; an import into a store that holds rows still reads them (issue #18)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store import seals
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif


def _seal_payloads(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [str(r[0]) for r in db.execute("SELECT json_extract(payload, '$.seals') FROM ledger "
                                              "WHERE kind = 'import' ORDER BY seq")]


async def test_an_empty_stores_import_seals_what_it_wrote_without_reading_it_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = [session_record(), *(event_record(n) for n in range(1, 30)), session_record("s2"),
               event_record(1, "s2"), event_record(1)]  # a repeated event: written once, sealed once
    src = write_sif(tmp_path / "a.jsonl", records)
    await import_file(src, tmp_path / "read.db", actor="t")  # the seals as read back from the rows

    async def no_reading(*_args: object) -> list[str]:
        raise AssertionError("an empty store's import read its rows back to seal them")

    monkeypatch.setattr(seals, "digests", no_reading)
    await import_file(src, tmp_path / "known.db", actor="t")
    monkeypatch.undo()
    read, known = _seal_payloads(tmp_path / "read.db"), _seal_payloads(tmp_path / "known.db")
    assert len(known) == 2 and "event" in known[0]
    # the same rows under another store key: the same types sealed, each verified against its rows
    assert [sorted(json.loads(k)) for k in known] == [sorted(json.loads(r)) for r in read]
    async with await open_store(tmp_path / "known.db") as store:
        assert (await verify_store(store)).ok

    # into a store that holds rows: those are read (the writer holds only what it wrote)
    target = tmp_path / "known.db"
    read_types: list[str] = []
    digests = seals.digests

    async def counted(db: object, session: str, type_: str) -> list[str]:
        read_types.append(type_)
        return await digests(db, session, type_)  # type: ignore[arg-type]

    monkeypatch.setattr(seals, "digests", counted)
    await import_file(write_sif(tmp_path / "b.jsonl", [session_record("s3"), event_record(1, "s3")]), target,
                      actor="t")
    assert "event" in read_types
    monkeypatch.undo()
    async with await open_store(target) as store:
        assert (await verify_store(store)).ok


def test_rows_fed_in_batches_seal_as_the_rows_read_back_do() -> None:
    """The writer feeds each chunk's digests as it writes them and holds none (a million events'
    digests are ~110 MB); the seal is the one taken over every row read back at once."""
    rows = [f"{n:064x}" for n in range(1, 2_000)]
    fed = seals.RowDigests()
    for start in range(0, len(rows), 700):
        fed.add(rows[start:start + 700])
    fed.add([])
    key = b"k" * 32
    assert fed.count == len(rows) and fed.seal(key, "event") == seals._whole(key, "event", rows)
    assert seals.RowDigests().seal(key, "stub") == seals._whole(key, "stub", [])
