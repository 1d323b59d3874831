"""Shared fixtures: sample files, freshly imported stores, an isolated demo cache."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import shutil
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
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
    # No test ever asks who is reviewing or writes a person's real config directory.
    config = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(config))
    (config / "reviewer").write_text("root\n", encoding="utf-8")  # the app's remembered name; the CLI ignores it
    # nor on transcripts in the home folder of whoever runs the tests (`inspector` would list them)
    monkeypatch.setenv("INSPECTOR_SOURCES", str(cache / "no-transcripts-here"))
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(cache / "data"))
    yield cache


def pytest_collection_finish(session: pytest.Session) -> None:
    """Garbage collection tuned for this suite (the app's own runs keep Python's defaults).

    Each app test builds and drops about a hundred thousand Textual objects held in cycles, so
    with the default thresholds the collector ran a full pass about twice per app test, over
    the whole heap: a third of the suite's CPU time. Freezing what collection loaded (modules,
    test functions) takes it out of every pass, and larger thresholds make the full passes
    rare; a pass then frees the same garbage in one go. Measured in docs/benchmarks.md."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 50)


def import_isolated(sources: Iterable[Path], store: Path, *, actor: str) -> Path:
    """Import ``sources`` into a new ``store`` away from any person's folders (the isolation
    isolated_cache gives a test), in a thread of its own so that an async test may call it.
    The store is closed cleanly: the file alone is the whole store, so a byte copy is a store."""
    folder = store.parent

    async def build() -> None:
        for path in sources:
            await import_file(path, store, actor=actor)

    with pytest.MonkeyPatch.context() as env:
        env.setenv("INSPECTOR_CACHE_DIR", str(folder / "cache"))
        env.setenv("INSPECTOR_SOURCES", str(folder / "no-transcripts-here"))
        env.setenv("INSPECTOR_DATA_DIR", str(folder / "data"))
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, build()).result()
    assert not Path(f"{store}-wal").exists()
    return store


@pytest.fixture(scope="session")
def sample_store_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every sample session imported once per test run; tests get copies (sample_store)."""
    return import_isolated(sample_files(), tmp_path_factory.mktemp("samples-master") / "samples.db", actor="tester")


@pytest.fixture(scope="session")
def _imported_masters(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[Path, str], Path]:
    return {}


@pytest.fixture
def imported_copy(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                  _imported_masters: dict[tuple[Path, str], Path]) -> Callable[..., Path]:
    """``imported_copy(FILE, actor=...)``: a store holding FILE imported, a byte copy of the one
    import this run makes of it (a real transcript takes seconds to import; a copy, milliseconds)."""

    def copy(source: Path, *, actor: str = "root", name: str = "real.db") -> Path:
        key = (source, actor)
        if key not in _imported_masters:
            _imported_masters[key] = import_isolated([source], tmp_path_factory.mktemp("import-master") / name,
                                                     actor=actor)
        store = tmp_path / name
        shutil.copyfile(_imported_masters[key], store)
        return store

    return copy


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
