"""Files built once per test run and shared by pytest-xdist's workers, each using its own copy.

A session-scoped fixture is built once per worker process: with two workers, an expensive
store (40,000 imported events, the mutation test's stores, the imported samples) was built
twice, each build taking a core for seconds. :func:`built_once` builds it once per run: the
first worker to ask takes a lock in the run's base temporary folder (every worker's own is a
folder inside it; pytest makes it new for each run) and builds; the others wait on the lock
and find it built. Each caller gets its own byte copy, so a worker's tests never open a file
another worker's tests have open, and a test changing its copy changes nobody else's: the
tests see what they saw when each worker built its own. Without xdist it is a build and a copy.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], Iterable[Path]],
               into: Path) -> list[Path]:
    """``build(folder)`` run once per test run (it makes files in ``folder`` and returns them);
    the files are copied into ``into`` and the copies returned, in the same order."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's base folder: the workers' own are popen-gw0, popen-gw1…
    folder = root / f"built-once-{name}"
    listing = root / f"built-once-{name}.done"
    with open(root / f"built-once-{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process dies
        if not listing.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build that failed half-way is made again
            folder.mkdir()
            made = [Path(p).relative_to(folder) for p in build(folder)]
            listing.write_text("\n".join(map(str, made)), encoding="utf-8")
        names = listing.read_text(encoding="utf-8").splitlines()
    into.mkdir(parents=True, exist_ok=True)
    copies = []
    for relative in names:
        copy = into / Path(relative).name
        shutil.copyfile(folder / relative, copy)
        copies.append(copy)
    return copies
