"""Rows appended to a followed session appear in the timeline in order, exactly once, whatever
their timestamps and wherever the cursor is.

The timeline places a ledger entry before the first event stamped later than it, so an
appended event stamped before the window's trailing ledger rows (old, equal or out-of-order
times — a transcript's clocks are not monotone) sorts *inside* the window, not after it.
Extending the window forward from its last row missed such events; these tests append hostile
timestamps, seeded, with the cursor at the end, in the middle and at the top, with small pages
so the window really slides, and compare the view with the whole timeline read at once.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from inspector.services import timeline
from inspector.services.following import Follower, catch_up
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.ui.widgets import timeline_view
from inspector.ui.widgets.timeline_view import TimelineView
from tests.conftest import event_record, session_record

STAMPS = ("2020-01-01T00:00:00Z", "2025-05-01T00:00:00Z", "2025-05-01T00:00:00Z", "2031-01-01T00:00:00Z",
          "2099-12-31T23:59:59Z", "1999-01-01T00:00:00Z", "2026-11-30T12:00:00+05:00", None)


def line(seq: int, at: str | None) -> bytes:
    record = event_record(seq, content=f"appended {seq}")
    if at is None:
        record.pop("at")
    else:
        record["at"] = at
    return json.dumps(record).encode() + b"\n"


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield TimelineView(id="tl")


def ident(row: timeline.TimelineRow) -> tuple[str, int]:
    return row.source, row.seq


async def whole(store_path: Path) -> list[tuple[str, int]]:
    async with await open_store(store_path) as store:
        return [ident(r) for r in await timeline.page(store, "s1", None, limit=10**6)]


def contiguous(window: list[tuple[str, int]], full: list[tuple[str, int]]) -> bool:
    if not window:
        return not full
    start = full.index(window[0]) if window[0] in full else -1
    return start >= 0 and full[start:start + len(window)] == window


@pytest.mark.parametrize("where", ["end", "middle", "top"])
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_appended_events_appear_once_in_order_whatever_their_times(tmp_path: Path, where: str, seed: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timeline_view, "PAGE", 8)  # pages this small make the window slide and trim
    monkeypatch.setattr(timeline_view, "WINDOW_MAX", 20)
    monkeypatch.setattr(timeline_view, "PREFETCH", 3)
    rng = random.Random(seed)
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    head = json.dumps({"type": "header", "format": "sif/1"}) + "\n" + json.dumps(session_record()) + "\n"
    src.write_bytes(head.encode() + b"".join(line(n, "2025-05-01T00:00:00Z") for n in range(1, 13)))
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    app = Host()
    try:
        async with app.run_test(size=(100, 14)) as pilot:
            view = app.query_one(TimelineView)
            view.focus()
            store = await open_store(db)
            try:
                await view.show_session(store, "s1")
                await view.action_end()
                if where != "end":
                    view.action_move(-3 if where == "middle" else -10**6)
                    if where == "top":
                        await view.action_start()
                    await pilot.pause()
                seq = 12
                for _round in range(12):
                    before = view.current
                    was_following = view.following_end
                    batch = rng.randint(1, 4)
                    with src.open("ab") as fh:
                        for _ in range(batch):
                            seq += 1
                            fh.write(line(seq, rng.choice(STAMPS)))
                    assert len((await follower.poll()).events) == batch
                    await view.grew()
                    full = await whole(db)
                    window = [ident(r) for r in view.rows]
                    assert len(set(window)) == len(window), f"a row shown twice: {window}"
                    assert contiguous(window, full), f"the window is not a slice of the timeline: {window}"
                    if was_following:
                        assert view.current is not None and ident(view.current) == full[-1], "stopped following the end"
                    else:
                        assert before is not None and view.current is not None
                        assert ident(view.current) == ident(before), "the reviewer's row moved"
                    if view.at_end:
                        assert window[-1] == full[-1], "the window says it holds the end but does not"
                # Walking from the first row to the last shows every row once; the events in file order.
                await view.action_start()
                seen: list[tuple[str, int]] = []
                for _ in range(10_000):
                    row = view.current
                    assert row is not None, (view.cursor, len(view.rows), seen[-3:])
                    if not seen or seen[-1] != ident(row):
                        seen.append(ident(row))
                    if view.at_end and view.cursor == len(view.rows) - 1:
                        break
                    view.action_move(1)
                    for _ in range(50):  # a prefetch worker may be running
                        await pilot.pause()
                        if not view._fetching:
                            break
                assert seen == await whole(db)
                assert [s for src_, s in seen if src_ == "event"] == list(range(1, seq + 1))
                assert (await verify_store(store)).ok
            finally:
                await store.close()
    finally:
        await follower.close()


async def test_an_event_stamped_before_the_trailing_ledger_rows_appears_with_the_cursor_above_them(
        tmp_path: Path) -> None:
    """The case that was missed: the window ends with import entries stamped now; an appended
    event stamped in 2025 sorts before them — inside the window — and the cursor is one row up."""
    src, db = tmp_path / "run.jsonl", tmp_path / "run.db"
    head = json.dumps({"type": "header", "format": "sif/1"}) + "\n" + json.dumps(session_record()) + "\n"
    src.write_bytes(head.encode() + line(1, "2025-05-01T00:00:00Z") + line(2, "2025-05-01T00:00:00Z"))
    await catch_up(src, db, actor="t")
    follower = await Follower.open(db, src, actor="t")
    app = Host()
    try:
        async with app.run_test(size=(100, 14)) as pilot:
            view = app.query_one(TimelineView)
            async with await open_store(db) as store:
                await view.show_session(store, "s1")
                await view.action_end()
                assert view.rows[-1].source == "ledger"  # the import entry, stamped now
                view.action_move(-1)
                await pilot.pause()
                with src.open("ab") as fh:
                    fh.write(line(3, "2025-05-01T00:00:01Z"))
                await follower.poll()
                await view.grew()
                assert [r.seq for r in view.rows if r.source == "event"] == [1, 2, 3]
    finally:
        await follower.close()
