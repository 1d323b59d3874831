"""Import and export through the services: derived versions, idempotence, all-or-nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from inspector.domain.errors import BadInput
from inspector.services import exporting, sessions
from inspector.services.importing import import_file
from inspector.services.verifying import verify_store
from inspector.store.connection import open_store
from inspector.store.location import is_url
from inspector.store.tables import SPECS
from tests.backend_sql import store_sha
from tests.conftest import SAMPLES, event_record, file_sha, session_record, write_sif


@pytest.fixture
def sample_store(backend_sample_store: Path | str) -> Path | str:
    """Every test here runs on both backends."""
    return backend_sample_store


async def _digests(store_path: Path) -> dict[str, set[tuple]]:
    out: dict[str, set[tuple]] = {}
    async with await open_store(store_path) as store:
        for type_, spec in SPECS.items():
            async with store.db.execute(f"SELECT {spec.select_columns}, digest FROM {spec.table}") as cur:
                out[type_] = {tuple(row) for row in await cur.fetchall()}
    return out


async def test_sessions_show_derived_versions_and_event_counts(sample_store: Path) -> None:
    async with await open_store(sample_store) as store:
        listed = {s.id: s for s in await sessions.list_sessions(store)}
    assert len(listed) >= 6
    export = listed["s-export"]
    # highest base_version among its summaries and candidates is 4
    assert (export.context_version, export.goal_revision, export.events) == (4, 1, 11)
    assert listed["s-orders"].context_version == 3  # from its handoffs' context_version


async def test_export_then_reimport_gives_the_same_records_and_hashes(sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    async with await open_store(sample_store) as store:
        await exporting.export_sif(store, out)
    copy = tmp_path / "copy.db"
    await import_file(out, copy, actor="tester")
    assert await _digests(copy) == await _digests(sample_store)
    # and the exported file re-exports byte for byte
    again = tmp_path / "again.jsonl"
    async with await open_store(copy) as store:
        await exporting.export_sif(store, again)
    assert again.read_bytes() == out.read_bytes()


async def test_reimport_is_skipped_and_appends_nothing(sample_store: Path) -> None:
    before = store_sha(sample_store)
    report = await import_file(SAMPLES["01_export_timeout"], sample_store, actor="tester")
    assert sum(report.added.values()) == 0 and report.skipped["event"] == 11
    async with await open_store(sample_store) as store:
        assert (await verify_store(store)).ok
        entries = await sessions.session_ledger(store)
    assert len(entries) == 7  # six imports plus one harness act; the re-import added none
    assert store_sha(sample_store) == before


@pytest.mark.parametrize(
    ("records", "code"),
    [
        ([session_record("s-export", title="another title")], "conflicting_record"),
        ([event_record(1, "s-export")], "conflicting_record"),
        ([event_record(1, "s-nowhere")], "unknown_session"),
    ],
)
async def test_conflicts_refuse_the_whole_file_and_change_nothing(
    sample_store: Path, tmp_path: Path, records: list[dict], code: str
) -> None:
    # a valid session first, so a partial write would be visible
    bad = write_sif(tmp_path / "bad.jsonl", [session_record("s-fresh"), event_record(1, "s-fresh"), *records])
    before = store_sha(sample_store)
    with pytest.raises(BadInput) as err:
        await import_file(bad, sample_store, actor="tester")
    assert err.value.code == code and err.value.line == 4
    assert store_sha(sample_store) == before
    async with await open_store(sample_store) as store:
        assert "s-fresh" not in {s.id for s in await sessions.list_sessions(store)}


async def test_failed_import_into_a_new_store_leaves_no_file(tmp_path: Path) -> None:
    bad = write_sif(tmp_path / "bad.jsonl", [event_record(1, "s-missing")])
    target = tmp_path / "new.db"
    with pytest.raises(BadInput):
        await import_file(bad, target, actor="tester")
    assert not any(p.name.startswith("new.db") for p in tmp_path.iterdir())


async def test_a_second_file_can_extend_a_stored_session(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    await import_file(write_sif(tmp_path / "a.jsonl", [session_record(), event_record(1)]), store, actor="t")
    more = [event_record(2), {"type": "candidate", "session": "s1", "id": "c", "base_version": 7,
                              "goal_revision": 1, "exact_fields": {}}]
    report = await import_file(write_sif(tmp_path / "b.jsonl", more), store, actor="t")
    assert report.added == {"event": 1, "candidate": 1}
    async with await open_store(store) as opened:
        info = await sessions.get_session(opened, "s1")
        assert (info.events, info.context_version) == (2, 7)
        assert (await verify_store(opened)).ok


async def test_store_in_read_only_copy_is_untouched_by_reading(sample_store: Path, tmp_path: Path) -> None:
    if is_url(sample_store):
        pytest.skip("a copy of the store's file: SQLite only")
    copy = tmp_path / "copy.db"
    shutil.copy(sample_store, copy)
    before = file_sha(copy)
    async with await open_store(copy) as store:
        await sessions.list_sessions(store)
        await verify_store(store)
    assert file_sha(copy) == before
