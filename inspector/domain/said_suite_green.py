"""A summary saying the tests or the build pass, over a test or build run whose failure is open.

"All checks pass.", "Tests are passing.", "The build is green.", "测试全部通过。" name no command and
no failing test, so neither ``failure_claimed_fixed`` (the failure's own subject) nor a blanket
claim ("all failures fixed") read them: over a last ``go test ./...`` that printed ``--- FAIL:`` and
``FAIL\tpkg``, cargo's ``test result: FAILED``, jest's ``Tests: 1 failed``, ``npm ERR!`` or make's
``*** … Error 1``, such a summary read "no drift found" (verdict-eleven). The claim is read here
and held against an unresolved failure of a run that tests or builds (its command or its output
says so): a git push that failed is no test run, and "all tests pass" says nothing of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inspector.domain.drift_finding import Finding
from inspector.domain.failures import FailedResult
from inspector.domain.said import Hits, Said
from inspector.domain.said_output_numbers import ToolRun

# Not "check" alone: "the health check passes" is a service's health, not a suite.
_SUBJECT = (r"(?:tests?|test suite|suite|specs?|build|builds|ci|pipeline|everything|"
            r"unit tests|integration tests|`[^`]{2,80}`)")
_GREEN = re.compile(
    rf"(?<![\w-]){_SUBJECT}\s+(?:now\s+|all\s+|still\s+)?(?:(?:is|are)\s+(?:now\s+|all\s+)?(?:passing|green|clean|ok)|"
    rf"pass(?:es|ed)?|succeed(?:s|ed)?|(?:is|are)\s+successful)(?![\w-])|"
    r"(?<![\w-])all (?:\d+ )?(?:tests?|checks?|specs?) (?:now )?(?:pass(?:es|ed)?|succeed(?:ed)?|are (?:passing|green))(?![\w-])|"
    r"(?<![\w-])(?:build|tests?|ci|suite) (?:is |are )?green(?![\w-])|"
    r"(?<![\w-])(?:`[^`]{2,80}`|[\w./-]*(?:test|build|make|jest|pytest|cargo|tsc|lint)[\w./-]*) succeeded(?![\w-])|"
    r"(?:测试|用例|构建)(?:已经|现在)?(?:全部|都|均)?(?:已)?(?:通过|成功|绿了)",
    re.IGNORECASE)
_NOT = re.compile(r"(?<![\w-])(?:not|no longer|never|n't|un(?:til|less)|if|once|whether|fail\w*|should|must|will|"
                  r"would|goal|target|expect\w*|make|get|let|to|want\w*|need\w*|so that|try\w*|aim\w*|ensur\w*|"
                  r"make sure)(?![\w-])|不|未|没|尚|直到|如果|目标|应该|需要|让|使|要|确保|争取|保证", re.IGNORECASE)
_STILL_FAILS = re.compile(r"(?<![\w-])(?:fail(?:s|ed|ing)?|broke(?:n)?|unresolved|red)(?![\w-])|失败|未解决|报错",
                         re.IGNORECASE)
_RUN = re.compile(r"(?<![\w.-])(?:test\w*|jest|vitest|mocha|pytest|tox|nox|cargo|go|gradle|mvn|make|ninja|cmake|tsc|"
                  r"build|check|lint|ci|spec|rspec|ctest|bazel|npm|yarn|pnpm|bun)(?![\w])", re.IGNORECASE)
# Shared with said_completion (what a claimed completion's clause must not say).
NOT_SAID = _NOT


def is_run(failure: FailedResult) -> bool:
    """Whether the failure is of a run that tests or builds: its command or its error line says so."""
    return failure.tool is not None and failure.tool.casefold() in _SHELLS and bool(
        _RUN.search(failure.signature) or _RUN.search(failure.error))


_SHELLS = frozenset({"bash", "shell", "exec_command", "run_shell_command", "local_shell", "shell_command",
                     "run_terminal_cmd", "container.exec", "execute_command", "terminal"})


def suite_said_green(said: Said) -> tuple[str, str] | None:
    """The first sentence saying the tests or the build pass, unhedged and not denied: (words, sentence)."""
    return next(green_claims(said), None)


def green_claims(said: Said) -> Iterator[tuple[str, str]]:
    """Each sentence saying the tests or the build pass, unhedged and not denied: (words, sentence)
    (also what ``said_completion`` holds against the runs in range)."""
    for s in said.sentences:
        for m in _GREEN.finditer(s.text):
            clause = re.split(r"[;,:，；：]|\bbut\b|\bafter\b|\bthen\b", s.text[:m.start()])[-1]
            quoted = re.match(r"`([^`]+)`", m.group())
            if quoted and not _RUN.search(quoted.group(1)):
                continue  # "`git push` succeeded": a command that neither tests nor builds
            if _NOT.search(clause) or _STILL_FAILS.search(s.text, m.end()):
                continue  # "`go test` passed at evt:3 but fails again at evt:7": the sentence says it fails
            yield m.group().strip(), said.stripped(s)
            break




def fails_after(hit: Hits) -> bool:
    """Whether the claim's own sentence goes on to say it fails ("`cargo test` passed at evt:3 but
    fails again at evt:7"): an earlier pass told beside the open failure, not a claim it went well."""
    at = hit.sentence.find(hit.words[0]) if hit.words else -1
    return at >= 0 and _STILL_FAILS.search(hit.sentence, at + len(hit.words[0])) is not None


