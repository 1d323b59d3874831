"""The report printed (or saved as PDF) holds everything the screen shows, and a long
session's page stays small and says, in the browser, what it left out.

Found by re-checking issue 17 in headless Chromium: printed, the three channels kept their
on-screen scroll box (85% of the window high), so a long Protected state channel was cut
off on paper, and every tool result longer than 32 lines was cut at its scroll box."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from inspector.services.importing import import_file
from inspector.services.report import write_report
from inspector.store.connection import open_store
from tests.browser import browser  # noqa: F401 - the fixture
from tests.conftest import event_record, session_record, write_sif

CLIPPED = """[...document.querySelectorAll("pre, .channel, .scroll, .md")]
  .filter(el => el.offsetParent !== null && !el.closest("details:not([open])"))
  .filter(el => el.scrollHeight > el.clientHeight + 2)
  .map(el => el.tagName + "." + el.className)"""


def _page(folder: Path) -> Path:
    records = [session_record("s1")]
    for seq in range(1, 260, 2):  # many records' sources and long results
        records.append(event_record(seq, "s1", kind="tool_call", trust="model", content=None, call_id=f"c{seq}",
                                    tool="run", args={"n": seq}))
        records.append(event_record(seq + 1, "s1", kind="tool_result", trust="tool", call_id=f"c{seq}", tool="run",
                                    content="\n".join(f"line {i}" for i in range(80))))
    records += [{"type": "state", "session": "s1", "key": f"constraint.c{i}", "kind": "constraint", "version": 1,
                 "status": "active", "value": f"never touch table t{i} in production", "writer": "user",
                 "at": "2025-05-01T00:00:00Z", "scope": "task", "sources": ["evt:1"]} for i in range(120)]

    async def build() -> Path:
        store = folder / "long.db"
        await import_file(write_sif(folder / "long.jsonl", records), store, actor="tester")
        async with await open_store(store) as opened:
            return (await write_report(opened, "s1", folder / "long.html", max_entries=60)).path

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API keeps an event loop running on this thread
        return pool.submit(asyncio.run, build()).result()


@pytest.fixture(scope="module")
def long_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _page(tmp_path_factory.mktemp("print"))


def test_printed_nothing_is_cut_at_a_scroll_box(browser: Any, long_page: Path) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(long_page.as_uri())
        assert page.evaluate(CLIPPED)  # on screen the channels and results scroll in their boxes
        page.emulate_media(media="print")
        page.evaluate('document.querySelectorAll("details").forEach(d => d.open = true)')
        assert page.evaluate(CLIPPED) == []  # on paper every line is there
        assert page.locator("nav").is_hidden()
        assert len(page.pdf(format="A4")) > 10_000
    finally:
        page.close()


def test_a_phone_reads_the_page_and_the_gap_without_sideways_scrolling(browser: Any, long_page: Path) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(long_page.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        gap = page.locator("#left-out")
        assert gap.is_visible() and "70 of 130 entries" in (gap.text_content() or "").replace("\u00a0", " ")
        assert page.locator("details.tool").count() == 60
    finally:
        page.close()
