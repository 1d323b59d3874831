"""A long tool result read only in part, where a finding could hide in its unread middle: "?".

Every rule reads an event through one window (domain/facts_window.py: whole under 64,000
characters, else its first 48,000 and last 16,000). For a user's message that is review-17's
``said_in_part``. For a tool result it was only drift's "! read in part" note, and the verdict
stayed clear: a ``go test -v ./...`` of 100,000 characters with ``--- FAIL: TestDiscount`` at
character 60,000 and ``ok`` at its end, under "All tests pass.", read "no drift found" and
``check`` ✓ (verdict-eleven).

Which rules depend on a result's middle:

* whether a shell run failed (``failures.failed``: test and build failure lines anywhere in its
  output; exit codes are read at its edges) — so ``failure_dropped`` and a goal called done over a
  failing run. A shell result read in part that the read part does not already show failing is
  "?": its middle may hold the failure. A failing one is already judged as failing.
* numbers a summary repeats from output (``output_misstated``: test counts, counts of errors) —
  any tool's result. Such a result is "?" only when the summary gives test counts or error
  counts, the numbers an output's middle holds; a Read of a long file under a summary that
  gives none of them is left as the note.

Per claim (verdict-twelve, result_in_part_claims.py): a shell result a later run of its command
answers, or one the summary already says failed with nothing saying it went well, is no "?" for
its failure — a failure in its middle would change no verdict.

Nothing else reads a tool result's words (facts are the user's; a rule in a tool result is
untrusted and read from the same window, listed by ``read_in_part``).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.domain.drift_finding import Finding
from inspector.domain.failures import SHELL_TOOLS

CODE = "result_in_part"


@dataclass(frozen=True, slots=True)
class LongResult:
    """A tool result every rule read only in part: its seq, its length, the tool that made it."""

    seq: int
    length: int
    tool: str


def at_risk(results: tuple[LongResult, ...], covers: tuple[int, int] | None, failing: frozenset[int],
            gives_counts: bool, answered: frozenset[int] = frozenset()) -> list[LongResult]:
    """The long results of the range whose unread middle could hold a finding (the module's rule);
    ``answered``: shell results whose middle no claim depends on (result_in_part_claims.py)."""
    out = []
    for r in results:
        if covers is not None and not covers[0] <= r.seq <= covers[1]:
            continue
        if r.tool.casefold() in SHELL_TOOLS and r.seq not in failing and r.seq not in answered:
            out.append(r)
        elif gives_counts:
            out.append(r)
    return out


def finding(r: LongResult) -> Finding:
    """The warning for one long result (a "?": part of every verdict's NOT_JUDGED)."""
    from inspector.domain.facts_window import HEAD, TAIL

    what = "a failure or a count it printed" if r.tool.casefold() in SHELL_TOOLS else "a count it printed"
    return Finding(CODE, f"evt:{r.seq}",
                   f"evt:{r.seq}, a {r.tool or 'tool'} result, holds {r.length:,} characters: every rule read its first "
                   f"{HEAD:,} and last {TAIL:,} only, so {what} in the rest is not judged (the event is stored, "
                   "shown and searched whole)", "warning")


__all__ = ["CODE", "LongResult", "at_risk", "finding"]
