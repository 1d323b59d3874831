"""One read-only run's reads of a session's raw log, made once.

A report gathers the header's badges, the drift table of every generation, survival and
``check``'s own verdict (issue 17: the page is never greener than ``check``). Each of those
services reads the session's drift context from the raw log (failures, actions, untrusted
rules, the evidence text) and judges the latest generation: without sharing, one report read
the log five times and judged the latest generation three times, and a 4 MB transcript's
report went from under 3 s to 4.4 s under load when ``check`` joined it.

Inside ``reads_once()`` those reads and verdicts are kept for the run, keyed by what they are
and the session; outside it every call reads afresh, as an app reload or a CLI command after
a write must. Only a run that writes nothing while it is open may use it (the report does):
a write inside would leave the kept reads stale. The kept values are shared, not copied, so
their users only read them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_KEPT: ContextVar[dict[tuple[str, str], Any] | None] = ContextVar("inspector_reads_once", default=None)


@contextmanager
def reads_once() -> Iterator[None]:
    """Within this block, each kept read of a session is made once (see the module's note)."""
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


async def kept(what: str, session: str, read: Callable[[], Awaitable[T]]) -> T:
    """``read()``'s result, read once per ``reads_once()`` block (every time outside one)."""
    memo = _KEPT.get()
    if memo is None:
        return await read()
    key = (what, session)
    if key not in memo:
        memo[key] = await read()
    value: T = memo[key]
    return value


def already(what: str, session: str) -> Any | None:
    """What this block already read as ``what`` for ``session``, or None (also outside a block)."""
    memo = _KEPT.get()
    return None if memo is None else memo.get((what, session))
