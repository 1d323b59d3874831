"""Opening one 50 MB event: the event dialog's read and first layout, headless.

    python -m bench.huge_event [--mb 50]

Times reading the bounded head (services/event_view.py) and laying out the dialog in a
Textual app under ``run_test``, against reading the whole record as the old dialog did.
Target: ≤ 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from textual.app import App

from inspector.services import channels
from inspector.services.event_view import content_window, event_head
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from inspector.ui.event_dialog import EventDialog


async def run(mb: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "big.jsonl"
        line = "00000000 部署节点 check ok latency=12ms\n"
        content = line * (mb * 1024 * 1024 // len(line.encode()))
        records = [{"type": "header", "format": "sif/1"},
                   {"type": "session", "id": "s1", "title": "big", "created_at": "2025-05-01T00:00:00Z"},
                   {"type": "event", "session": "s1", "seq": 1, "kind": "tool_result", "trust": "tool",
                    "content": content, "at": "2025-05-01T00:00:00Z"}]
        src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
        await import_file(src, Path(tmp) / "s.db", actor="bench")
        async with await open_store(Path(tmp) / "s.db") as store:
            start = time.perf_counter()
            whole = await channels.event_detail(store, "s1", 1)
            json.dumps(whole, ensure_ascii=False, indent=2)
            old_read = time.perf_counter() - start
            app: App[None] = App()
            async with app.run_test(size=(200, 50)) as pilot:
                start = time.perf_counter()
                view = await event_head(store, "s1", 1)
                assert view is not None

                async def more(s: int, n: int) -> str:
                    return await content_window(store, "s1", 1, s, n)

                await app.push_screen(EventDialog("Event #1", view, "", more))
                await pilot.pause()
                opened = time.perf_counter() - start
        print(f"{mb} MB event ({len(content):,} characters): dialog open {opened:.3f} s (target ≤ 1 s); "
              f"the old read + pretty-print alone, before any layout: {old_read:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=50)
    asyncio.run(run(parser.parse_args().mb))


if __name__ == "__main__":
    main()
