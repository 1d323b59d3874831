"""Shared fixtures: sample files, freshly imported stores, an isolated demo cache."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import itertools
import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from inspector.services.demo import sample_files
from inspector.services.importing import import_file
from tests.built_once import built_once
from tests.masters import Masters

SAMPLES = {p.stem: p for p in sample_files()}

pytest_plugins = ["tests.pycache", "tests.textual_idle", "tests.textual_css", "tests.cpu_log"]  # bytecode reused by the run's processes; 5 ms idle steps


@pytest.fixture(scope="session")
def _isolated_folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Iterator[int]]:
    """One folder per run (per xdist worker) holding every test's own cache and config folders."""
    return tmp_path_factory.mktemp("isolated"), itertools.count()


@pytest.fixture(autouse=True)
def isolated_cache(_isolated_folders: tuple[Path, Iterator[int]], monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own demo cache, so no test depends on another's store.

    Made with a counter inside one folder, not with ``tmp_path_factory.mktemp``: each mktemp lists
    and sorts the whole base temporary folder to find its next number, and two per test (plus
    ``tmp_path``'s own) made that folder grow by three entries a test — 4.7 ms of CPU per mktemp
    at 3,500 entries, quadratic over a run (docs/benchmarks.md, Session 17)."""
    folder, numbers = _isolated_folders
    number = next(numbers)
    cache, config = folder / f"cache{number}", folder / f"config{number}"
    cache.mkdir()
    config.mkdir()
    monkeypatch.setenv("INSPECTOR_CACHE_DIR", str(cache))
    # No test ever asks who is reviewing or writes a person's real config directory.
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(config))
    (config / "reviewer").write_text("root\n", encoding="utf-8")  # the app's remembered name; the CLI ignores it
    # nor on transcripts in the home folder of whoever runs the tests (`inspector` would list them)
    monkeypatch.setenv("INSPECTOR_SOURCES", str(cache / "no-transcripts-here"))
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(cache / "data"))
    # the name of whoever runs the tests is not a test's reviewer (tests that want one set it)
    monkeypatch.delenv("INSPECTOR_REVIEWER", raising=False)
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the long tests start first on every worker (tests/schedule.py)."""
    from tests.schedule import dealt

    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = dealt(items, [item.nodeid for item in items], workers)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The heap left as it is when the run ends: the process is about to exit, and with the
    thresholds above the oldest generation holds a run's worth of garbage (over a million
    objects). pytest's last look for unraisable exceptions collects five times over, and
    the first pass alone took 2-4 s per worker at the end of a run; frozen, the passes walk
    nothing. The exceptions that look finds are those of objects that died during the run
    and are reported at the end, not with a test, whichever way (docs/benchmarks.md)."""
    gc.freeze()


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
def _masters() -> Iterator[Masters]:
    masters = Masters()
    yield masters
    changed = masters.changed()
    assert not changed, f"a test wrote to a shared master: {', '.join(changed)}"


@pytest.fixture(scope="session")
def sample_store_master(tmp_path_factory: pytest.TempPathFactory, _masters: Masters) -> Path:
    """Every sample session imported once per test run (shared by the xdist workers:
    tests/built_once.py); tests get copies (sample_store)."""
    [master] = built_once(tmp_path_factory, "samples", lambda folder: [
        import_isolated(sample_files(), folder / "samples.db", actor="tester")], tmp_path_factory.mktemp("samples-master"))
    return _masters.add(master)


@pytest.fixture(scope="session")
def _imported_masters(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[Path, str], Path]:
    return {}


@pytest.fixture
def imported_copy(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                  _imported_masters: dict[tuple[Path, str], Path], _masters: Masters) -> Callable[..., Path]:
    """``imported_copy(FILE, actor=...)``: a store holding FILE imported, a byte copy of the one
    import this run makes of it (a real transcript takes seconds to import; a copy, milliseconds)."""

    def copy(source: Path, *, actor: str = "root", name: str = "real.db") -> Path:
        key = (source, actor)
        if key not in _imported_masters:
            _imported_masters[key] = _masters.add(import_isolated(
                [source], tmp_path_factory.mktemp("import-master") / name, actor=actor))
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


# A test that puts a store back to an older format drops what format 6 added (the thinking index).
DROP_THINKING = "DROP TABLE reasoning_fts; DROP TABLE reasoning_grams; "
# ... and what format 5 added (the call-input index) for a format before 5.
DROP_CALLS = DROP_THINKING + "DROP TABLE calls_fts; DROP TABLE calls_grams; "


# -- the PostgreSQL backend: one throwaway server per run, a fresh database per test ------------

BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server for this run (tests/pg_cluster.py); skipped, with the
    reason printed, where none can be started."""
    from tests.pg_cluster import running_server, why_unavailable
    from tests.pg_shared import shared_url

    url, reason = shared_url()  # under xdist: the one server the controller started (tests/pg_shared.py)
    reason = reason or (None if url else why_unavailable())
    if reason:
        print(f"\nPostgreSQL tests skipped: {reason}")
        pytest.skip(reason)
    if url:
        yield url
        return
    with running_server(in_memory=True) as url:
        yield url


def pytest_configure(config: pytest.Config) -> None:
    """The controller of an xdist run starts the run's one PostgreSQL server (tests/pg_shared.py)."""
    from tests.pg_cluster import why_unavailable
    from tests.pg_shared import ENV, SharedServer

    distributed = (getattr(config.option, "numprocesses", None) or 0) > 0 and config.getoption("dist", "no") != "no"
    if (not distributed or hasattr(config, "workerinput") or config.option.collectonly
            or os.environ.get(ENV) or os.environ.get("INSPECTOR_TEST_PG_URL") or why_unavailable()):
        return
    config.stash[_SHARED_PG] = SharedServer().start()


def pytest_unconfigure(config: pytest.Config) -> None:
    shared = config.stash.get(_SHARED_PG, None)
    if shared is not None:
        shared.stop()


_SHARED_PG: pytest.StashKey[Any] = pytest.StashKey()


class PgDatabases:
    """Databases made on the test server: empty, or copies of a template (cheap: a file copy)."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url
        self.count = 0

    def url(self, name: str) -> str:
        return self.server_url.rsplit("/", 1)[0] + "/" + name

    def create(self, prefix: str, template: str | None = None) -> str:
        import asyncpg

        self.count += 1
        name = f"{prefix}_{os.getpid()}_{self.count}"
        clause = f" TEMPLATE {template}" if template else ""

        async def make() -> None:
            conn = await asyncpg.connect(self.server_url)
            try:
                # From PostgreSQL 15 a copy is written through the WAL unless told otherwise; a
                # file copy of these small templates took 14-20 ms a database, the WAL 21-56 ms.
                strategy = " STRATEGY FILE_COPY" if template and conn.get_server_version().major >= 15 else ""
                await conn.execute(f"CREATE DATABASE {name}{clause}{strategy}")
            finally:
                await conn.close()

        asyncio.run(make())
        return self.url(name)

    def seal(self, name: str) -> str:
        """No connection to database ``name`` from now on, a superuser's included: a master the
        tests copy (``CREATE DATABASE … TEMPLATE`` still works) and none can write; a test
        pointed at it fails at once rather than changing what later tests copy."""
        import asyncpg

        async def closed() -> None:
            conn = await asyncpg.connect(self.server_url)
            try:
                await conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            finally:
                await conn.close()

        asyncio.run(closed())
        return name

    def drop(self, url: str) -> None:
        import asyncpg

        async def gone() -> None:
            conn = await asyncpg.connect(self.server_url)
            try:
                await conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
            finally:
                await conn.close()

        asyncio.run(gone())


@pytest.fixture(scope="session")
def pg_databases(pg_server: str) -> PgDatabases:
    return PgDatabases(pg_server)


@pytest.fixture(scope="session")
def pg_sample_master(pg_databases: PgDatabases, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database holding every sample session, imported once per run; tests get copies."""
    url = pg_databases.create("samples_master")
    folder = tmp_path_factory.mktemp("pg-samples-master")

    async def build() -> None:
        for path in sample_files():
            await import_file(path, url, actor="tester")

    with pytest.MonkeyPatch.context() as env:
        env.setenv("INSPECTOR_CACHE_DIR", str(folder / "cache"))
        env.setenv("INSPECTOR_SOURCES", str(folder / "no-transcripts-here"))
        env.setenv("INSPECTOR_DATA_DIR", str(folder / "data"))
        asyncio.run(build())
    return pg_databases.seal(url.rsplit("/", 1)[1])


@pytest.fixture(scope="session")
def pg_empty_master(pg_databases: PgDatabases) -> str:
    """A database holding an empty store (schema built once per run); tests get copies."""
    from inspector.store.connection import open_store

    url = pg_databases.create("empty_master")

    async def build() -> None:
        store = await open_store(url, create=True)
        await store.close()

    asyncio.run(build())
    return pg_databases.seal(url.rsplit("/", 1)[1])


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which store backend a test runs on (tests using it run once per backend)."""
    return str(request.param)


@pytest.fixture
def backend_sample_store(backend: str, request: pytest.FixtureRequest) -> Iterator[Path | str]:
    """Every sample session imported: a file copy on SQLite, a database copy on PostgreSQL
    (``CREATE DATABASE … TEMPLATE``), as the path or URL a person would pass."""
    if backend == "sqlite":
        yield request.getfixturevalue("sample_store")
        return
    databases: PgDatabases = request.getfixturevalue("pg_databases")
    url = databases.create("samples", template=request.getfixturevalue("pg_sample_master"))
    yield url
    databases.drop(url)


@pytest.fixture
def backend_empty_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
    """Where a new store goes: a file path on SQLite; on PostgreSQL a copy of a database holding
    an empty store (building the schema once per run, not once per test)."""
    if backend == "sqlite":
        yield tmp_path / "store.db"
        return
    databases: PgDatabases = request.getfixturevalue("pg_databases")
    url = databases.create("empty", template=request.getfixturevalue("pg_empty_master"))
    yield url
    databases.drop(url)
