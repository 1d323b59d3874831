"""An import that appends to a session (a followed transcript's new lines) links its seals onto
the last ones instead of re-reading every row of the session — and verify still catches every
edit of those rows, before a link, inside one, or after the last.

Each edit below bypasses the product (guards dropped, the row digest recomputed), as in
test_verify_tamper; only the seals can tell.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inspector.services.following import Follower, catch_up
from inspector.services.verifying import verify_store
from inspector.store import seals
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record
from tests.test_verify_tamper import _edit, _redigest


def sif(sid: str, first: int, last: int, header: bool = True) -> bytes:
    lines = [{"type": "header", "format": "sif/1"}, session_record(sid)] if header else []
    lines += [event_record(n, sid, content=f"{sid} line {n}") for n in range(first, last + 1)]
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


async def followed(tmp_path: Path, polls: int = 3) -> Path:
    """A store whose session s1 was imported with 5 events, then grew by 3 events ``polls`` times."""
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    src.write_bytes(sif("s1", 1, 5))
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    try:
        for n in range(polls):
            with src.open("ab") as fh:
                fh.write(sif("s1", 6 + 3 * n, 8 + 3 * n, header=False))
            assert len((await follower.poll()).events) == 3
    finally:
        await follower.close()
    return db


async def ok(db: Path) -> bool:
    async with await open_store(db) as store:
        return (await verify_store(store)).ok


async def event_seals(db: Path) -> list[str]:
    async with await open_store(db) as store:
        rows = await store.db.execute_fetchall("SELECT payload FROM ledger WHERE kind = 'import' ORDER BY seq")
    return [json.loads(r[0])["seals"]["event"] for r in rows]


async def test_each_poll_links_only_what_it_added_and_verify_passes(tmp_path: Path) -> None:
    db = await followed(tmp_path)
    found = await event_seals(db)
    assert seals.link_size(found[0]) is None, "the creating import seals whole"
    assert [seals.link_size(v) for v in found[1:]] == [3, 3, 3]
    async with await open_store(db) as store:
        payloads = [json.loads(r[0]) for r in await store.db.execute_fetchall(
            "SELECT payload FROM ledger WHERE kind = 'import' ORDER BY seq")]
    assert sorted(payloads[-1]["seals"]) == sorted(payloads[-1]["added"]) == ["event"], "only what the poll added"
    assert await ok(db)


async def test_an_appending_import_reads_no_whole_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    src.write_bytes(sif("s1", 1, 400))
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    read: list[str] = []
    whole = seals.digests

    async def counting(db_: object, session: str, type_: str) -> list[str]:
        read.append(type_)
        return await whole(db_, session, type_)  # type: ignore[arg-type]

    monkeypatch.setattr(seals, "digests", counting)
    try:
        with src.open("ab") as fh:
            fh.write(sif("s1", 401, 402, header=False))
        assert len((await follower.poll()).events) == 2
    finally:
        await follower.close()
    assert read == [], f"the poll re-read every row of {read}"


E = "session = 's1' AND seq = ?"


def reword(seq: int):  # type: ignore[no-untyped-def]
    def edit(con: sqlite3.Connection) -> None:
        con.execute(f"UPDATE events SET content = 'reworded' WHERE {E}", (seq,))
        _redigest(con, "events", E, (seq,))
    return edit


def delete(seq: int):  # type: ignore[no-untyped-def]
    return lambda con: con.execute(f"DELETE FROM events WHERE {E}", (seq,))


def add_row(con: sqlite3.Connection) -> None:
    cols = [r[1] for r in con.execute("PRAGMA table_info(events)") if r[1] != "event_id"]
    picked = ", ".join("seq + 100" if c == "seq" else c for c in cols)
    con.execute(f"INSERT INTO events ({', '.join(cols)}) SELECT {picked} FROM events WHERE {E}", (3,))


def swap(a: int, b: int):  # type: ignore[no-untyped-def]
    def edit(con: sqlite3.Connection) -> None:
        ida = con.execute(f"SELECT event_id FROM events WHERE {E}", (a,)).fetchone()[0]
        idb = con.execute(f"SELECT event_id FROM events WHERE {E}", (b,)).fetchone()[0]
        con.execute("UPDATE events SET event_id = -1 WHERE event_id = ?", (ida,))
        con.execute("UPDATE events SET event_id = ? WHERE event_id = ?", (ida, idb))
        con.execute("UPDATE events SET event_id = ? WHERE event_id = -1", (idb,))
    return edit


@pytest.mark.parametrize("name, edit", [
    ("before the links", reword(2)), ("in the first link", reword(7)), ("in the last link", reword(14)),
    ("the last row deleted", delete(14)), ("a row of a link deleted", delete(9)), ("a row added", add_row),
    ("two rows across a link's edge swapped", swap(5, 6)), ("two rows inside a link swapped", swap(10, 11)),
])
async def test_verify_catches_every_edit_around_the_links(tmp_path: Path, name: str, edit) -> None:  # type: ignore[no-untyped-def]
    db = await followed(tmp_path)
    assert await ok(db)
    _edit(db, edit)
    assert not await ok(db), f"{name}: not reported"


async def test_a_link_that_cannot_be_read_cheaply_seals_whole_and_the_next_chains_on_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the rows a link needs lie below more than SCAN_MAX rows of other sessions (forced
    here), the import seals whole — correct, only slower; the next link chains on that seal."""
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    src.write_bytes(sif("s1", 1, 3))
    await catch_up(src, db, actor="t")
    other = tmp_path / "other.jsonl"
    other.write_bytes(sif("s2", 1, 40))
    await catch_up(other, db, actor="t")  # s2's rows now lie above s1's
    follower = await Follower.open(db, src, actor="t")
    try:
        with src.open("ab") as fh:
            fh.write(sif("s1", 4, 5, header=False))
        with monkeypatch.context() as forced:
            forced.setattr(seals, "SCAN_MAX", -1)
            await follower.poll()
        with src.open("ab") as fh:
            fh.write(sif("s1", 6, 7, header=False))
        await follower.poll()
    finally:
        await follower.close()
    async with await open_store(db) as store:
        rows = await store.db.execute_fetchall(
            "SELECT payload FROM ledger WHERE kind = 'import' AND session = 's1' ORDER BY seq")
    values = [json.loads(r[0])["seals"]["event"] for r in rows]
    assert [seals.link_size(v) for v in values] == [None, None, 2]
    assert await ok(db)
    _edit(db, reword(4))
    assert not await ok(db)
