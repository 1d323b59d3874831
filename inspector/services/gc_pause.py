"""The cyclic garbage collector paused while an import runs.

An import makes a few containers per record (the decoded dict, its SifRecord, the row
tuple, a call shape) and frees nearly all of them by reference counting as soon as their
chunk is written; none of them form cycles. The collector does not know that: every 700
new containers it walks the young ones, and now and then everything still alive. Measured
(bench/import_speed.py, 100k events): about 300 ms of a 1.9 s import's CPU, one sixth, spent
finding nothing. So an import pauses it and restores it after, whatever happened (an import
inside another only restores what it found). Memory is unaffected: what is freed is freed
by reference counting, and any cycle made meanwhile is collected once the import returns.
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Awaitable, Callable, Iterator
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block; afterwards it is as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def pauses_collector(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """An async function that runs with the collector paused (see the module docstring)."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with collector_paused():
            return await fn(*args, **kwargs)

    return run
