"""A deletion names the other stores the inspector made of the same transcript (hostile review six).

The start screen imports a transcript into a store of its own in the data folder; a Gemini
CLI chat file, which its tool rewrites whole, gets a new store for each state of it, and the
older stores stay. Before: a deletion carried out in the newest store said nothing of the
older one, which still held the deleted text (the data folder is not the store's folder, and
a store file is none of the kinds the files beside the store are read for).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from inspector.services import deletions, discovery
from inspector.services.following import catch_up
from inspector.services.importing import import_file
from inspector.store.connection import open_store
from tests.conftest import write_sif

SECRET = "zqx.gemini.mail@example.org"


def _chat(messages: int) -> dict[str, object]:
    said = [{"id": f"m{i}", "timestamp": f"2026-01-15T20:5{i}:00.000Z", "type": "user" if i % 2 == 0 else "gemini",
             "content": f"mail {SECRET} please" if i == 0 else f"message {i}"} for i in range(messages)]
    return {"sessionId": "f7633853-6663-4dbb-bbf4-6159afa29df8", "projectHash": "ab" * 32,
            "startTime": "2026-01-15T20:50:00.000Z", "lastUpdated": "2026-01-15T20:59:00.000Z", "messages": said}


def test_a_deletion_names_an_older_store_of_a_rewritten_transcript(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(tmp_path / "cache"))
    chat = tmp_path / "chats" / "session-2026-01-15T20-50-f7633853.json"
    chat.parent.mkdir()
    stores = []
    for count, version in ((2, "v1"), (3, "v2")):  # the tool rewrote the file: a store for each state
        chat.write_text(json.dumps(_chat(count)), encoding="utf-8")
        store = discovery.store_for(chat, version=version)
        store.parent.mkdir(parents=True, exist_ok=True)
        caught = asyncio.run(catch_up(chat, store, actor="zhou"))
        stores.append(store)
    older, newer = stores
    asyncio.run(import_file(write_sif(tmp_path / "req.jsonl", [
        {"type": "deletion_request", "session": caught.session, "id": "del-1", "targets": ["evt:1"],
         "requested_by": "user", "reason": "asked"}]), newer, actor="zhou"))

    async def run() -> tuple[list[str], list[str]]:
        async with await open_store(newer) as opened:
            listed = await deletions.check(opened, "del-1")
            done = await deletions.delete(opened, "del-1", actor="zhou")
            assert not done.refusals
            return listed.warnings, done.coverage.warnings

    listed, done = asyncio.run(run())
    assert SECRET.encode() in older.read_bytes()  # the older store is the person's to change
    for warnings in (listed, done):
        assert any(str(older) in w and "other store" in w for w in warnings), warnings
        assert not any(str(newer) in w for w in warnings if "other store" in w)
