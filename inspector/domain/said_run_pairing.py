"""Which run a summary's pass claim is about, when the log holds runs of several test commands.

verdict-eleven held any pass claim against every open test failure by words alone: "after the edit
`go test ./cart/` passes (evt:7)" beside a failed `go test ./...` was read as the failed run going
well (``failure_dropped``, a false alarm: the clause names another command, and that command did
pass), and "The build is green." after the wider run failed in `shop.io/api` and only `go test
./cart/` ran again was a "?" (``run_unpaired``) though that run never ran the failing package.
Here, by what each run covered (``run_scope``):

* a claim whose clause names another command (in backticks, or a run's command as written) is about
  that command, not the failure, when that command ran later in the range and passed, or when it
  runs none of the failure's failed packages/files/tests — unless the clause names the failure's
  own command or cites its evt too; so is a clause citing a later passing run's ``evt:N`` (not one
  claiming everything: "All tests pass (evt:7)"), or naming what that run ran ("the cart tests pass"
  of `go test ./cart/`) and nothing of where the failure failed ("api" of ``FAIL shop.io/api``);
* a pass claim in general words, over a failure whose later narrower re-run skipped where it failed,
  is ``failure_dropped`` (✗), naming both runs; where the re-run covered every failed unit, or
  where what either covered cannot be read, it stays ``run_unpaired`` ("?").
"""

from __future__ import annotations

import re

from inspector.domain.failures import FailedResult
from inspector.domain.no_tests_ran import ran_no_tests
from inspector.domain.run_scope import Scope, failed_units, rerun, scope
from inspector.domain.said_output_numbers import ToolRun

_CLAUSE_END = re.compile(r"[;；。]|(?<=[.,:，：])\s|\bbut\b|\bafter\b|\bthen\b|\bwhile\b|\bwhereas\b")
# A claim about everything ("All tests pass (evt:7)") is not about one run because it cites it.
_WHOLE = re.compile(r"(?<![\w-])(?:all|every\w*|whole|entire|suite|build|ci|pipeline)(?![\w-])|全部|所有|整个", re.IGNORECASE)
_QUOTED = re.compile(r"`([^`\n]{2,200})`")


def _one(command: str) -> str:
    return " ".join(command.split()).casefold()


def _clause(sentence: str, word: str) -> str:
    """The clause of ``sentence`` that holds ``word`` (the claim), or the sentence when not found."""
    at = sentence.casefold().find(word.casefold()) if word else -1
    if at < 0:
        return sentence
    starts = [m.end() for m in _CLAUSE_END.finditer(sentence, 0, at)]
    end = _CLAUSE_END.search(sentence, at + len(word))
    return sentence[starts[-1] if starts else 0:end.start() if end else len(sentence)]


def named_commands(clause: str, runs: tuple[ToolRun, ...]) -> list[str]:
    """The commands a clause names: backticked text, and any run's command written out whole."""
    out = [_one(q) for q in _QUOTED.findall(clause)]
    low = " ".join(_QUOTED.sub(" ", clause).split()).casefold()  # "pytest" inside `pytest tests/x.py` is not named
    out += [_one(r.command) for r in runs if len(r.command) >= 6
            and re.search(rf"(?<![\w./-]){re.escape(_one(r.command))}(?![\w./-])", low)]
    return list(dict.fromkeys(out))


def about_other_run(sentence: str, word: str, failure: FailedResult, runs: tuple[ToolRun, ...],
                    last: int | None) -> bool:
    """Whether the claim ``word`` in ``sentence`` is about another command than the failure's (the
    module's first rule)."""
    clause = _clause(sentence, word)
    named = named_commands(clause, runs)
    own = _one(failure.signature)
    if own in named or _cites(clause, failure.seq):
        return False
    failing = scope(failure.signature)
    output = next((r.output for r in runs if r.seq == failure.seq), "")
    later = [r for r in runs if failure.seq < r.seq and (last is None or r.seq <= last) and passed(r)
             and _one(r.command) != own]
    if (any(_cites(clause, r.seq) for r in later) and not _WHOLE.search(clause)) or \
            _names_unit_of(clause, later, failing, output):
        return True  # "… (evt:7)" of the later run, or "the cart tests pass" of `go test ./cart/`
    for command in named:
        if any(_one(r.command) == command and failure.seq < r.seq and (last is None or r.seq <= last) and passed(r)
               for r in runs):
            return True  # it ran later and passed: the claim is true of it, and says nothing of the failure
        other = scope(command)
        counted = rerun(failing, output, other) if failing is not None and other is not None else None
        if counted is not None and counted[0] == 0:
            return True  # it runs none of what failed
    return False


def passed(run: ToolRun) -> bool:
    """A run that did not fail and ran a test: one that ran none passed nothing (no_tests_ran)."""
    return not run.failed and not ran_no_tests(run.output)


def _cites(clause: str, seq: int) -> bool:
    return re.search(rf"(?<![\w:])evt:{seq}(?!\d)", clause) is not None


def _last_part(unit: str) -> str:
    """The telling word of a scope unit: "cart" of ``cart/...``, ``shop/cart``; "test_cart" of a file."""
    part = unit.removesuffix("/...").rstrip("/").rsplit("/", 1)[-1]
    return part.rsplit(".", 2)[0] if "." in part else part


def _names_unit_of(clause: str, later: list[ToolRun], failing: Scope | None, output: str) -> bool:
    """The clause names what a later passing run ran ("the cart tests" of `go test ./cart/`) and
    nothing of where the failure failed ("api" of ``FAIL shop.io/api``)."""
    low = clause.casefold()

    def said(word: str) -> bool:
        return len(word) >= 3 and re.search(rf"(?<![\w-]){re.escape(word.casefold())}(?![\w-])", low) is not None

    failed = failed_units(failing.runner, output) if failing is not None else None
    if failed is None or any(said(_last_part(u)) for u in failed):
        return False
    for r in later:
        other = scope(r.command)
        if other is not None and other.units is not None and any(said(_last_part(u)) for u in other.units):
            return True
    return False


def narrower_skipped(failure: FailedResult, passed: ToolRun, runs: tuple[ToolRun, ...]) -> bool | None:
    """Whether ``passed`` (a later run of another command) skipped where ``failure`` failed: True (a
    pass of it cannot answer the failure), False (it re-ran every failed unit), None (not known)."""
    failing, other = scope(failure.signature), scope(passed.command)
    if failing is None or other is None:
        return None
    output = next((r.output for r in runs if r.seq == failure.seq), "")
    counted = rerun(failing, output, other)
    return None if counted is None else counted[1] > 0


__all__ = ["about_other_run", "named_commands", "narrower_skipped", "passed"]
