"""The report in a real browser (headless Chromium): it opens from file://, shows the three
channels side by side (stacked on a phone), a tool call opens on a click, and script
injected into the session neither runs nor fetches anything."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from inspector.services.importing import import_file
from inspector.services.report import write_report
from inspector.store.connection import open_store
from tests.browser import browser  # noqa: F401 - the fixture
from tests.conftest import SAMPLES
from tests.hostile_html import SCRIPT, SID, write_hostile_session

REAL = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"
CHANNELS = ["#channel-state", "#channel-summary", "#channel-evidence"]


def _report(source: Path, folder: Path, session: str | None = None) -> Path:
    async def build() -> Path:
        store = folder / f"{source.stem}.db"
        result = await import_file(source, store, actor="tester")
        async with await open_store(store) as opened:
            written = await write_report(opened, session or result.sessions[0], folder / f"{source.stem}.html")
        return written.path

    # Its own thread: Playwright's sync API keeps an event loop running on this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, build()).result()


@pytest.fixture(scope="module")
def export_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _report(SAMPLES["01_export_timeout"], tmp_path_factory.mktemp("export"))


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    return _report(write_hostile_session(folder / "hostile.jsonl"), folder, SID)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # noqa: F811 - the fixture above
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.requests = []  # type: ignore[attr-defined]
    opened.on("request", lambda r: opened.requests.append(r.url))  # type: ignore[attr-defined]
    yield opened
    context.close()


def test_report_opens_from_a_file_with_the_three_channels_side_by_side(page: Any, export_page: Path) -> None:
    page.goto(export_page.as_uri())
    boxes = [page.locator(sel).bounding_box() for sel in CHANNELS]
    assert all(b is not None and b["width"] > 200 for b in boxes)
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # one row
    assert abs(boxes[0]["y"] - boxes[2]["y"]) < 2
    assert page.locator("#channel-state").inner_text().startswith("Protected state")
    assert "不得修改生产库" in page.locator("#channel-state").inner_text()
    assert "protected_rewritten" in page.locator("#drift").inner_text()
    assert page.locator("svg.chart .bar").count() == 3
    assert page.locator("svg.chart .bar.lost").count() == 2  # generations 2 and 3 lost facts
    assert "∅ missing" in page.locator("#survival").inner_text()
    assert "gen 3: 1 of 5 facts kept, 2 lost, 1 not restated, 1 not judged" in page.locator("header").inner_text()
    assert page.requests == [export_page.as_uri()]  # nothing else fetched


def test_on_a_phone_the_channels_stack(page: Any, export_page: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(export_page.as_uri())
    boxes = [page.locator(sel).bounding_box() for sel in CHANNELS]
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]
    assert all(abs(b["x"] - boxes[0]["x"]) < 2 for b in boxes)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"


def test_a_collapsed_tool_call_opens_with_its_result(page: Any, export_page: Path) -> None:
    page.goto(export_page.as_uri())
    call = page.locator("details.tool").first
    result = call.locator("pre.result")
    assert call.get_attribute("open") is None and not result.is_visible()
    call.locator("summary").click()
    assert result.is_visible()
    assert "res:run-184" in result.inner_text()


def test_script_in_the_session_does_not_run_and_nothing_is_fetched(page: Any, hostile_page: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(hostile_page.as_uri())
    page.locator("details.tool").first.locator("summary").click()
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.title() == f"title {SCRIPT} · Context Inspector review"  # the text, not set by the script
    assert page.evaluate("document.querySelectorAll('script, img, link, iframe, object').length") == 0
    assert page.evaluate("document.querySelectorAll('style').length") == 1
    assert page.locator("body").is_visible()  # the injected `body { display: none }` did not apply
    assert "<script>window.__pwned = 1;" in page.locator("#timeline").inner_text()  # shown as text
    assert "RESULT-MARKER" in page.locator("details.tool pre.result").first.inner_text()
    assert page.requests == [hostile_page.as_uri()] and dialogs == []


@pytest.mark.skipif(not REAL.is_dir(), reason=f"real transcripts not found at {REAL}")
def test_a_real_claude_code_transcript_opens(page: Any, tmp_path: Path) -> None:
    source = REAL / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    html = _report(source, tmp_path)
    page.goto(html.as_uri())
    assert all(page.locator(sel).is_visible() for sel in CHANNELS)
    calls = page.locator("details.tool")
    assert calls.count() >= 5
    calls.nth(3).locator("summary").click()
    assert calls.nth(3).locator(".args").is_visible()
    assert page.locator("#timeline article.turn.assistant").count() > 5
    assert page.requests == [html.as_uri()]
