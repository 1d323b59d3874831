"""Transcripts as people's disks hold them: nothing of what a person can read is lost on import.

The real transcripts in ../shared/real_sessions are a few versions of each tool; the
variants (bench/import_variants.py) are those files with what newer and older versions
write — server tools and documents in Claude Code, sub-agent progress, record types added
since, a Gemini CLI checkpoint, Codex lines and Responses items added since, OpenRouter
reasoning and refusals. For each, every string a person reads in the source must be found
in the store (an event's content, what search and ``expand`` reach, or another field the
event view shows), or the import must say it did not read it — "not understood: N … of
kind X" at the least. Before this (import-recheck), a Gemini checkpoint lost every word,
a web search's query and results, a document's text and a sub-agent's messages were
dropped without a word.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bench.import_coverage import measure
from bench.import_variants import REAL, VARIANTS, build
from inspector.services.exporting import export_sif
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.survival import survival_all
from inspector.store.connection import open_store

pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason=f"the real transcripts are not at {REAL}")

QUICK = [name for name in VARIANTS if name != "cc_long_line.jsonl"]  # the 11 MB one runs in the bench


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("variants")
    return {p.name: p for p in build(out) if p.name in QUICK}


@pytest.mark.parametrize("name", QUICK)
def test_every_readable_string_of_a_variant_reaches_the_store_or_is_reported(
        variants: dict[str, Path], name: str, tmp_path: Path) -> None:
    row = asyncio.run(measure(variants[name], tmp_path))
    assert "refused" not in row, row.get("refused")
    assert row.get("lost", 0) == 0, row["lost_examples"]
    assert row.get("opaque_lost", 0) == 0, row["lost_examples"]  # signatures, encrypted content: byte for byte
    assert row["verify_ok"]


def _search_hits(db: Path, session: str, query: str) -> list[str]:
    async def go() -> list[str]:
        async with await open_store(db) as store:
            return [h.ref for h in (await search(store, session, query)).hits]
    return asyncio.run(go())


def _import(path: Path, db: Path) -> dict:
    return asyncio.run(import_file(path, db, actor="rc")).as_dict()


def test_claude_code_server_tools_documents_and_citations_are_events_and_searchable(
        variants: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["cc_new_blocks.jsonl"], db)
    session = report["sessions"][0]
    codes = {p["code"] for p in report["problems"]}
    assert "unresolved_call" not in codes and "orphan_result" not in codes  # the web search pairs on its id
    # (the query itself is the call's arguments, shown in the event view; search reads contents)
    for query in ("Go 1.24 Release Notes - The Go Programming Language", "https://go.dev/doc/go1.24",
                  "Checkpoints must never reuse an id across sessions", "checkpoint-spec.md"):
        assert _search_hits(db, session, query), query

    async def events() -> list[dict]:
        out = tmp_path / "sif.jsonl"
        async with await open_store(db) as store:
            await export_sif(store, out)
        return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    recs = asyncio.run(events())
    call = next(r for r in recs if r.get("call_id") == "srvtoolu_01WebSearchAbc" and r.get("kind") == "tool_call")
    assert call["tool"] == "web_search" and call["args"] == {"query": "Go 1.24 release notes range over func iterators"}
    result = next(r for r in recs if r.get("call_id") == "srvtoolu_01WebSearchAbc" and r.get("kind") == "tool_result")
    assert {"kind": "encrypted_content", "data": "EqgfCioIARgBIiQ3YTAwMjY1Mi1opaque"} in result["continuation"]
    cited = next(r for r in recs if r.get("citations"))
    assert cited["citations"][0]["cited_text"] == "Go 1.24 now fully supports generic type aliases"


def test_unknown_record_kinds_are_said_once_per_kind_with_their_text_kept(variants: dict[str, Path],
                                                                          tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["cc_unknown_records.jsonl"], db)
    said = [p["message"] for p in report["problems"] if p["code"] == "not_understood"]
    assert any("1 record of kind 'worktree-state'" in m for m in said), said
    assert any("'system/api_error'" in m for m in said), said
    assert not any("attachment" in m or "last-prompt" in m for m in said)  # kinds with a rule are not flagged
    session = report["sessions"][0]
    for query in ("Worktree created for branch fix/checkpoint-id-reuse", "unused variable 'idReuse'",
                  "API Error: 529 Overloaded"):
        assert _search_hits(db, session, query), query


def test_the_real_claude_code_files_have_no_kind_without_a_rule_and_their_hooks_are_searchable(tmp_path: Path) -> None:
    path = REAL / "claude-code" / "4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"
    db = tmp_path / "s.db"
    report = _import(path, db)
    assert not [p for p in report["problems"] if p["code"] == "not_understood"]
    assert _search_hits(db, report["sessions"][0], "hooks claude-code session-start")  # a hook_progress command


def test_a_sub_agents_messages_in_progress_records_are_searchable(variants: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["cc_sidechain_agents.jsonl"], db)
    session = report["sessions"][0]
    assert _search_hits(db, session, "never backs off after a 429")
    assert _search_hits(db, session, "Audit the retry logic in push.go")


def test_two_compactions_give_two_summaries_each_with_a_survival_report(variants: dict[str, Path],
                                                                        tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["cc_two_compactions.jsonl"], db)

    async def reports() -> list:
        async with await open_store(db) as store:
            return await survival_all(store, report["sessions"][0])
    got = asyncio.run(reports())
    assert len(got) == 2 and all(r.verdicts for r in got)


def test_a_gemini_checkpoint_is_read_as_gemini_with_calls_paired_and_facts_proposed(variants: dict[str, Path],
                                                                                    tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["checkpoint-before-blue.json"], db)
    assert report["format"] == "gemini"
    assert not {p["code"] for p in report["problems"]} & {"unresolved_call", "orphan_result"}
    session = report["sessions"][0]
    assert _search_hits(db, session, "never touch docs/color.md")

    async def state() -> list[tuple[str, str]]:
        async with await open_store(db) as store:
            rows = await store.db.execute_fetchall("SELECT kind, value FROM state_records WHERE session = ?", (session,))
            return [(r[0], r[1]) for r in rows]
    kinds = {k for k, _ in asyncio.run(state())}
    assert {"artifact", "constraint"} <= kinds  # written file; the person's "never"


def test_responses_items_and_chat_fields_added_since_keep_their_text(variants: dict[str, Path], tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    report = _import(variants["openai_responses_items.conversation.json"], db)
    session = report["sessions"][0]
    for query in ("list of national capitals starting with D", "I can't include that name", "Dhaka, Dodoma"):
        assert _search_hits(db, session, query), query
    said = [p["message"] for p in report["problems"] if p["code"] == "not_understood"]
    assert said == []  # every item type in it is one the API documents
    db2 = tmp_path / "c.db"
    report = _import(variants["openai_chat_parts.conversation.json"], db2)
    assert _search_hits(db2, report["sessions"][0], "I can't identify people in images.")


def test_codex_lines_added_since_are_said_and_structured_failures_are_errors(variants: dict[str, Path],
                                                                            tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    report = _import(variants["rollout-2026-03-02T10-00-00-0199a1b2.jsonl"], db)
    said = [p["message"] for p in report["problems"] if p["code"] == "not_understood"]
    assert any("'ghost_snapshot'" in m for m in said) and any("'mcp_tool_call'" in m for m in said), said
    session = report["sessions"][0]
    assert _search_hits(db, session, "You are Codex.")  # session_meta's base instructions

    async def failures() -> list[str]:
        async with await open_store(db) as store:
            rows = await store.db.execute_fetchall(
                "SELECT value FROM state_records WHERE session = ? AND kind = 'failure'", (session,))
            return [r[0] for r in rows]
    assert any("MemoryError" in v or "pytest" in v for v in asyncio.run(failures()))


def test_a_file_name_in_a_request_does_not_cut_the_proposed_constraint(variants: dict[str, Path], tmp_path: Path) -> None:
    """The sentence splitter ended a sentence at every "." — "never touch docs/color.md" was
    proposed as "…never touch docs/color" (and a fragment "md describing…")."""
    db = tmp_path / "s.db"
    report = _import(variants["checkpoint-before-blue.json"], db)

    async def values() -> list[str]:
        async with await open_store(db) as store:
            rows = await store.db.execute_fetchall("SELECT value FROM state_records WHERE session = ? AND kind = "
                                                   "'constraint'", (report["sessions"][0],))
            return [r[0] for r in rows]
    assert asyncio.run(values()) == ["create docs/blue.md describing the colour blue; never touch docs/color.md"]


@pytest.mark.parametrize("odd", [{"type": "progress", "data": {"type": {}}}, {"type": "progress", "data": {"type": 7}},
                                 {"type": "system", "subtype": {"x": 1}, "content": "odd"},
                                 {"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": "plain"}}])
def test_odd_kinds_and_short_forms_in_a_claude_code_line_import_and_keep_their_text(odd: dict, tmp_path: Path) -> None:
    """A kind of another type once raised (unhashable dict, str + int: conversion_failed, nothing imported);
    an assistant message's content as a plain string was read as characters and dropped."""
    src = tmp_path / "odd.jsonl"
    line = {"sessionId": "s-odd", "uuid": "u1", "timestamp": "2026-01-01T00:00:00Z", **odd}
    src.write_text(json.dumps(line) + "\n", encoding="utf-8")
    report = _import(src, tmp_path / "s.db")
    assert report["events"] >= 1
    if odd["type"] == "assistant":
        assert _search_hits(tmp_path / "s.db", "s-odd", "plain")
