"""The report under attack in a real browser: hostile text in every field that reaches the
page (ids, title, record keys and values, tool names, material ids, reviewer names,
summaries) and Markdown that would make inline styles. With the network blocked the page
makes no request, runs nothing, logs no console error (a CSP refusal is one) and carries
no live attribute, link or inline style."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest

from inspector.services.candidates import reject
from inspector.services.importing import import_file
from inspector.services.report import write_report
from inspector.store.connection import open_store
from tests.browser import browser  # noqa: F401 - the fixture
from tests.conftest import event_record, session_record, write_sif

EVIL = ('"\'><img src=x onerror=alert(1)></script><svg onload=alert(2)><base href="http://127.0.0.1:9/">'
        '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/"><style>*{background:url(http://127.0.0.1:9/c)'
        ';width:expression(alert(3))}</style>\u202eRLO\u200bZW javascript:alert(4)')
MARKDOWN = ("| n | name |\n|--:|:-:|\n| 1 | a |\n\n```x\" onmouseover=alert(5)\ncode\n```\n\n"
            "<http://127.0.0.1:9/auto> [l](javascript:alert(6)) ![i](http://127.0.0.1:9/i.png)")
SID = "s" + EVIL
REVIEWER = "r" + EVIL.replace("\u202e", "").replace("\u200b", "")  # names holding them are refused (tested elsewhere)
BODY = b"material bytes"


def _hostile(path: Path) -> Path:
    text = f"{EVIL}\n\n{MARKDOWN}"
    return write_sif(path, [
        session_record(SID, title=EVIL, owner="o" + EVIL),
        event_record(1, SID, content=text),
        event_record(2, SID, kind="assistant_message", trust="model", content=text, reasoning_content=text),
        event_record(3, SID, kind="tool_call", trust="model", content=None, call_id="c" + EVIL, tool="t" + EVIL,
                     args={"k" + EVIL: EVIL}),
        event_record(4, SID, kind="tool_result", trust="tool", content=text, call_id="c" + EVIL, tool="t" + EVIL),
        {"type": "material", "session": SID, "id": "res:" + EVIL, "source_event": 4, "source_version": "v" + EVIL,
         "retrieved_at": "2025-05-01T00:00:00Z", "disclosure_scope": "team" + EVIL, "media_type": "text/plain",
         "encoding": "utf-8", "content": BODY.decode(),
         "content_hash": "sha256:" + hashlib.sha256(BODY).hexdigest()},
        {"type": "state", "session": SID, "key": "constraint." + EVIL, "kind": "constraint", "value": text,
         "sources": ["evt:1"], "writer": "user", "at": "2025-05-01T00:00:00Z", "scope": "task", "version": 1,
         "status": "active"},
        {"type": "summary", "session": SID, "generation": 1, "kind": "recursive", "text": text, "covers": [1, 4],
         "base_version": 1, "unresolved": [EVIL], "sources": ["evt:1"]},
        {"type": "candidate", "session": SID, "id": "cand" + EVIL, "base_version": 1, "goal_revision": 1,
         "summary": text, "exact_fields": {"constraint." + EVIL: EVIL}, "open_actions": [], "unknowns": [EVIL],
         "status": "pending"},
    ])


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("attack")

    async def build() -> Path:
        store = folder / "attack.db"
        await import_file(_hostile(folder / "attack.jsonl"), store, actor=REVIEWER)
        async with await open_store(store) as opened:
            # a reason holding EVIL is refused since flow-ten (reason_invalid); a store written before
            # holds such reasons in its ledger for good, so the report must still show one inert
            with patch("inspector.services.candidates.reason_text", lambda reason: reason):
                await reject(opened, "cand" + EVIL, actor=REVIEWER, reason="why" + EVIL)
            return (await write_report(opened, SID, folder / "attack.html")).path

    with ThreadPoolExecutor(1) as pool:  # Playwright's sync API keeps a loop running on this thread
        return pool.submit(asyncio.run, build()).result()


@pytest.fixture
def offline(browser: Any) -> Iterator[tuple[Any, dict[str, list[str]]]]:  # noqa: F811 - the fixture above
    seen: dict[str, list[str]] = {"blocked": [], "console": [], "errors": [], "dialogs": []}
    context = browser.new_context(viewport={"width": 1200, "height": 900})

    def route(r: Any) -> None:
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            seen["blocked"].append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("console", lambda m: seen["console"].append(f"{m.type}: {m.text}") if m.type in ("error", "warning")
            else None)
    page.on("pageerror", lambda exc: seen["errors"].append(str(exc)))
    page.on("dialog", lambda d: (seen["dialogs"].append(d.message), d.dismiss()))
    yield page, seen
    context.close()


def test_hostile_fields_everywhere_are_inert_offline_and_log_nothing(offline: Any, hostile_report: Path) -> None:
    page, seen = offline
    html = hostile_report.read_text(encoding="utf-8")
    assert html.count("<meta ") == 5 and html.count("<style>") == 1  # ours only
    page.goto(hostile_report.as_uri())
    for summary in page.locator("details > summary").all():
        summary.click()
    page.locator("td[title]").first.hover()
    page.wait_for_timeout(300)
    found = page.evaluate("""() => ({
        live: document.querySelectorAll('script,img,link,iframe,object,embed,base,form,svg *[href],use,image').length,
        handlers: [...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on')))
            .length,
        inline: document.querySelectorAll('[style]').length,
        hrefs: [...document.querySelectorAll('[href]')].map(e => e.getAttribute('href')).filter(h => !h.startsWith('#')),
        url: location.href, body: document.body.innerText})""")
    assert found["live"] == 0 and found["handlers"] == 0 and found["hrefs"] == []
    assert found["inline"] == 0  # the CSP would refuse it: alignment is a class
    assert found["url"] == hostile_report.as_uri()  # no refresh, no base
    assert seen == {"blocked": [], "console": [], "errors": [], "dialogs": []}
    assert "⟨U+202E⟩RLO⟨U+200B⟩ZW" in found["body"] and "\u202e" not in found["body"]
    assert "onerror=alert(1)" in found["body"]  # shown, as text
    assert page.locator("td.align-right").first.evaluate("e => getComputedStyle(e).textAlign") == "right"
