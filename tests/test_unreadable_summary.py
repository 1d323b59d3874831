"""A compaction whose text cannot be read is "not judged" (?), never a green.

The real ``test_openai_responses_compact_messages`` transcript holds an OpenAI Responses
``compaction`` item: only ``encrypted_content``. Its generation's text is the importer's
placeholder, so every drift rule was silent: ``drift`` said "no drift found", the app's Drift
tab the same, and ``check`` gave the session a ✓ — a green over a summary nobody can read.
The same holds for a Codex ``compacted`` line without text and an Anthropic ``compaction``
block without readable content.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.drift import Finding
from inspector.domain.unreadable import CODE, headline
from inspector.services import exporting
from inspector.services.checking import check_store
from inspector.services.drift import drift_overview
from inspector.services.importing import import_file
from inspector.services.sessions import list_sessions
from inspector.store.connection import open_store

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real_sessions"
RESPONSES = {"kind": "responses", "model": "gpt-4o-mini", "instructions": "Give short answers.", "items": [
    {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAAA-opaque"},
    {"role": "user", "content": "And 5+5?"},
    {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed",
     "content": [{"type": "output_text", "text": "10", "annotations": []}]}]}
ANTHROPIC_EMPTY = {"kind": "anthropic", "model": "claude-sonnet-4-0", "system": None, "messages": [
    {"role": "user", "content": [{"type": "text", "text": "Never touch the prod database."}]},
    {"role": "assistant", "content": [{"type": "compaction", "content": None},
                                      {"type": "text", "text": "Going on."}]},
    {"role": "user", "content": [{"type": "text", "text": "And now?"}]}]}
ANTHROPIC_READABLE = {**ANTHROPIC_EMPTY, "messages": [
    ANTHROPIC_EMPTY["messages"][0],
    {"role": "assistant", "content": [{"type": "compaction", "content": "The user forbade touching the prod database."},
                                      {"type": "text", "text": "Going on."}]},
    ANTHROPIC_EMPTY["messages"][2]]}
CODEX_NO_TEXT = [
    {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "cx-1", "cwd": "/repo"}},
    {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
     "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}},
    {"timestamp": "2026-01-01T00:00:02Z", "type": "compacted", "payload": {"message": "", "replacement_history": []}},
]


def _verdict(store: Path) -> tuple[str, set[str]]:
    async def run() -> tuple[str, set[str]]:
        async with await open_store(store) as opened:
            (result,) = await check_store(opened)
            return result.verdict, {w["code"] for w in result.warnings}

    return asyncio.run(run())


def _import(tmp_path: Path, name: str, body: str) -> Path:
    source = tmp_path / name
    source.write_text(body, encoding="utf-8")
    store = tmp_path / f"{source.stem}.db"
    asyncio.run(import_file(source, store, actor="tester"))
    return store


def test_the_real_encrypted_compaction_is_not_a_green(tmp_path: Path) -> None:
    real = REAL / "openai-responses" / "test_openai_responses_compact_messages.conversation.json"
    if not real.exists():
        pytest.skip(f"needs ../shared/real_sessions ({real} is missing)")
    store = _import(tmp_path, real.name, real.read_text(encoding="utf-8"))
    verdict, codes = _verdict(store)
    assert verdict == "unknown" and CODE in codes
    result = CliRunner().invoke(cli, ["check", str(store)])
    assert result.exit_code == 0 and result.output.startswith("? ") and "0 ✓ clear" in result.output


@pytest.mark.parametrize(("name", "body"), [
    ("r.conversation.json", json.dumps(RESPONSES)),
    ("a.conversation.json", json.dumps(ANTHROPIC_EMPTY)),
    ("rollout-2026-01-01-cx-1.jsonl", "\n".join(json.dumps(r) for r in CODEX_NO_TEXT) + "\n"),
], ids=["responses-encrypted", "anthropic-empty-block", "codex-no-text"])
def test_an_unreadable_compaction_is_not_judged(tmp_path: Path, name: str, body: str) -> None:
    store = _import(tmp_path, name, body)
    verdict, codes = _verdict(store)
    assert verdict == "unknown" and CODE in codes
    session = json.loads(CliRunner().invoke(cli, ["sessions", str(store), "--json"]).output)[0]["id"]
    result = CliRunner().invoke(cli, ["drift", str(store), "--session", session])
    assert result.exit_code == 0, result.output  # a warning, not a finding
    first = result.output.splitlines()[0]
    assert "no drift" not in first and "not judged: the summary text cannot be read" in first


def test_a_readable_compaction_block_is_judged_as_before(tmp_path: Path) -> None:
    store = _import(tmp_path, "a.conversation.json", json.dumps(ANTHROPIC_READABLE))
    _verdict_, codes = _verdict(store)
    assert CODE not in codes


def test_the_mark_survives_export_and_reimport(tmp_path: Path) -> None:
    store = _import(tmp_path, "r.conversation.json", json.dumps(RESPONSES))
    out = tmp_path / "back.sif"

    async def export() -> None:
        async with await open_store(store) as opened:
            await exporting.export_sif(opened, out)

    asyncio.run(export())
    again = tmp_path / "again.db"
    asyncio.run(import_file(out, again, actor="tester"))
    # verdict-real-three: the instructions' "Give short answers" is a pending rule of the system prompt,
    # which survival names as not judged (``facts_unknown``) beside the unreadable summary.
    assert _verdict(again) == ("unknown", {CODE, "facts_unknown"})


def test_the_drift_tab_data_carries_the_warning(tmp_path: Path) -> None:
    store = _import(tmp_path, "r.conversation.json", json.dumps(RESPONSES))

    async def run() -> dict[int, list[Finding]]:
        async with await open_store(store) as opened:
            (info,) = await list_sessions(opened)
            return (await drift_overview(opened, info.id))[0]

    (only,) = asyncio.run(run()).values()
    assert [f.code for f in only if f.severity == "finding"] == [] and any(f.code == CODE for f in only)


def test_headline_never_says_no_drift_of_an_unreadable_generation() -> None:
    unreadable = Finding(CODE, None, "generation 1 cannot be read", "warning")
    assert headline([unreadable]) == "not judged: the summary text cannot be read (summary_unreadable)"
    pending = Finding("facts_not_judged", None, "generation 1: 2 pending proposals are not judged", "warning")
    assert headline([unreadable, pending]) == ("not judged: the summary text cannot be read (summary_unreadable); "
                                               "2 pending not judged (see survival)")
    assert headline([pending]) == "no drift in the active records; 2 pending not judged (see survival)"
    blocking = Finding("protected_missing", "constraint.x", "dropped")
    assert headline([unreadable, blocking]) == "1 finding"
