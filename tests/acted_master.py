"""A store acted on once per test file, handed to each test as a byte copy.

Several verify tests start from the run's sample store after the same few acts (a correction,
a deletion, a search-index catch-up) and then each tamper with the file. The acts are the same
bytes every time, so a file runs them once (``build``) and each test copies the result
(``copy_to``). The master is hashed when built and checked unchanged when the file ends
(``unchanged``): a test that wrote to it instead of to its copy fails, rather than another test
passing on that edit.
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from inspector.store.connection import open_store
from inspector.store.sqlite_store import Store


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build(source: Path, folder: Path, act: Callable[[Store], Awaitable[object]]) -> tuple[Path, str]:
    """Copy ``source`` into ``folder``, run ``act`` on it in an event loop of its own (the caller
    may be inside one), close it cleanly; the path and its sha256."""
    path = folder / source.name
    shutil.copyfile(source, path)

    async def run() -> None:
        async with await open_store(path) as store:
            await act(store)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # the file alone is the whole store
    return path, _sha(path)


def copy_to(master: tuple[Path, str], target: Path) -> Path:
    shutil.copyfile(master[0], target)
    return target


def unchanged(master: tuple[Path, str]) -> None:
    assert _sha(master[0]) == master[1], f"a test wrote to the shared master {master[0]}"
