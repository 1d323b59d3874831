"""Search answers from its indexes: any query length, hits with counts and offsets, the
CLI giving the app's results, stores of format 1 migrated, a cancelled search stopped."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.schema import FORMAT_VERSION
from tests.backend_master import BackendMaster, master_fixture
from tests.conftest import DROP_CALLS, session_record, write_sif


def event(seq: int, content: str, session: str = "s1") -> dict[str, object]:
    return {"type": "event", "session": session, "seq": seq, "kind": "user_message", "trust": "user",
            "content": content, "at": "2025-05-01T08:00:00Z"}


async def _build(target: Path | str, folder: Path) -> None:
    """The same events on each backend: search must answer the same on both."""
    records = [session_record("s1"), session_record("s2")]
    records += [event(seq, f"line {seq} 订单导出 ok") for seq in range(1, 301)]
    records += [event(301, "Ab ab AB — 超时 twice 超时"), event(302, "tab\tthen a b")]
    records += [event(1, "ab only in the other session 超时", "s2")]
    await import_file(write_sif(folder / "a.jsonl", records), target, actor="t")


master = master_fixture(_build)  # imported once per backend; each test gets a copy


@pytest.fixture
def store(master: BackendMaster, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    yield from master.store(backend, request, tmp_path)


@pytest.mark.parametrize(("query", "method"), [("ab", "grams"), ("超时", "grams"), ("a", "grams"),
                                               ("b a", "fts"), ("twice", "fts")])
async def test_any_length_is_answered_by_an_index_with_counts_and_offsets(store: Path, query: str,
                                                                         method: str) -> None:
    async with await open_store(store) as opened:
        result = await search(opened, "s1", query)
    assert result.method == method and result.complete
    text = "Ab ab AB — 超时 twice 超时"
    hit = next(h for h in result.hits if h.ref == "evt:301")
    folded = text.lower()
    expected = [i for i in range(len(text)) if folded.startswith(query.lower(), i)]
    assert hit.occurrences == len(expected) and list(hit.offsets) == expected
    # one snippet per listed offset, each holding that occurrence (what ] / [ show in the app)
    assert len(hit.snippets) == len(hit.offsets)
    assert all(query.lower() in s.lower() for s in hit.snippets)
    assert all(h.ref != "evt:1" or "ab" not in query for h in result.hits)  # s2's event never leaks in


async def test_hits_come_in_order_up_to_the_limit_and_say_there_are_more(store: Path) -> None:
    async with await open_store(store) as opened:
        first = await search(opened, "s1", "订单", limit=10)
        long = await search(opened, "s1", "订单导出", limit=10)
        all_of_them = await search(opened, "s1", "订单", limit=1000)
    assert [h.ref for h in first.hits] == [f"evt:{n}" for n in range(1, 11)] and first.more
    assert [h.ref for h in long.hits] == [h.ref for h in first.hits] and long.more
    assert len(all_of_them.hits) == 300 and not all_of_them.more


async def test_short_queries_with_whitespace_are_checked_against_the_text(store: Path) -> None:
    async with await open_store(store) as opened:
        spaced = await search(opened, "s1", "a ")
        tab = await search(opened, "s1", "\tt")
        blank = await search(opened, "s1", "  ")
    assert {h.ref for h in spaced.hits} == {"evt:302"}  # "a b": the only "a " (not "ab", not "AB —")
    assert [h.ref for h in tab.hits] == ["evt:302"] and tab.hits[0].offsets == (3,)
    # Spaces alone are no query (as the empty one): nothing is searched (tests/test_search_blank_and_breaks.py).
    assert blank.hits == [] and blank.method == "none"


async def app_search(store: Path, query: str) -> dict[str, object]:
    async with await open_store(store) as opened:
        return (await search(opened, "s1", query)).as_dict()


def test_the_cli_gives_the_apps_results(store: Path) -> None:
    app = asyncio.run(app_search(store, "超时"))
    out = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "超时", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output) == json.loads(json.dumps(app))
    human = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", "超时"])
    assert human.exit_code == 0 and "evt:301  2× at 11, 20" in human.output
    empty = CliRunner().invoke(cli, ["search", str(store), "--session", "s1", ""])
    assert empty.exit_code == 2 and "QUERY is empty" in empty.output
    missing = CliRunner().invoke(cli, ["search", str(store), "--session", "nope", "x"])
    assert missing.exit_code == 3 and "no session 'nope'" in missing.output and "Traceback" not in missing.output


async def test_a_format_1_store_gets_its_short_query_index_on_open(store: Path) -> None:
    if is_url(store):
        pytest.skip("format 1 is an SQLite file format; PostgreSQL stores start at format 2")
    con = sqlite3.connect(store)
    con.executescript(f"{DROP_CALLS}DROP TABLE search_watermark; DROP TABLE events_grams; DROP INDEX events_trust_label; "
                      "DROP INDEX events_call; "
                      "CREATE INDEX events_call ON events(session, call_id) WHERE call_id IS NOT NULL;")
    con.execute("PRAGMA user_version = 1")
    con.commit()
    con.close()
    async with await open_store(store) as opened:
        result = await search(opened, "s1", "超时")
        (version,) = (await opened.db.execute_fetchall("PRAGMA user_version"))[0]
    assert version == FORMAT_VERSION and {h.ref for h in result.hits} == {"evt:301"}


async def test_a_cancelled_search_is_interrupted_and_the_store_stays_usable(store: Path) -> None:
    async with await open_store(store) as opened:
        started = asyncio.Event()
        real = opened.snapshot

        def snapshot():  # type: ignore[no-untyped-def]
            started.set()
            return real()

        opened.snapshot = snapshot  # type: ignore[method-assign]
        task = asyncio.create_task(search(opened, "s1", "ok"))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        opened.snapshot = real  # type: ignore[method-assign]
        again = await search(opened, "s1", "twice")
    assert [h.ref for h in again.hits] == ["evt:301"]
