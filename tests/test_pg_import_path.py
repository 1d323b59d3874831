"""The import's bulk path on each backend: what the fast paths skip must not change a row.

On PostgreSQL a batch of events is sent as one COPY, and the per-value escaping of U+0000
and U+FFFF is skipped when the whole batch holds neither (inspector/store/pg/adapter.py);
a trust label is only tracked when it can conflict (services/record_writer.py). These
tests import batches big enough to take those paths and check what a user reads back.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspector.services import exporting
from inspector.services.importing import import_file
from inspector.services.search import search
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.store.pg.adapter import COPY_MIN_ROWS
from tests.conftest import event_record, session_record, write_sif

TRICKY = "nul \x00 here \uffff1 and \x000 \uffff"


async def test_a_copy_sized_batch_holding_nul_round_trips_exactly(backend_empty_store: Path | str,
                                                                  tmp_path: Path) -> None:
    n = COPY_MIN_ROWS + 50
    events = [event_record(seq) for seq in range(1, n + 1)]
    events[123] = event_record(124, content=TRICKY)
    source = write_sif(tmp_path / "nul.jsonl", [session_record(), *events])
    report = await import_file(source, backend_empty_store, actor="t")
    assert report.added["event"] == n
    async with await open_store(backend_empty_store) as store:
        assert (await verify_store(store)).ok
        await exporting.export_sif(store, tmp_path / "out.jsonl")
        hits = (await search(store, "s1", "nul")).hits
    assert [h.ref for h in hits] == ["evt:124"]
    exported = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    contents = {r["seq"]: r.get("content") for r in exported if r["type"] == "event"}
    assert contents[124] == TRICKY and contents[1] == "message 1" and len(contents) == n


async def test_a_label_claiming_more_than_its_source_is_reported_in_a_big_batch(backend_empty_store: Path | str,
                                                                                tmp_path: Path) -> None:
    n = COPY_MIN_ROWS + 50
    events = [event_record(seq, kind="tool_result", call_id=f"c{seq}", trust="tool") for seq in range(1, n + 1)]
    events[10] = event_record(11, kind="tool_result", call_id="c11", trust="user")
    events[20] = event_record(21, kind="assistant_message", trust=None)
    source = write_sif(tmp_path / "labels.jsonl", [session_record(), *events])
    report = await import_file(source, backend_empty_store, actor="t")
    conflicts = [p for p in report.problems if p.code == "trust_label_conflict"]
    assert [p.seq for p in conflicts] == [11]


def test_a_batch_is_escaped_only_when_some_text_in_it_needs_it() -> None:
    from inspector.store.pg.adapter import _many

    plain = [("s1", 1, "a b", None, b"\x00 bytes are not text", 2.5)]
    assert _many(plain) is plain  # sent as it is
    mixed = [("s1", 1, "plain", None), ("s1", 2, "nul \x00", "mark \uffff")]
    assert _many(iter(mixed)) == [("s1", 1, "plain", None), ("s1", 2, "nul \uffff0", "mark \uffff1")]
