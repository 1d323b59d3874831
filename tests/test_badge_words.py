"""Badges say what happened in words, not a code (flow-nine).

The app's header and the HTML report's header said "⚠ 2 lines_unread", "⚠ 1 orphan_result",
"⚠ 1 facts_lost": a reviewer new to the tool read a code, not what it means. The codes stay in
``--json`` and in ``check``'s lines; a badge says the count and the words (a short form at 80
columns), and no badge line of the header holds a code.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.badge_words import counted_badge, warning_badge
from inspector.services.importing import import_file
from inspector.ui.app import InspectorApp
from inspector.ui.widgets.header_bar import HeaderBar
from tests.test_app import settle
from tests.test_later_requests import _transcript as _lost_pending
from tests.test_open_file_unread_said import _transcript as _cut

CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")


async def _badge_lines(store: Path, size: tuple[int, int]) -> list[str]:
    app = InspectorApp(store, reviewer="t")
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        header = app.screen.query_one(HeaderBar)
        return [strip.text for strip in header.render_lines(header.region.reset_offset)][1:]


@pytest.mark.parametrize("size", [(80, 24), (120, 35)])
async def test_unread_transcript_lines_are_said_in_words_in_the_header(tmp_path: Path, size: tuple[int, int]) -> None:
    source = _cut(tmp_path / "cut.jsonl")
    source.write_text(source.read_text() + "also not json\n")
    store = tmp_path / "s.db"
    await import_file(source, store, actor="t")
    said = " ".join(await _badge_lines(store, size))
    assert "⚠ 2 transcript lines not read" in said or "⚠ 2 lines unread" in said, said
    assert not CODE.search(said), said


async def test_the_demo_headers_call_problem_is_words_at_80_and_120(sample_store: Path) -> None:
    for size in ((80, 24), (120, 35)):
        said = " ".join(await _badge_lines(sample_store, size))
        assert "⚠ 1 result with no call" in said or "⚠ 1 orphan result" in said, said
        assert "orphan_result" not in said, said


def test_the_report_header_says_check_warnings_in_words(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    asyncio.run(import_file(_lost_pending(tmp_path / "s.jsonl", "The user asked to fix the flaky export test in "
                                          "export_test.go; it is fixed."), store, actor="t"))
    page = tmp_path / "r.html"
    result = CliRunner().invoke(cli, ["report", str(store), "--session", "s-later", "-o", str(page)])
    assert result.exit_code == 0, result.output
    badges = re.findall(r'<span class="badge[^"]*">([^<]*)</span>', page.read_text())
    assert "⚠ 1 warning: pending facts the summary lost" in badges, badges
    assert not any(CODE.search(b) for b in badges), badges
    checked = CliRunner().invoke(cli, ["check", str(store)])
    assert "! facts_lost s-later" in checked.output  # check's line keeps the code, with its sentence


def test_every_count_reads_in_the_right_number_and_an_unknown_code_still_reads() -> None:
    assert counted_badge("unresolved_call", 1) == "1 call without a result"
    assert counted_badge("unresolved_call", 3, short=True) == "3 open calls"
    assert counted_badge("lines_unread", 1) == "1 transcript line not read"
    assert counted_badge("made_up_code", 2) == "2 made up code"
    assert warning_badge("identifier_unverified", 2) == "2 warnings: names the log cannot confirm"
