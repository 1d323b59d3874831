"""A follower that finishes opening after its follow bar went is closed, not kept by nobody.

The bar opens the followed store on its own connection (``Follower.open``) in a worker. When the
app ends while that open is still under way and the open is not interrupted (a cancel that does
not reach it: asyncio.run cancels an exiting app's workers once more, and a second cancel is
swallowed by the close it interrupts), the follower arrives after the bar's unmount closed
nothing: kept, its two connection threads held the interpreter at shutdown. ``FollowBar.start``
closes it at once (``self.ended``); this drives that start the way such a worker finishes it —
past the bar's unmount — and checks no connection is left.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.services.following import Follower, catch_up
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.follow_bar import FollowBar
from tests.test_app_exit_store import _connection_threads, _left_since

SID = "late-0001"


def claude_line(n: int, text: str) -> str:
    return json.dumps({"type": "user", "sessionId": SID, "uuid": f"u{n}", "cwd": "/work/late",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": {"role": "user", "content": text}})


async def test_a_follower_opened_after_the_bar_went_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, db = tmp_path / f"{SID}.jsonl", tmp_path / "late.db"
    src.write_text(claude_line(0, "start the export fix") + "\n", encoding="utf-8")
    await catch_up(src, db, actor="t")
    released = asyncio.Event()
    began: list[Path] = []
    opened: list[Follower] = []
    real_open = Follower.open

    async def late(store_path: Path, source: Path, *, actor: str) -> Follower:
        began.append(source)
        await released.wait()  # the bar goes while its store is being opened
        opened.append(await real_open(store_path, source, actor=actor))
        return opened[-1]

    monkeypatch.setattr(Follower, "open", late)
    before = _connection_threads()
    app = InspectorApp(db, follow=src)
    async with app.run_test(size=(120, 40)) as pilot:
        async with asyncio.timeout(60):  # a hang guard only
            while not began:  # the bar's own start is opening its store (and waits)
                await pilot.pause(0.02)
            bar = app.screen.query_one(FollowBar)
            # The start as a worker the app's exit does not interrupt runs it: past the bar's unmount.
            starting = asyncio.ensure_future(FollowBar.start.__wrapped__(bar))  # type: ignore[attr-defined]
            while len(began) < 2:
                await pilot.pause(0.02)
    assert bar.ended and not starting.done()  # the app ended: the bar is unmounted, the open still under way
    released.set()
    await asyncio.wait_for(starting, 60)
    assert opened and bar.follower is None
    assert not await _left_since(before), "the follower's store was left open"
