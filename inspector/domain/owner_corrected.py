"""A value the owner corrected after a generation was written: one rule for drift, survival and check.

review-18 #1: after the owner corrected ``goal.main`` to "a new goal", ``check`` showed ✗ (drift's
``protected_missing``: "not in generation 1's text") while survival called the same fact "not judged"
(half its words appear) — two verdicts on one fact in one output. The rule decided (docs/verdicts.md,
"After an owner's correction"):

A value the owner wrote in review (the version cites its ledger entry, ``ledger:N``, and no event: the
log never said it in these words) *after* the generation was written (the ledger entry that added the
generation comes before ``ledger:N``) is a value that summary could not know. Its absence is no loss
the summary can be blamed for, and its presence in other words cannot be matched: drift and survival
both say "?" (``corrected_after``, survival ``unknown``), naming the correction — and, when the text
still holds the value the correction replaced, saying so: that earlier value may be exactly the drift
the owner corrected, and a person must judge it. Never ✓ (the fact is not shown kept), never ✗ from
absence. What stays decided either way: the new value in the text is ``kept``; a text that cancels or
weakens it is ✗ (``protected_negated`` / ``contradicted``), as for any value. A generation written
after the correction (a candidate accepted, a corrected text filed) could know it and is judged as
every other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from inspector.domain.drift_finding import Finding
from inspector.domain.textnorm import norm

CODE = "corrected_after"
_LEDGER = re.compile(r"ledger:(\d+)$")


def corrected_at(sources: Iterable[str]) -> int | None:
    """The ledger entry of an owner's correction the record cites, when it cites no event (None: the
    log said it, or no correction wrote it)."""
    seqs = []
    for s in sources:
        if s.startswith("evt:"):
            return None
        m = _LEDGER.match(s)
        if m:
            seqs.append(int(m.group(1)))
    return max(seqs) if seqs else None


def corrected_after(sources: Iterable[str], written_at: int | None) -> int | None:
    """``corrected_at`` when the correction came after the generation was written (``written_at``: the
    ledger entry that added it; None when not known — then the summary cannot be shown to have known it)."""
    at = corrected_at(sources)
    if at is None or (written_at is not None and written_at > at):
        return None
    return at


def late_reason(generation: int, sources: Iterable[str], written_at: int | None, replaced: str | None,
                in_text: Callable[[str], bool]) -> str | None:
    """Survival's reason for a confirmed value corrected after the generation was written (its verdict
    is then ``unknown`` where it would be missing or a share of words), or None for any other value.
    ``in_text`` answers whether the summary holds a value (its normal form)."""
    at = corrected_after(sources, written_at)
    return None if at is None else reason(generation, at, replaced_in(replaced, in_text))


def replaced_in(replaced: str | None, in_text: Callable[[str], bool]) -> str | None:
    """The value the correction replaced, when the text still holds it."""
    return replaced if replaced and in_text(norm(replaced)) else None


def reason(generation: int, at: int, replaced_in_text: str | None) -> str:
    """Why the value is not judged, in the words drift and survival both give."""
    shown = replaced_in_text if replaced_in_text is None or len(replaced_in_text) <= 80 else replaced_in_text[:79] + "…"
    tail = (f"; the text still holds the value it replaced, “{shown}”, which may be exactly what the "
            "owner corrected — a person must judge it" if replaced_in_text else
            "; whether the summary says it in its own words a person must judge")
    return (f"the owner wrote this value in review (ledger:{at}) after generation {generation} was written: the "
            f"summary could not know these words{tail}")


def note(generation: int, key: str, kind: str, value: str, at: int, replaced_in_text: str | None) -> Finding:
    """Drift's "?" for such a value missing from the text."""
    return Finding(CODE, key, f"the {kind} “{value}” ({key}) is not in generation {generation}'s text, but "
                   + reason(generation, at, replaced_in_text) + ".", "warning", words=(value,))


__all__ = ["CODE", "corrected_after", "corrected_at", "late_reason", "note", "reason", "replaced_in"]
