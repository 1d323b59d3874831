"""Bytecode written once and reused by every process a test run starts.

The environment this suite runs in may set ``PYTHONDONTWRITEBYTECODE=1``. Then every process
compiled every module of this checkout it imported, from source, each time: each xdist
worker (and pytest's assertion rewriting of every test module in it), and each
``python -m inspector …``, race worker, import worker, ``follow`` and ``serve`` that the
tests start (``inspector --help`` 0.48 s of CPU against 0.24 s with bytecode; measured in
docs/benchmarks.md, "Test suite", third pass). The run lets Python write bytecode where it
does by default: ``__pycache__`` beside the sources (ignored by git), in this process from
configuration on and in every process it starts. A person's own ``PYTHONPYCACHEPREFIX`` is
kept (Python then writes there).

Not ``PYTHONPYCACHEPREFIX`` pointing at a folder made for the run: under a prefix Python
reads bytecode only from the prefix, so the standard library's and the installed packages'
own ``__pycache__`` were ignored and every process compiled Textual, Rich, asyncio… anew
until the first had written them: more CPU than it saved (measured).
"""

from __future__ import annotations

import os
import sys

import pytest

NO_WRITE = "PYTHONDONTWRITEBYTECODE"
_BEFORE: pytest.StashKey[tuple[str | None, bool]] = pytest.StashKey()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_BEFORE] = (os.environ.pop(NO_WRITE, None), sys.dont_write_bytecode)
    sys.dont_write_bytecode = False


def pytest_unconfigure(config: pytest.Config) -> None:
    before = config.stash.get(_BEFORE, None)
    if before is None:
        return
    no_write, flag = before
    if no_write is not None:
        os.environ[NO_WRITE] = no_write
    sys.dont_write_bytecode = flag
