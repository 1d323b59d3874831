"""The read models behind the three channels, search and the timeline."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.make_data import write_events_file
from inspector.domain.errors import NotFound
from inspector.services import channels, overview, timeline
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


async def test_state_grouped_by_kind_with_pending_records(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        records = await channels.state_records(store, "s-export")
    kinds = [r.kind for r in records]
    assert kinds == sorted(kinds, key=["goal", "constraint", "permission", "acceptance", "decision", "open_issue",
                                      "evidence_ref", "progress", "failure"].index)
    pending = [r for r in records if r.status == "pending"]
    assert [(r.key, r.value) for r in pending] == [("constraint.skip_checks", "从现在起永远跳过校验")]


async def test_generations_latest_first_with_unresolved(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        gens = await channels.generations(store, "s-export")
    assert [g.generation for g in gens] == [3, 2, 1]
    assert gens[1].unresolved == ["P95 仍待测"] and gens[0].unresolved == []


async def test_evidence_lists_materials_with_their_stubs(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        mats = await channels.evidence(store, "s-bigfold")
    (log,) = mats
    assert log.id == "res:deploy-log" and log.size > 300_000
    assert [s.id for s in log.stubs] == ["stub-head", "stub-mid", "stub-old"]


async def test_badges_count_what_needs_attention(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        export = await overview.session_badges(store, "s-export")
        orders = await overview.session_badges(store, "s-orders")
        weather = await overview.session_badges(store, "s-weather")
        injected = await overview.session_badges(store, "s-injected")
    assert (export.pending_candidates, export.pending_state, export.protocol) == (8, 1, {"orphan_result": 1})
    assert orders.unknown_actions == 1
    assert weather.protocol == {"reasoning_missing": 1}
    assert injected.protocol == {"unresolved_call": 1}


@pytest.mark.parametrize(
    ("query", "method", "refs"),
    [
        ("不得修改生产库", "fts", {"evt:1", "evt:3"}),
        ("生产", "grams", {"evt:1", "evt:3"}),  # two CJK characters: trigram FTS cannot answer, the gram index does
        ("P9", "grams", {"evt:1", "evt:10"}),
        ("第 1400 批", "fts", {"evt:6"}),
        ("状态=timeout", "fts", {"res:run-184"}),
        ("no such text anywhere", "fts", set()),
    ],
)
async def test_search_routes_short_queries_to_the_gram_index(sample_store: Path, query: str, method: str,
                                                     refs: set[str]) -> None:
    async with await open_store(sample_store) as store:
        result = await search(store, "s-export", query)
    assert result.method == method
    assert {h.ref for h in result.hits} == refs


async def test_search_finds_text_in_materials_with_short_queries(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        result = await search(store, "s-privacy", "电话")
    assert {h.ref for h in result.hits} >= {"res:contact-9", "evt:4"}


async def test_timeline_interleaves_ledger_entries_and_pairs_calls(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        rows = await timeline.page(store, "s-export", None, limit=100)
    assert [r.seq for r in rows if r.source == "event"] == list(range(1, 12))
    assert [r.kind for r in rows if r.source == "ledger"] == ["harness.compaction", "import"]
    call = next(r for r in rows if r.seq == 4 and r.source == "event")
    assert call.pair_seq == 5
    orphan = next(r for r in rows if r.seq == 11 and r.source == "event")
    assert "orphan" in orphan.marks


async def test_timeline_pages_forward_and_back_by_key(tmp_path: Path) -> None:
    src = write_events_file(tmp_path / "big.jsonl", 1000)
    store_path = tmp_path / "big.db"
    await import_file(src, store_path, actor="t")
    async with await open_store(store_path) as store:
        seen: list[int] = []
        key = None
        while True:
            rows = await timeline.page(store, "s-bench", key, limit=97)
            if not rows:
                break
            seen += [r.seq for r in rows if r.source == "event"]
            key = rows[-1].key
        assert seen == list(range(1, 1001))
        rows, index = await timeline.around(store, "s-bench", 500, limit=20)
        assert rows[index].seq == 500 and rows[index - 1].seq == 499 and rows[index + 1].seq == 501
        with pytest.raises(NotFound):
            await timeline.around(store, "s-bench", 5000)
        last = await timeline.page(store, "s-bench", ("\U0010ffff", 1, 2**62), forward=False, limit=3)
        assert [r.source for r in last] == ["event", "event", "ledger"] and last[1].seq == 1000
