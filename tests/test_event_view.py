"""A huge event opens as a bounded head; ``m`` reads the next stretch of its content."""

from __future__ import annotations

import time
from pathlib import Path

from textual.app import App
from textual.widgets import Static

from inspector.services.event_view import HEAD_CHARS, content_window, event_head
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.ui.event_dialog import EventDialog
from tests.conftest import session_record, write_sif

BIG = "".join(f"{n:07d} 部署 ok\n" for n in range(400_000))  # 4.8 M characters


async def big_store(tmp_path: Path) -> Path:
    records = [session_record("s1"), {"type": "event", "session": "s1", "seq": 1, "kind": "tool_result",
                                      "trust": "tool", "call_id": "c1", "content": BIG,
                                      "big_arg": "x" * (HEAD_CHARS + 5), "at": "2025-05-01T08:00:00Z"}]
    path = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", records), path, actor="t")
    return path


async def test_the_head_is_bounded_and_says_what_it_cut(tmp_path: Path) -> None:
    async with await open_store(await big_store(tmp_path)) as store:
        view = await event_head(store, "s1", 1)
        window = await content_window(store, "s1", 1, HEAD_CHARS, 100)
        missing = await event_head(store, "s1", 2)
    assert view is not None and missing is None
    assert view.record["content"] == BIG[:HEAD_CHARS] and view.content_chars == len(BIG)
    assert view.cut == {"content": len(BIG), "big_arg": HEAD_CHARS + 5}
    assert view.record["big_arg"] == "x" * HEAD_CHARS
    assert window == BIG[HEAD_CHARS:HEAD_CHARS + 100]


async def test_the_dialog_opens_fast_and_m_shows_the_next_stretch(tmp_path: Path) -> None:
    path = await big_store(tmp_path)
    async with await open_store(path) as store:
        view = await event_head(store, "s1", 1)
        assert view is not None

        async def more(start: int, count: int) -> str:
            return await content_window(store, "s1", 1, start, count)

        app: App[None] = App()
        async with app.run_test(size=(120, 40)) as pilot:
            started = time.perf_counter()
            await app.push_screen(EventDialog("Event #1", view, "", more))
            await pilot.pause()
            assert time.perf_counter() - started < 5  # all of it laid out took far longer; the head is 32K
            body = app.screen.query_one("#dialog-body Static", Static)
            assert f"{HEAD_CHARS:,} of {len(BIG):,} characters shown; m shows the next" in str(body.render())
            await pilot.press("m")
            await pilot.pause()
            text = str(body.render())
            assert BIG[HEAD_CHARS:HEAD_CHARS + 40] in text
            assert f"{2 * HEAD_CHARS:,} of {len(BIG):,} characters shown" in text
