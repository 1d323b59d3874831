"""Go's test output counted, for the numbers a summary repeats (``output_misstated``, verdict-twelve).

``go test`` prints no "N passed, M failed" line: one line per package (``ok  \\tshop.io/cart\\t0.011s``,
``FAIL\\tshop.io/api\\t0.020s``, ``?   \\tshop.io/cmd\\t[no test files]``) and one per failing test
(``--- FAIL: TestDiscount (0.00s)``; with ``-v`` also ``--- PASS: …``). So "All 12 packages pass" or
"3 tests failed" over Go output was never compared with anything (verdict-ten #3, verdict-eleven #2).
Counted here from those lines, per run:

* packages — passed (``ok``), failed (``FAIL\\tpkg``), without tests (``?``). "N packages pass"
  agrees with the ``ok`` count only: a package without tests ran nothing and passed nothing
  (verdict-thirteen; "all 4 packages pass" when three ran tests and one has none is wrong, as "2
  packages pass" over one ``ok`` and one without tests); a total ("3 of 4 packages") may count them
  or not; "N packages failed" with the FAIL count; "all N packages pass" also needs no FAIL line;
* tests — failed: ``--- FAIL:`` lines at the start of a line (top-level tests), or every such line
  (subtests indented) — either count agrees; passed: ``--- PASS:`` the same way, and only when the run
  printed them (``-v``): a run without ``-v`` does not say how many tests passed, so "40 tests passed"
  is not judged against it.

In a sentence that names packages, a bare "2 passed" counts packages. A sentence agrees when any Go
run in range printed counts that agree with every count it gives (as the other families) — or, when
its clause cites runs, one of those (count_words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.plurals import counted

_OK = re.compile(r"(?m)^ok\s+\S+\s")
_FAIL_PKG = re.compile(r"(?m)^FAIL\s+\S+\s+(?:[\d.]+s|\(cached\)|\[[^\]]*\])\s*$")
_NO_TESTS = re.compile(r"(?m)^\?\s+\S+\s+\[no test files\]")
_RAN_NONE = re.compile(r"(?m)^ok\s+\S+\s+\S+\s+\[no tests to run\]")
_TEST = re.compile(r"(?m)^(\s*)--- (FAIL|PASS): \S")

_PKG_WORD = re.compile(r"(?<![a-z])packages?(?![a-z])|个包|个\s*package")
_PKG_ALL = re.compile(r"\ball (\d+) (?:go )?packages? (?:now )?(?:pass(?:es|ed)?|are (?:passing|green|ok)|succeed(?:ed)?)\b|"
                      r"(\d+)\s*个包\s*(?:全部|都)\s*通过")
_PKG_OF = re.compile(r"(\d+)\s*(?:of|/)\s*(\d+)\s+(?:go\s+)?packages?\s+(?:now\s+)?(?:pass|passed|passing|are passing)\b")
_PKG_COUNT = re.compile(r"(?<![\w.])(\d+)\s*(?:go\s+)?(?:packages?\s+|个包\s*|个\s*)?(?:now\s+|all\s+|are\s+)?"
                        r"(passed|passing|pass(?:es)?|ok|failed|failing|fails?|通过|失败)(?![a-z])")
_TEST_COUNT = re.compile(r"(?<![\w.])(\d+)\s*(?:go\s+)?(?:tests?|个测试|个用例)\s*(?:now\s+|all\s+|are\s+)?"
                         r"(passed|passing|pass(?:es)?|failed|failing|fails?|通过|失败)(?![a-z])|"
                         r"(?<![\w.])(\d+)\s+(failing|passing)\s+tests?\b")


@dataclass(frozen=True, slots=True)
class GoRun:
    """What one Go test run printed, counted."""

    seq: int
    ok: int
    failed: int
    no_tests: int
    tests_failed: frozenset[int]  # top-level count, and the count with subtests
    tests_passed: frozenset[int] | None  # None: the run printed no --- PASS lines (not -v)
    line: str  # a line to quote


# A package line opens its line ("ok  \tpkg", "FAIL\tpkg"); a test line may be indented (a subtest).
_KEYS = ("\nok ", "\nFAIL", "--- FAIL: ", "--- PASS: ", "[no test files]")


def _go_lines(text: str) -> str:
    """The lines of ``text`` that may be Go's package or test lines, joined: found by ``str.find``
    (every test run's output of a session is asked whenever a summary gives a count, and a
    build log's "… ok" lines are no Go lines: a regex over each whole output cost a third of drift)."""
    text = "\n" + text
    starts: set[int] = set()
    for key in _KEYS:
        at = text.find(key)
        while at >= 0:
            starts.add(at + 1 if key.startswith("\n") else text.rfind("\n", 0, at) + 1)
            end = text.find("\n", at + 1)
            at = text.find(key, end) if end >= 0 else -1
    out = []
    for begin in sorted(starts):
        end = text.find("\n", begin)
        out.append(text[begin:end if end >= 0 else len(text)])
    return "\n".join(out)


def go_run(seq: int, output: str) -> GoRun | None:
    """The counts of a Go test run's output, or None when it printed no Go package or test line."""
    lines = _go_lines(output)
    if not lines:
        return None
    idle = len(_RAN_NONE.findall(lines))  # "ok  pkg 0.005s [no tests to run]": a -run that matched nothing
    ok, failed, none = len(_OK.findall(lines)) - idle, len(_FAIL_PKG.findall(lines)), len(_NO_TESTS.findall(lines)) + idle
    tests = _TEST.findall(lines)
    if not (ok or failed or none or tests):
        return None
    top_f = sum(1 for indent, what in tests if what == "FAIL" and not indent)
    all_f = sum(1 for _, what in tests if what == "FAIL")
    top_p = sum(1 for indent, what in tests if what == "PASS" and not indent)
    all_p = sum(1 for _, what in tests if what == "PASS")
    parts = [f"{ok} “ok” and {failed} “FAIL” package " + ("line" if ok + failed == 1 else "lines")]
    parts += [counted(none, "package") + " that ran no test"] if none else []
    if tests:
        shown = top_f + (top_p if all_p else 0)
        parts.append(f"{top_f} “--- FAIL:”" + (f" and {top_p} “--- PASS:”" if all_p else "") +
                     (" test line" if shown == 1 else " test lines"))
    line = ", ".join(parts)
    return GoRun(seq, ok, failed, none, frozenset({top_f, all_f}), frozenset({top_p, all_p}) if all_p else None, line)


def _claims(s: str) -> tuple[dict[str, int], dict[str, int]]:
    """The package counts and the test counts a sentence gives (Go's families)."""
    pkgs: dict[str, int] = {}
    tests: dict[str, int] = {}
    names_packages = _PKG_WORD.search(s) is not None
    for m in _TEST_COUNT.finditer(s):
        n, word = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        tests.setdefault("failed" if word.startswith("fail") or word == "失败" else "passed", int(n))
    if names_packages:
        rest = _TEST_COUNT.sub(" ", s)
        for m in _PKG_ALL.finditer(rest):
            n = int(next(g for g in m.groups() if g))
            pkgs.update(passed=n, failed=0)
        for m in _PKG_OF.finditer(rest):
            pkgs.update(passed=int(m.group(1)), total=int(m.group(2)))
        for n, word in _PKG_COUNT.findall(_PKG_ALL.sub(" ", _PKG_OF.sub(" ", rest))):
            pkgs.setdefault("failed" if word.startswith("fail") or word == "失败" else "passed", int(n))
    return pkgs, tests


def _agrees(run: GoRun, pkgs: dict[str, int], tests: dict[str, int]) -> bool | None:
    """Whether the run printed counts that agree with every count given; None when it printed
    none of the counts given (a run without ``-v`` says nothing of tests passed)."""
    judged = False
    for key, n in pkgs.items():
        if not (run.ok or run.failed or run.no_tests):
            return None
        judged = True
        if key == "passed" and n != run.ok:  # a package without tests passed nothing (no_tests_ran)
            return False
        if key == "failed" and n != run.failed:
            return False
        if key == "total" and n not in (run.ok + run.failed, run.ok + run.failed + run.no_tests):
            return False
    for key, n in tests.items():
        seen = run.tests_failed if key == "failed" else run.tests_passed
        if seen is None:
            continue
        judged = True
        if n not in seen:
            return False
    return True if judged else None


def go_judged(s: str, runs: list[GoRun]) -> tuple[tuple[str, ...], str] | bool | None:
    """A sentence's Go counts against the Go runs: None (it gives none, or no run printed them),
    True (a run agrees), or (its words, what the last run printed) when none agrees."""
    if not runs:
        return None
    pkgs, tests = _claims(s)
    if not pkgs and not tests:
        return None
    seen = [(r, _agrees(r, pkgs, tests)) for r in runs]
    judged = [(r, a) for r, a in seen if a is not None]
    if not judged:
        return None
    if any(a for _, a in judged):
        return True
    run = judged[-1][0]
    words = tuple(f"{counted(n, 'package')} {k}" for k, n in pkgs.items()) + \
        tuple(f"{counted(n, 'test')} {k}" for k, n in tests.items())
    return words, f"the Go run evt:{run.seq} printed {run.line}"


__all__ = ["GoRun", "go_judged", "go_run"]
