"""Fresh PostgreSQL databases for the tests that compare backends (race, migrate, live apps).

One test server per test run (tests/pg_cluster.py), one new database per test, so each test
starts from an empty store as it does with a new SQLite file. A test that needs PostgreSQL
is skipped with the reason when no server can be started here.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.pg_cluster import running_server, why_unavailable


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of the run's PostgreSQL test server (its maintenance database)."""
    import importlib.util

    reason = why_unavailable()
    if importlib.util.find_spec("inspector.store.pg") is None:
        reason = "this branch has no PostgreSQL backend (inspector/store/pg) yet"
    if reason:
        pytest.skip(reason)
    with running_server() as url:
        yield url


def new_database(server: str) -> str:
    """Create an empty database on ``server`` and return its URL."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:16]}"

    async def create() -> None:
        conn = await asyncpg.connect(server)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create()) if not _loop_running() else _in_thread(create)
    return urlunsplit(urlsplit(server)._replace(path=f"/{name}"))


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _in_thread(fn) -> None:  # type: ignore[no-untyped-def]
    """Run a coroutine function to completion from inside a running loop (an async test)."""
    import threading

    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(fn())
        except BaseException as exc:  # noqa: BLE001 -- re-raised in the caller
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
