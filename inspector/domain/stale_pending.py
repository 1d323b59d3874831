"""A pending version older than its key's active version is no fact of its own (review-18).

An owner's correction of a pending proposal files an active version and leaves the proposal
pending (the reviewer rejects it; ``confirm`` refuses it, ``stale_pending``, as it would move the
record backwards). Survival and drift read every version that is not superseded, so the key was
judged twice: "3 of 7 facts kept" over a session of 6 facts in range, and drift's "pending not
judged" counted a proposal no one can confirm. The key's state is its active version; the stale
proposal stays listed (the app, ``facts``) until it is rejected, but is not counted as a fact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

V = TypeVar("V")


def without_stale_pending(versions: Iterable[V], of: Callable[[V], tuple[str, int, str]]) -> list[V]:
    """``versions`` (of any keys) less each pending one older than an active version of its key;
    ``of`` gives a version's (key, version number, status)."""
    rows = [(r, *of(r)) for r in versions]
    active: dict[str, int] = {}
    for _, key, number, status in rows:
        if status == "active":
            active[key] = max(active.get(key, number), number)
    return [r for r, key, number, status in rows
            if not (status == "pending" and key in active and number < active[key])]
