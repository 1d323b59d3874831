"""Re-importing an unchanged file is answered from the ledger: the same skips as a full
re-import, nothing written; a changed file, or a deletion since, takes the full path."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.services import importing
from inspector.services.importing import import_file
from tests.conftest import SAMPLES, file_sha, session_record, write_sif


def events(n: int) -> list[dict[str, object]]:
    return [{"type": "event", "session": "s1", "seq": i, "kind": "user_message", "trust": "user",
             "content": f"line {i}", "at": "2025-05-01T08:00:00Z"} for i in range(1, n + 1)]


@pytest.mark.parametrize("name", ["01_export_timeout", "05_privacy_deletion", "06_large_fold"])
async def test_the_ledger_answer_equals_a_full_reimport(tmp_path: Path, name: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    src = SAMPLES[name]
    store = tmp_path / "s.db"
    await import_file(src, store, actor="t")
    before = file_sha(store)
    fast = await import_file(src, store, actor="t")
    assert fast.unchanged_since is not None and not fast.added and file_sha(store) == before
    monkeypatch.setattr(importing, "unchanged_import", _never)
    full = await import_file(src, store, actor="t")
    assert full.unchanged_since is None
    assert (fast.added, fast.skipped, fast.sessions) == (full.added, full.skipped, full.sessions)


async def _never(*_args: object) -> None:
    return None


async def test_a_changed_file_or_a_deletion_since_takes_the_full_path(tmp_path: Path) -> None:
    store = tmp_path / "s.db"
    src = write_sif(tmp_path / "a.jsonl", [session_record("s1", owner="zhou"), *events(3)])
    await import_file(src, store, actor="t")
    grown = write_sif(tmp_path / "a.jsonl", [session_record("s1", owner="zhou"), *events(4)])
    report = await import_file(grown, store, actor="t")
    assert report.unchanged_since is None and report.added == {"event": 1}
    again = await import_file(grown, store, actor="t")
    assert again.unchanged_since is not None and again.skipped.get("event") == 4
    # a deletion in the session since: the ledger no longer says what the store holds
    request = {"type": "deletion_request", "session": "s1", "id": "del-1", "targets": ["evt:2"],
               "requested_by": "zhou", "reason": "asked", "status": "pending"}
    await import_file(write_sif(tmp_path / "d.jsonl", [request]), store, actor="zhou")
    from inspector.services import deletions
    from inspector.store.connection import open_store
    async with await open_store(store) as opened:
        assert not (await deletions.delete(opened, "del-1", actor="zhou")).refusals
    after = await import_file(grown, store, actor="t")
    assert after.unchanged_since is None
