"""Claude Code's old ``summary`` records are titles, never summary generations.

Old Claude Code versions write ``{"type":"summary","summary":…,"leafUuid":…}`` lines, the
one-line title of the conversation that ends at ``leafUuid``, for the resume list (FORMATS.md
§1, "titles / summaries"); the model never sees them. A transcript that continues an earlier
conversation starts with the titles of *other* conversations (the real ``ee8f793bfeb9``
file): taken as this session's task summary, such a line sat in the Task summary channel and
`check` gave a ✓ for a generation judged over nothing. A title of *this* conversation (the
real ``995ebed6e4`` file, lines 128 and 129: "Add agent name to logging context") was made a
"milestone" generation: survival then judged a six-word title as if it had replaced the
history — "gen 2 keeps 0 of 10 facts: 7 missing", the app's "Survival ✗7", `check`'s "?
facts_lost" — for a session that was never compacted. Every such record is kept as the event
it was read from, and none is a generation.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.domain.formats import claude_code
from inspector.services.checking import check_store
from inspector.services.importing import import_file
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions" / "claude-code"


def _line(kind: str, uuid: str, content: str) -> dict[str, object]:
    return {"type": kind, "sessionId": "s-1", "uuid": uuid, "timestamp": "2026-01-07T11:47:31.774Z",
            "message": {"role": kind, "content": content}}


def _convert(*records: dict[str, object]) -> list[dict[str, object]]:
    return claude_code.convert(b"".join(json.dumps(r).encode() + b"\n" for r in records), "s.jsonl")


def test_a_summary_of_another_conversation_is_an_event_not_a_generation() -> None:
    records = _convert({"type": "summary", "summary": "Test repo skill", "leafUuid": "elsewhere"},
                       _line("user", "u1", "make the release sign binaries"))
    assert [r for r in records if r["type"] == "summary"] == []
    events = [r for r in records if r["type"] == "event"]
    assert any("Test repo skill" in str(e.get("content")) for e in events)  # nothing read is dropped


def test_a_title_of_this_conversation_is_an_event_not_a_generation() -> None:
    records = _convert({"type": "summary", "summary": "Signing the release", "leafUuid": "u2"},
                       _line("user", "u1", "make the release sign binaries"),
                       _line("user", "u2", "and notarize them"))
    assert [r for r in records if r["type"] == "summary"] == []
    assert any(e.get("content") == "summary record: Signing the release" for e in records if e["type"] == "event")


def test_the_real_titled_session_loses_no_fact_at_a_compaction_it_never_had(tmp_path: Path) -> None:
    source = REAL / "995ebed6e4-2__two_records_on_one_line_v2.1.7.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = tmp_path / "s.db"
    asyncio.run(import_file(source, store, actor="tester"))

    async def run() -> tuple[list[object], list[str], str]:
        async with await open_store(store) as opened:
            rows = list(await opened.db.execute_fetchall("SELECT generation FROM summaries"))
            (result,) = await check_store(opened)
            return rows, [w["code"] for w in result.warnings], result.verdict

    generations, warnings, verdict = asyncio.run(run())
    assert generations == [] and "facts_lost" not in warnings and verdict == "clear"


def test_the_real_continued_transcript_has_no_foreign_summary(tmp_path: Path) -> None:
    source = REAL / "ee8f793bfeb9-0__summary_records.jsonl"
    if not source.exists():
        pytest.skip(f"needs ../shared/real_sessions ({source} is missing)")
    store = tmp_path / "s.db"
    asyncio.run(import_file(source, store, actor="tester"))

    async def generations() -> list[tuple[object, ...]]:
        async with await open_store(store) as opened:
            return list(await opened.db.execute_fetchall("SELECT generation, text FROM summaries"))

    assert asyncio.run(generations()) == []
