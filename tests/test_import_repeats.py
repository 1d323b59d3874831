"""Repeats in a file big enough for the bulk paths (SQLite's JSON batch, PostgreSQL's COPY):
an identical repeat is skipped in any batch, a differing one refuses the whole import and
leaves nothing. Both backends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.domain.errors import BadInput
from inspector.services import exporting
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from tests.conftest import event_record, session_record, write_sif

N = 5_000  # two parsed chunks (the first holds 4,000 lines), each a batch big enough for COPY


def events(n: int = N) -> list[dict[str, Any]]:
    return [event_record(seq, content=f"message {seq}") for seq in range(1, n + 1)]


@pytest.mark.parametrize("first_batch_repeats", [False, True])
async def test_identical_repeats_are_skipped_in_any_batch(backend_empty_store: Path | str, tmp_path: Path,
                                                          first_batch_repeats: bool) -> None:
    recs = events()
    # the first batch (3,999 events after the session line) clean or holding a repeat; the second
    # repeating one of the first batch's events and one of its own
    first = [*recs[:3000], recs[99], *recs[3000:3998]] if first_batch_repeats else recs[:3999]
    file_records = [session_record(), *first, *recs[len(first) - first_batch_repeats:], recs[299], recs[4500]]
    report = await import_file(write_sif(tmp_path / "a.jsonl", file_records), backend_empty_store, actor="t")
    assert report.added["event"] == N and report.skipped["event"] == 2 + first_batch_repeats
    async with await open_store(backend_empty_store) as store:
        assert (await verify_store(store)).ok
        await exporting.export_sif(store, tmp_path / "out.jsonl")
    seqs = [json.loads(line)["seq"] for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
            if '"type":"event"' in line.replace(" ", "")]
    assert seqs == list(range(1, N + 1))


@pytest.mark.parametrize("where", [100, 4_800])  # in the first batch; in the second
async def test_a_differing_repeat_refuses_the_import_and_leaves_nothing(backend_empty_store: Path | str,
                                                                        tmp_path: Path, where: int) -> None:
    recs = events()
    changed = {**recs[49], "content": "not what seq 50 said"}
    file_records = [session_record(), *recs[:where], changed, *recs[where:]]
    with pytest.raises(BadInput) as err:
        await import_file(write_sif(tmp_path / "a.jsonl", file_records), backend_empty_store, actor="t")
    assert err.value.code == "conflicting_record"
    # what a person sees next: the same file without the changed line imports whole
    report = await import_file(write_sif(tmp_path / "b.jsonl", [session_record(), *recs]), backend_empty_store,
                               actor="t")
    assert report.added["event"] == N and not report.skipped.get("event")
    async with await open_store(backend_empty_store) as store:
        assert (await verify_store(store)).ok
        rows = await store.db.execute_fetchall("SELECT COUNT(*) FROM events")
    assert rows[0][0] == N