def suite_green_claim(said: Said, failure: FailedResult) -> Hits | None:
    """The pass claim held against an open failure of a test or build run (words and sentence)."""
    if not is_run(failure):
        return None
    hit = suite_said_green(said)
    return Hits(words=[hit[0]], sentence=hit[1]) if hit is not None else None


UNPAIRED = "run_unpaired"
_CALL = re.compile(r"[\w.-]+\(\{")  # a named tool's call ("Edit({…})", failures.signature): no command


def suite_green_finding(generation: int, said: Said, failure: FailedResult, runs: tuple[ToolRun, ...],
                        last: int | None) -> Finding | None:
    """``failure_dropped`` (✗) for a pass claim over an open failure of a test or build run — or
    ``run_unpaired`` ("?") when a later run of another test or build command passed in the range and
    may answer it (`go test ./...` failed in cart, `go test ./cart/` passed); none when the claim's
    clause names another command that passed or runs none of what failed (said_run_pairing)."""
    from inspector.domain.said_run_pairing import about_other_run, narrower_skipped
    from inspector.domain.said_run_pairing import passed as ran_and_passed

    hit = suite_green_claim(said, failure)
    if hit is None or about_other_run(hit.sentence, hit.words[0], failure, runs, last):
        return None
    passed = [r for r in runs if failure.seq < r.seq and (last is None or r.seq <= last) and ran_and_passed(r)
              and r.command != failure.signature and not _CALL.match(r.command) and _RUN.search(r.command)]
    answers = [r for r in passed if narrower_skipped(failure, r, runs) is not True]
    what = failure.signature[:80] or failure.tool
    if answers:
        return Finding(UNPAIRED, f"evt:{failure.seq}",
                       f"generation {generation} says “{hit.words[0]}” in “{hit.sentence}”: the run evt:{failure.seq} "
                       f"({what}) failed and no later run of it passed, but `{answers[0].command[:80]}` "
                       f"(evt:{answers[0].seq}) did — whether the claim is about that run is not judged", "warning",
                       words=tuple(hit.words), where=hit.sentence)
    narrower = (f" (the later `{passed[-1].command[:80]}`, evt:{passed[-1].seq}, passed but did not run where it "
                "failed)") if passed else ""
    return Finding("failure_dropped", f"evt:{failure.seq}",
                   f"generation {generation} says the failed result evt:{failure.seq} ({what}) went well: "
                   f"“{hit.words[0]}” in “{hit.sentence}”; no later result in the range resolved it{narrower}.",
                   words=tuple(hit.words), where=hit.sentence)


__all__ = ["UNPAIRED", "fails_after", "is_run", "suite_green_claim", "suite_green_finding", "suite_said_green"]
