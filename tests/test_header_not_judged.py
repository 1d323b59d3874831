"""The header says how many things were not judged when the verdict is "?", not only the drift count.

A session whose summary drift cannot judge in full (names the log cannot confirm, facts lost
among pending proposals, an act a file claimed) is "?" in ``check``, but the header showed the
drift count alone — none — so it read like a clean session. It now says "? N not judged",
counting what ``check``'s "?" line lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.services.importing import import_file
from inspector.services.overview import overview
from inspector.store.connection import open_store
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle
from tests.test_later_requests import _transcript

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"


async def _header(store: Path) -> str:
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(HeaderBar)
        return "\n".join(strip.text for strip in header.render_lines(header.region.reset_offset))


async def test_a_session_judged_unknown_says_how_much_was_not_judged(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(_transcript(tmp_path / "s.jsonl", "The user asked to fix the flaky export test in "
                                  "export_test.go; it is fixed."), store, actor="t")
    async with await open_store(store) as opened:
        _, badges = await overview(opened, "s-later")
    assert (badges.drift, badges.not_judged) == (0, 1) and badges.as_dict()["not_judged"] == 1
    text = await _header(store)
    assert "? 1 warning: not judged in full" in text and "⚠ drift" not in text


async def test_a_clear_session_says_nothing_of_it(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(_transcript(tmp_path / "s.jsonl", "The user asked to fix the flaky export test in "
                                  "export_test.go; it is fixed. Then: can you also add a single retry?"), store, actor="t")
    assert "not judged" not in await _header(store)


async def test_the_real_manual_compaction_header_is_not_blank(tmp_path: Path) -> None:
    source = REAL / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = tmp_path / "s.db"
    report = await import_file(source, store, actor="t")
    async with await open_store(store) as opened:
        _, badges = await overview(opened, report.sessions[0])
    assert badges.drift == 0 and badges.not_judged >= 1  # check says "?": identifier_unverified
    assert f"? {badges.not_judged} warning" in await _header(store)
    assert json.dumps(badges.as_dict())
