"""Screenshots of the HTML report for the docs, taken in headless Chromium.

    python scripts/report_screenshots.py

Writes docs/report-demo.png (the demo's drifted session, s-export: header, the three
channels, drift findings and the kept-facts chart) and docs/report-claude-code.png (a
real Claude Code transcript from ../shared/real_sessions/: the timeline with one tool call
opened). Needs Debian's /usr/bin/chromium and Playwright's Python package
(pip install -e '.[browser]'); nothing is downloaded. The demo is in Chinese: without a CJK
font (Debian: fonts-noto-cjk) its text shows as boxes.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.services.demo import SAMPLES_DIR  # noqa: E402
from inspector.services.importing import import_file  # noqa: E402
from inspector.services.report import write_report  # noqa: E402
from inspector.store.connection import open_store  # noqa: E402

REAL = ROOT.parent / "shared" / "real_sessions" / "claude-code" / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


async def build(source: Path, folder: Path, session: str | None = None) -> Path:
    result = await import_file(source, folder / f"{source.stem}.db", actor="docs")
    async with await open_store(folder / f"{source.stem}.db") as store:
        return (await write_report(store, session or result.sessions[0], folder / f"{source.stem}.html")).path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        demo = asyncio.run(build(SAMPLES_DIR / "01_export_timeout.jsonl", Path(tmp), "s-export"))
        real = asyncio.run(build(REAL, Path(tmp)))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1700})
            page.goto(demo.as_uri())
            page.screenshot(path=str(ROOT / "docs" / "report-demo.png"))
            page.goto(real.as_uri())
            call = page.locator("details.tool").nth(2)
            call.locator("summary").click()
            call.evaluate("el => el.previousElementSibling.scrollIntoView()")
            page.set_viewport_size({"width": 1400, "height": 1100})
            page.screenshot(path=str(ROOT / "docs" / "report-claude-code.png"))
            browser.close()
    print("wrote docs/report-demo.png and docs/report-claude-code.png")


if __name__ == "__main__":
    main()
