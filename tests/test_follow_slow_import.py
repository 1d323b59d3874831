"""Following on a loaded machine: an import that outlasts the poll interval still lands."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.services.following import Follower, catch_up
from inspector.ui.app import InspectorApp
from inspector.ui.widgets import follow_bar
from inspector.ui.widgets.timeline_view import TimelineView
from tests.test_app import settle


def line(n: int, text: str) -> str:
    return json.dumps({"type": "user", "sessionId": "slow-1", "uuid": f"u{n}", "cwd": "/work/slow",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.000Z", "message": {"role": "user", "content": text}})


async def test_an_import_slower_than_the_poll_interval_is_not_cancelled_by_the_next_look(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src, db = tmp_path / "slow-1.jsonl", tmp_path / "slow.db"
    src.write_text(line(0, "first") + "\n", encoding="utf-8")
    await catch_up(src, db, actor="t")
    monkeypatch.setattr(follow_bar, "POLL_S", 0.05)
    real_import = Follower.import_tail

    async def slow_import(self: Follower, tail: bytes):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.3)  # six poll intervals: the next looks must wait, not cancel it
        return await real_import(self, tail)

    monkeypatch.setattr(Follower, "import_tail", slow_import)
    app = InspectorApp(db, follow=src)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(app, pilot)
        await pilot.press("t", "end")  # the timeline at its end, as a person following does
        with src.open("a", encoding="utf-8") as fh:
            fh.write(line(1, "appended while the machine is slow") + "\n")
        timeline = app.screen.query_one(TimelineView)
        for _ in range(400):  # bounded by rounds of the event loop, not by the clock
            if any(r.text == "appended while the machine is slow" for r in timeline.rows):
                break
            await asyncio.sleep(0.02)
        bar = app.screen.query_one(follow_bar.FollowBar)
        assert any(r.text == "appended while the machine is slow" for r in timeline.rows), str(bar.render())
