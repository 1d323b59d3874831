"""A provider's own compaction, cited by the generation made from it, is not drift.

The Responses API's ``compaction`` item (encrypted) and the Anthropic Messages API's
``compaction`` block are imported as an event and a generation covering the history before
it, citing that event as where it came from. Claude Code's and Codex's compaction lines were
recognised as such carriers; these two were not, so every transcript holding one failed
`check` with "source_outside_range" — the importer's own bookkeeping reported as drift (the
real test_openai_responses_compact_messages file).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.services.drift import drift_overview
from inspector.services.importing import import_file
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions"

RESPONSES = {"kind": "responses", "model": "gpt-4o-mini", "instructions": "Give short answers.", "items": [
    {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAAA-opaque"},
    {"role": "user", "content": "And 5+5?"},
    {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
     "content": [{"type": "output_text", "text": "10", "annotations": []}]}]}
ANTHROPIC = {"kind": "anthropic", "model": "claude-sonnet-4-0", "system": None, "messages": [
    {"role": "user", "content": [{"type": "text", "text": "Summarise and go on."}]},
    {"role": "assistant", "content": [{"type": "compaction", "content": "The user asked for sums; 2+2 is 4."},
                                      {"type": "text", "text": "Going on."}]},
    {"role": "user", "content": [{"type": "text", "text": "And 5+5?"}]}]}


def _findings(tmp_path: Path, source: Path) -> list[tuple[int, set[str]]]:
    store = tmp_path / f"{source.stem}.db"

    async def run() -> list[tuple[int, set[str]]]:
        report = await import_file(source, store, actor="tester")
        async with await open_store(store) as opened:
            findings, _timeline, gens = await drift_overview(opened, report.sessions[0])
            assert gens, "the compaction became a generation"
            return [(g, {f.code for f in found}) for g, found in findings.items()]

    return asyncio.run(run())


@pytest.mark.parametrize("doc", [RESPONSES, ANTHROPIC], ids=["responses", "anthropic"])
def test_a_generation_citing_the_compaction_it_came_from_is_not_drift(tmp_path: Path, doc: dict[str, object]) -> None:
    source = tmp_path / "c.conversation.json"
    source.write_text(json.dumps(doc), encoding="utf-8")
    for _generation, codes in _findings(tmp_path, source):
        assert "source_outside_range" not in codes


def test_the_real_compacted_responses_transcript_has_no_drift_finding(tmp_path: Path) -> None:
    real = REAL / "openai-responses" / "test_openai_responses_compact_messages.conversation.json"
    if not real.exists():
        pytest.skip(f"needs ../shared/real_sessions ({real} is missing)")
    source = tmp_path / real.name
    source.write_bytes(real.read_bytes())
    # pending facts are not judged, and the encrypted text cannot be (test_unreadable_summary.py): warnings only
    assert all(codes <= {"facts_not_judged", "summary_unreadable"} for _generation, codes in _findings(tmp_path, source))
