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
  own command too;
* a pass claim in general words, over a failure whose later narrower re-run skipped where it failed,
  is ``failure_dropped`` (✗), naming both runs; where the re-run covered every failed unit, or
  where what either covered cannot be read, it stays ``run_unpaired`` ("?").
"""

from __future__ import annotations

import re

from inspector.domain.failures import FailedResult
from inspector.domain.run_scope import rerun, scope
from inspector.domain.said_output_numbers import ToolRun

_CLAUSE_END = re.compile(r"[;；。]|(?<=[.,:，：])\s|\bbut\b|\bafter\b|\bthen\b|\bwhile\b|\bwhereas\b")
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
    named = named_commands(_clause(sentence, word), runs)
    own = _one(failure.signature)
    if not named or own in named:
        return False
    failing = scope(failure.signature)
    output = next((r.output for r in runs if r.seq == failure.seq), "")
    for command in named:
        if any(_one(r.command) == command and failure.seq < r.seq and (last is None or r.seq <= last) and not r.failed
               for r in runs):
            return True  # it ran later and passed: the claim is true of it, and says nothing of the failure
        other = scope(command)
        counted = rerun(failing, output, other) if failing is not None and other is not None else None
        if counted is not None and counted[0] == 0:
            return True  # it runs none of what failed
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


__all__ = ["about_other_run", "named_commands", "narrower_skipped"]
