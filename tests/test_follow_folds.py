"""A live follow's own ledger entries fold into one timeline row per follow.

Each batch a follow imports has its own ``import`` ledger entry (and a ``facts.proposed`` one when
the extractor proposed facts); listed one per row they crowded the end of the timeline, pushing the
imported events out of sight. These tests follow a Claude Code transcript batch by batch and check
that the run reads as one row, that keyset pages of any size going either way agree on it, that a
reviewer's act ends the run, and that ``enter`` on the row lists every entry it holds.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from inspector.services import timeline
from inspector.services.corrections import confirm
from inspector.services.following import Follower, catch_up
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store

SESSION = "839b35f7-0000-4000-8000-000000000001"


def claude_pair(n: int) -> bytes:
    user = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": SESSION,
            "version": "2.1.14", "type": "user", "uuid": str(uuid.UUID(int=2 * n + 1)),
            "message": {"role": "user", "content": f"question {n}: do not touch the prod database {n}"},
            "timestamp": f"2026-01-21T12:00:{n:02d}.000Z"}
    answer = {"parentUuid": user["uuid"], "isSidechain": False, "userType": "external", "cwd": "/w",
              "sessionId": SESSION, "version": "2.1.14", "type": "assistant", "uuid": str(uuid.UUID(int=2 * n + 2)),
              "message": {"id": f"msg_{n:04d}", "role": "assistant", "type": "message", "model": "m",
                          "content": [{"type": "text", "text": f"answer {n}"}]},
              "timestamp": f"2026-01-21T12:00:{n:02d}.500Z"}
    return (json.dumps(user) + "\n" + json.dumps(answer) + "\n").encode()


async def followed(tmp_path: Path, batches: int, db: Path | str | None = None) -> tuple[Path, Path | str]:
    src, db = tmp_path / "run.jsonl", db or tmp_path / "run.db"
    src.write_bytes(claude_pair(0))
    await catch_up(src, db, actor="ana")
    follower = await Follower.open(db, src, actor="ana")
    try:
        for n in range(1, batches + 1):
            with src.open("ab") as fh:
                fh.write(claude_pair(n))
            assert len((await follower.poll()).events) == 2
    finally:
        await follower.close()
    return src, db


def ident(row: timeline.TimelineRow) -> tuple[str, int]:
    return row.source, row.seq


async def test_a_follows_batches_read_as_one_row_that_names_them(tmp_path: Path) -> None:
    _src, db = await followed(tmp_path, 6)
    async with await open_store(db) as store:
        (entries,) = (await store.db.execute_fetchall("SELECT COUNT(*) FROM ledger WHERE session = ?", (SESSION,)))[0:1]
        assert entries[0] == 13  # the first import, then an import and a facts.proposed per batch
        rows = await timeline.page(store, SESSION, None, limit=10**6)
        ledger = [r for r in rows if r.source == "ledger"]
        assert [(r.kind, r.folded) for r in ledger] == [("import", None), ("imports", (2, 13))]
        fold = ledger[1]
        assert fold.seq == 13 and fold.key == (fold.at, timeline.LEDGER, 13)
        assert "6 appended parts imported" in fold.text and "bytes " in fold.text
        assert "6 facts.proposed" in fold.text and "L2–L13" in fold.text
        assert [r.seq for r in rows if r.source == "event"] == list(range(1, 15))
        assert (await verify_store(store)).ok


@pytest.mark.parametrize("limit", [1, 2, 3, 5])
async def test_pages_of_any_size_agree_with_the_whole_timeline_both_ways(tmp_path: Path, limit: int,
                                                                          backend_empty_store: Path | str) -> None:
    """On both backends: the run's end and counts are queries (SQL and Python share one test)."""
    _src, db = await followed(tmp_path, 5, backend_empty_store)
    async with await open_store(db) as store:
        await confirm(store, SESSION, "goal.main", actor="ana")  # an act: ends the run
        _ = await followed_more(store, tmp_path, db)
        whole = [ident(r) for r in await timeline.page(store, SESSION, None, limit=10**6)]
        last = (await store.db.execute_fetchall("SELECT MAX(seq) FROM ledger WHERE session = ?", (SESSION,)))[0][0]
        assert last >= 14
        assert [s for src, s in whole if src == "ledger"] == [1, 11, 12, last]  # import, run, act, run
        forward: list[tuple[str, int]] = []
        key = None
        while True:
            page = await timeline.page(store, SESSION, key, forward=True, limit=limit)
            forward += [ident(r) for r in page]
            if len(page) < limit:
                break
            key = page[-1].key
        assert forward == whole
        back: list[tuple[str, int]] = []
        key = ("\U0010ffff", timeline.LEDGER, 2**62)
        while True:
            page = await timeline.page(store, SESSION, key, forward=False, limit=limit)
            back = [ident(r) for r in page] + back
            if len(page) < limit:
                break
            key = page[0].key
        assert back == whole
        # a cited entry inside a run opens the timeline on the run's row
        rows, index = await timeline.around(store, SESSION, 4, limit=6, source="ledger")
        assert ident(rows[index]) == ("ledger", 11) and rows[index].folded == (2, 11)


async def followed_more(store: object, tmp_path: Path, db: Path | str) -> None:
    """Two more batches after the act, by the same follower's file."""
    src = tmp_path / "run.jsonl"
    follower = await Follower.open(db, src, actor="ana")
    try:
        for n in (90, 91):
            with src.open("ab") as fh:
                fh.write(claude_pair(n))
            await follower.poll()
    finally:
        await follower.close()


async def test_enter_on_the_folded_row_lists_every_entry(tmp_path: Path) -> None:
    from inspector.ui.app import InspectorApp
    from inspector.ui.dialogs import MessageDialog
    from inspector.ui.widgets.timeline_view import TimelineView
    from tests.test_app import settle

    _src, db = await followed(tmp_path, 4)
    app = InspectorApp(db, reviewer="ana")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(app, pilot)  # the store opens in a worker behind the loading note (flow-seven)
        await pilot.press("t", "end")
        await pilot.pause()
        view = app.screen.query_one(TimelineView)
        row = view.current
        assert row is not None and row.folded == (2, 9)
        assert "L2–L9" in str(view.render())  # the row names its entries' range
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, MessageDialog):
                break
        assert isinstance(app.screen, MessageDialog)
        body = str(app.screen.query_one("#dialog-body Static").render())
        for seq in range(2, 10):
            assert f"L{seq} " in body
        assert body.count("import by ana") == 4 and body.count("facts.proposed by ana") == 4
