"""Survival's reading of a failure record beside the log's runs (verdict-twelve): a done claim
paired with the run its clause names (said_run_pairing, as drift pairs it), and what a failure the
user pasted is about (facts_pasted: its line's telling words, for a done claim).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from inspector.domain.failures import FailedResult
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_run_pairing import about_other_run as _about
from inspector.domain.textnorm import terms

if TYPE_CHECKING:
    from inspector.domain.survival import Fact


def about_other_run(claim: Any, fact: Fact, runs: tuple[ToolRun, ...], last: int | None) -> bool:
    """Whether a done claim over a failure record is about another command's run (drift's rule)."""
    seqs = fact.seq_numbers
    signature = str(fact.detail.get("signature") or "")
    if not seqs or not signature:
        return False
    failure = FailedResult(seqs[0], None, fact.detail.get("tool"), signature, "", None, ())
    return _about(claim.sentence, claim.words[0], failure, runs, last)


_FAIL_WORDS = frozenset({"failed", "fail", "fails", "failure", "error", "errors", "after", "with", "exit", "code",
                         "status", "the", "process", "exception", "fatal", "traceback"})


@lru_cache(maxsize=4096)
def pasted_subject(line: str) -> tuple[str, ...]:
    """What a pasted failure line is about, for a done claim: its first three telling words (not the
    failure words, not a duration or a number: "release", "notarize", "context" of "⨯ release failed
    after 22m5s error=notarize: context deadline exceeded")."""
    return tuple([t for t in terms(line) if len(t) >= 3 and t not in _FAIL_WORDS and not any(c.isdigit() for c in t)][:3])


__all__ = ["about_other_run", "pasted_subject"]
