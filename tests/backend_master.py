"""A store built once per test file on each backend, handed to each test as a copy of its own.

Many files run the same tests on SQLite and PostgreSQL over a store that every test fills with
the same import (``backend_empty_store`` and one ``import_file`` per test). On PostgreSQL that
import is the PostgreSQL server's work as well as pytest's, and the server's CPU is counted in
no pytest figure (docs/benchmarks.md, Session 18). :class:`BackendMaster` runs the build once
per file and backend and gives every test a copy: a byte copy of the file on SQLite, a
``CREATE DATABASE … TEMPLATE`` of the master database on PostgreSQL. Each test still gets its
own store, so a test that writes changes nobody else's.

The masters cannot be written by a test without it being seen: the SQLite master's sha256 is
taken when built and checked when the file ends (:meth:`BackendMaster.check_unchanged`), and
the PostgreSQL master is closed to connections once built (``ALLOW_CONNECTIONS false``: a
template is still copied, but nobody, a superuser included, can open it), so a test pointed at
it fails at once instead of another test passing on its edit. The master database is dropped
when the file ends.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.masters import Masters

Build = Callable[[Path | str, Path], Awaitable[object]]


def _in_own_loop(folder: Path, work: Callable[[], Awaitable[object]]) -> None:
    """Run ``work`` in an event loop of its own (the caller may be inside one), away from any
    person's folders and from the test's own cache (the isolation ``isolated_cache`` gives)."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("INSPECTOR_CACHE_DIR", str(folder / "cache"))
        env.setenv("INSPECTOR_SOURCES", str(folder / "no-transcripts-here"))
        env.setenv("INSPECTOR_DATA_DIR", str(folder / "data"))
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, work()).result()


class BackendMaster:
    """``build(target, folder)`` run at most once per backend; :meth:`store` a copy per test.

    ``build`` gets where the store goes (a file path on SQLite, a URL on PostgreSQL, as the
    test's own ``backend_empty_store`` gave) and a folder for the files it writes (the source
    a test imported from its ``tmp_path``)."""

    def __init__(self, folder: Path, build: Build, *, name: str = "store.db") -> None:
        self.folder = folder
        self.build = build
        self.name = name
        self._file: Path | None = None
        self._checked = Masters()
        self._database: str | None = None
        self._databases: Any = None

    def _sqlite_master(self) -> Path:
        if self._file is None:
            work = self.folder / "sqlite"
            work.mkdir()
            path = work / self.name
            _in_own_loop(work, lambda: self.build(path, work))
            wal = Path(f"{path}-wal")
            assert not wal.exists() or wal.stat().st_size == 0  # the file alone is the whole store
            self._file = self._checked.add(path)
        return self._file

    def _pg_master(self, request: pytest.FixtureRequest) -> str:
        if self._database is None:
            databases = self._databases = request.getfixturevalue("pg_databases")
            url = databases.create("file_master", template=request.getfixturevalue("pg_empty_master"))
            work = self.folder / "postgresql"
            work.mkdir()
            _in_own_loop(work, lambda: self.build(url, work))
            self._database = databases.seal(url.rsplit("/", 1)[1])
        return self._database

    def store(self, backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | str]:
        """A store of the test's own holding what ``build`` made: yields its path or URL."""
        if backend == "sqlite":
            copy = tmp_path / self.name
            shutil.copyfile(self._sqlite_master(), copy)
            yield copy
            return
        template = self._pg_master(request)
        url = self._databases.create("copy", template=template)
        yield url
        self._databases.drop(url)

    def check_unchanged(self) -> None:
        """At the end of the file: the SQLite master is the bytes it was built as; the
        PostgreSQL master (closed to connections, so unchanged) is dropped."""
        if self._database is not None:
            self._databases.drop(self._databases.url(self._database))
            self._database = None
        changed = self._checked.changed()
        assert not changed, f"a test wrote to the shared master: {', '.join(changed)}"


def master_fixture(build: Build, *, name: str = "store.db") -> Any:
    """A module-scoped fixture giving the file its :class:`BackendMaster` (checked at the end)."""

    @pytest.fixture(scope="module")
    def master(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackendMaster]:
        built = BackendMaster(tmp_path_factory.mktemp("file-master"), build, name=name)
        yield built
        built.check_unchanged()

    return master
