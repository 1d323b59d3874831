"""The report tells the truth about what is gone, and keeps its strict CSP clean.

Found by attacking the shared report: a deletion made events vanish from the report's
conversation without a trace (the app shows a ``✕ deleted`` row), a call whose result was
deleted read "unresolved: no result in the log", the ledger's deletion act did not say
what it removed, and a Markdown table's column alignment came out as inline ``style``
attributes, which the page's own Content-Security-Policy refuses (a console error per cell).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector.report.markdown import render_markdown
from inspector.report.sections import three_channels
from inspector.services.deletions import delete
from inspector.services.importing import import_file
from inspector.services.report import report_data, write_report
from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store
from tests.conftest import SAMPLES


def test_a_markdown_tables_alignment_is_a_class_not_an_inline_style() -> None:
    html = render_markdown("| n | name | note |\n|--:|:-:|:--|\n| 1 | a | b |")
    assert "style=" not in html  # the CSP allows our stylesheet only: an inline style is refused
    assert '<th class="align-right">n</th>' in html
    assert '<td class="align-center">a</td>' in html
    assert '<td class="align-left">b</td>' in html


async def _deleted_privacy_store(tmp_path: Path) -> Path:
    store = tmp_path / "privacy.db"
    await import_file(SAMPLES["05_privacy_deletion"], store, actor="tester")
    async with await open_store(store) as opened:
        result = await delete(opened, "del-1", actor="reviewer")
    assert not result.refusals
    return store


async def test_deleted_events_stay_in_the_conversation_as_deleted(tmp_path: Path) -> None:
    store = await _deleted_privacy_store(tmp_path)
    async with await open_store(store) as opened:
        data = await report_data(opened, "s-privacy")
        html = (await write_report(opened, "s-privacy", tmp_path / "r.html")).path.read_text(encoding="utf-8")
    turns = {t["seq"]: t for t in data["conversation"]}
    assert turns[4]["kind"] == "assistant_message" and "deleted" in turns[4]["marks"]
    assert turns[4]["content"] is None and turns[4]["deleted_by"] == 2  # the deletion's ledger entry
    assert [t["seq"] for t in data["conversation"]] == [1, 2, 4, 5]  # #3 sits in its call #2; #4 at its place
    assert "#4</a> <b>assistant</b>" in html and "deleted by ledger entry L2: only its tombstone remains" in html
    act = next(a for a in data["acts"] if a["kind"] == "deletion")
    assert "removed 1 candidate, 1 event, 1 summary" in act["what"]  # the ledger row says what it removed


async def test_a_deleted_result_is_not_unresolved_nor_a_deleted_calls_result_an_orphan(tmp_path: Path) -> None:
    from tests.conftest import event_record, session_record, write_sif

    source = write_sif(tmp_path / "s.jsonl", [
        session_record("s1"),
        event_record(1, "s1", kind="tool_call", trust="model", content=None, call_id="c1", tool="lookup",
                     args={"phone": "13800138000"}),
        event_record(2, "s1", kind="tool_result", trust="tool", content="found", call_id="c1", tool="lookup"),
        event_record(3, "s1", kind="tool_call", trust="model", content=None, call_id="c2", tool="lookup", args={}),
        event_record(4, "s1", kind="tool_result", trust="tool", content="13900139000", call_id="c2", tool="lookup"),
        {"type": "deletion_request", "session": "s1", "id": "d1", "targets": ["evt:1", "evt:4"],
         "requested_by": "user",
         "reason": "remove the phone"},
    ])
    store = tmp_path / "s.db"
    await import_file(source, store, actor="tester")
    async with await open_store(store) as opened:
        assert not (await delete(opened, "d1", actor="reviewer")).refusals
        data = await report_data(opened, "s1")
        html = (await write_report(opened, "s1", tmp_path / "r.html")).path.read_text(encoding="utf-8")
    turns = {t["seq"]: t for t in data["conversation"]}
    assert "deleted" in turns[1]["marks"] and turns[1]["kind"] == "tool_call"
    assert "orphan" not in turns[2].get("marks", [])
    assert "orphan result" not in html
    assert "its call #1 was deleted by ledger entry L2" in html
    call = turns[3]
    assert "unresolved" not in call.get("marks", [])  # it was answered; the answer was deleted
    assert call["result"] == {"seq": 4, "content": None, "at": "2025-05-01T00:00:00Z", "deleted_by": 2}
    assert "unresolved: no result in the log" not in html
    assert "result #4 deleted by ledger entry L2" in html


REAL_CC = Path(__file__).resolve().parents[2] / "shared" / "real_sessions" / "claude-code"


async def test_a_generation_the_rules_could_not_judge_in_full_is_marked_not_judged(tmp_path: Path,
                                                                                    imported_copy: Any) -> None:
    """A real compaction naming files the continued log never shows: no drift finding, but the
    rule cannot tell whether the names were invented. The app's Drift tab and check say "?";
    the report's summary channel said nothing, which read as clean."""
    source = REAL_CC / "a6e4c2a0fbd1-0__auto_compaction_v2.0.76.jsonl"
    if not source.exists():
        pytest.skip("the real transcripts (../shared/real_sessions) are not beside the project")
    store = imported_copy(source)
    async with await open_store(store) as opened:
        (info,) = await list_sessions(opened)
        data = await report_data(opened, info.id)
    html = three_channels(data)
    assert "? 1 warning: not judged in full" in html and "⚠ drift" not in html
