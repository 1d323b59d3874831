"""Per record list, the answers every generation of a session asks again: kept for that list.

The Drift tab judges up to 1,000 generations against the same list of protected records; which
records only the scope rule reads, and which (value, kind) pairs a sentence may state instead of
one, depend on the list alone. Each is remembered as one tuple replaced whole, so a drift computed
on another thread (the app's workers) never reads one list's answer for another. Split from drift.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspector.domain.said_departures import plan_of
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

if TYPE_CHECKING:
    from inspector.domain.drift import StateFact


# The last record list asked about, its length then, and its answer — one tuple, replaced whole,
# so a drift computed on another thread (the app's workers) never reads one list's answer for another.
_PLANS: tuple[Any, int, tuple[tuple[str, ...], bool]] = (None, 0, ((), False))


def departure_plans(state: list[StateFact]) -> tuple[tuple[str, ...], bool]:
    """The scope forms of the records only the scope rule reads, and whether any record has
    another departure rule — the same list object comes back for every generation of a
    session (the Drift tab's 1,000), so the answer is kept for it."""
    global _PLANS
    last, size, kept = _PLANS
    if last is state and size == len(state):
        return kept
    answer = (tuple(sorted({plan_of(s.value, s.kind).scope or "" for s in state if s.scope_only
                            and s.status == "active"} - {""})),
              any(s.departs and not s.scope_only and s.status == "active" for s in state))
    _PLANS = (state, len(state), answer)
    return answer


_OWNERS: tuple[Any, int, tuple[tuple[str, str], ...]] = (None, 0, ())


def owner_values(state: list[StateFact]) -> tuple[tuple[str, str], ...]:
    """The (value, kind) pairs of the records a sentence may state instead of this one — the
    same tuple for the same record list (every generation of a session asks), kept like
    ``_PLANS``."""
    global _OWNERS
    last, size, kept = _OWNERS
    if last is state and size == len(state):
        return kept
    kept = tuple((s.value, s.kind) for s in state if s.kind in OWNER_ONLY_KINDS or s.kind == "decision")
    _OWNERS = (state, len(state), kept)
    return kept
