"""Which long shell results no claim of a generation depends on: ``result_in_part`` per claim.

verdict-eleven made every shell result of 64,000+ characters whose read part did not fail a "?"
(``result_in_part``), whatever the summary said: its unread middle might hold a failure that
``failure_dropped`` would name. That is per result; what depends on the middle is a claim. A failure
there would change no verdict — so the result is not a "?" — when:

* **a later run answers it**: a run in the generation's range of the same command (or of one that ran
  all it ran, ``run_scope.covers``) read whole and not failing — any failure in the middle is then
  resolved, as ``failures.find_failures`` resolves one that was read;
* **the summary already says it failed**: a sentence naming the run (its ``evt:N`` or its command)
  says it failed, and no claim in the summary says it went well (a pass claim in general words, a
  done claim on its subject, a blanket "all failures fixed") — a failure in the middle would be
  "mentioned", and nothing would contradict it.

Test counts are not answered this way: a count printed only in the middle may be the only one a
summary's count can be compared with, so a summary giving counts keeps the "?" (result_in_part.py).
"""

from __future__ import annotations

import re

from inspector.domain.failures import FailedResult
from inspector.domain.no_tests_ran import ran_no_tests
from inspector.domain.result_in_part import LongResult
from inspector.domain.run_scope import covers as runs_all_of
from inspector.domain.run_scope import scope
from inspector.domain.said import Said
from inspector.domain.said_claims import blanket_claim
from inspector.domain.said_failures import _FAILED_WORD, failure_claimed_fixed
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_suite_green import suite_said_green
from inspector.domain.textnorm import find_word

# "nothing failed", "no failures", "did not fail", "0 failed": a failure word denied says it went well.
_DENIED = re.compile(r"(?<![\w])(?:nothing|no|not|none|never|without|zero|0|n't|未|没有?|无)(?:\W+\w+)?\W*$")


def answered(results: tuple[LongResult, ...], gen_covers: tuple[int, int] | None, text: str,
             runs: tuple[ToolRun, ...]) -> frozenset[int]:
    """The seqs of long results whose unread middle no claim of the generation depends on."""
    if not results:
        return frozenset()
    last = gen_covers[1] if gen_covers else None
    long_seqs = {r.seq for r in results}
    by_seq = {r.seq: r for r in runs}
    said: Said | None = None
    out = set()
    for r in results:
        run = by_seq.get(r.seq)
        if run is None:
            continue
        if _answered_later(run, runs, last, long_seqs):
            out.add(r.seq)
            continue
        said = said or Said.of(text)
        if _said_failed(said, run, runs, last):
            out.add(r.seq)
    return frozenset(out)


def _answered_later(run: ToolRun, runs: tuple[ToolRun, ...], last: int | None, long_seqs: set[int]) -> bool:
    mine = None
    for later in runs:
        if later.seq <= run.seq or (last is not None and later.seq > last) or later.failed or later.seq in long_seqs \
                or ran_no_tests(later.output):
            continue
        if later.command == run.command:
            return True
        mine = mine if mine is not None else scope(run.command) or False
        if mine and runs_all_of(scope(later.command), mine):
            return True
    return False


def _said_failed(said: Said, run: ToolRun, runs: tuple[ToolRun, ...], last: int | None) -> bool:
    """A sentence naming the run says it failed, and nothing in the summary says it went well."""
    names = [f"evt:{run.seq}", " ".join(run.command.split()).casefold()]
    named_failing = False
    for s in said.sentences:
        low = " ".join(s.text.split()).casefold()
        if any(n and (find_word(low, n) >= 0 if n.startswith("evt:") else n in low) for n in names) \
                and any(not _DENIED.search(low[max(0, m.start() - 24):m.start()]) for m in _FAILED_WORD.finditer(low)):
            named_failing = True
            break
    if not named_failing:
        return False
    as_failure = FailedResult(run.seq, None, "Bash", run.command, "", None, ())
    return (suite_said_green(said) is None and failure_claimed_fixed(said, as_failure, runs, last) is None
            and blanket_claim(said, "blanket_failure") is None)


__all__ = ["answered"]
