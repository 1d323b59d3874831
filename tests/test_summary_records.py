"""Claude Code's old ``summary`` records: a summary of this session only when its leaf is here.

Old Claude Code versions write ``{"type":"summary","summary":…,"leafUuid":…}`` lines, the
one-line title of the conversation that ends at ``leafUuid``. A transcript that continues
an earlier conversation starts with the summaries of *other* conversations, whose leaves
are lines of other files (the real ``ee8f793bfeb9`` file: two titles about a repo skill,
then a session about signing a release). Taken as this session's task summary, such a line
sat in the Task summary channel, was the generation drift judged ("no drift found", over
nothing), and what `check` gave a ✓ for. A summary whose leaf is not in the file is kept as
the event it was read from, and is not a generation of this session.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.domain.formats import claude_code
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


def test_a_summary_whose_leaf_is_in_the_file_covers_up_to_its_leaf() -> None:
    records = _convert({"type": "summary", "summary": "Signing the release", "leafUuid": "u2"},
                       _line("user", "u1", "make the release sign binaries"),
                       _line("user", "u2", "and notarize them"))
    (summary,) = [r for r in records if r["type"] == "summary"]
    assert summary["text"] == "Signing the release" and summary["covers"] == [1, 3]


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
