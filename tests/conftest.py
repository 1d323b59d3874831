"""Shared fixtures: sample files, freshly imported stores, an isolated demo cache."""

from __future__ import annotations

import asyncio
import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.services.demo import sample_files
from inspector.services.importing import import_file

SAMPLES = {p.stem: p for p in sample_files()}


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own demo cache, so no test depends on another's store."""
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(cache))
    # nor on transcripts in the home folder of whoever runs the tests (`inspector` would list them)
    monkeypatch.setenv("INSPECTOR_SOURCES", str(cache / "no-transcripts-here"))
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(cache / "data"))
    yield cache


@pytest.fixture(scope="session")
def sample_store_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every sample session imported once per test run; tests get copies (sample_store)."""
    folder = tmp_path_factory.mktemp("samples-master")
    store = folder / "samples.db"

    async def build() -> None:
        for path in sample_files():
            await import_file(path, store, actor="tester")

    with pytest.MonkeyPatch.context() as env:  # the same isolation isolated_cache gives a test
        env.setenv("INSPECTOR_CACHE_DIR", str(folder / "cache"))
        env.setenv("INSPECTOR_SOURCES", str(folder / "no-transcripts-here"))
        env.setenv("INSPECTOR_DATA_DIR", str(folder / "data"))
        asyncio.run(build())
    assert not Path(f"{store}-wal").exists()  # closed cleanly: the file alone is the whole store
    return store


@pytest.fixture
def sample_store(tmp_path: Path, sample_store_master: Path) -> Path:
    """A store with every sample session imported: a byte copy of the run's one import,
    so a test may change it freely."""
    store = tmp_path / "samples.db"
    shutil.copyfile(sample_store_master, store)
    return store


def file_sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_sif(path: Path, records: list[dict[str, Any]], header: dict[str, Any] | None = None) -> Path:
    lines = [json.dumps(header or {"type": "header", "format": "sif/1"})]
    lines += [json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def session_record(sid: str = "s1", **more: Any) -> dict[str, Any]:
    return {"type": "session", "id": sid, "title": "t", "created_at": "2025-05-01T00:00:00Z", "owner": "alice",
            **more}


def event_record(seq: int, sid: str = "s1", **more: Any) -> dict[str, Any]:
    return {"type": "event", "session": sid, "seq": seq, "kind": "user_message", "content": f"message {seq}",
            "at": "2025-05-01T00:00:00Z", "trust": "user", **more}
