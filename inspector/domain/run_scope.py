"""What a test run covered, and where a failing one failed: to pair runs by suite, not by command.

verdict-eleven paired runs by their command string alone: "`go test ./cart/` passes" beside a failed
`go test ./...` was read as the failed run going well (a false alarm), a later `go test ./...` that
passed did not resolve an earlier `go test ./cart/` failure, and a passing `go test ./cart/` made
"The build is green." a "?" even when the wider run had failed in another package. Here a command
of a runner whose arguments say what it runs is read into a :class:`Scope`:

* ``go test [flags] PATTERN…`` — packages (``./...`` all, ``./cart/`` one, ``./cart/...`` a tree);
  ``-run``/``-skip``/``-short`` narrow it to tests no output lists: *filtered*;
* ``pytest`` / ``python -m pytest`` ``PATH…`` — files and folders; ``-k``, ``-m``, ``--lf``, a
  ``::`` node id: *filtered*;
* ``cargo test [FILTER]`` — test names holding FILTER;
* ``jest`` / ``vitest`` ``PATTERN…`` — test files whose path holds the pattern; ``-t``: *filtered*.

Anything else — another runner, a flag not listed here, a pipe into another runner, a script — has
no scope (None): what it ran cannot be known, and the rules using this say "?" there. Two commands
are compared only when what runs before the runner (``cd dir &&``, ``VAR=1``) is the same.

Where a failing run failed (:func:`failed_units`): Go's ``FAIL\\tpkg`` lines, pytest's ``FAILED
path::test`` / ``ERROR path``, jest's ``FAIL path``, cargo's ``test name ... FAILED``. None when the
output names no unit (a panic with no FAIL line): where it failed is then not known.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass

ALL = None  # a scope's units when it runs everything its runner finds


@dataclass(frozen=True, slots=True)
class Scope:
    runner: str  # go, pytest, cargo, jest, vitest
    before: str  # what runs ahead of the runner in the same command ("cd api &&", "CGO_ENABLED=0")
    units: frozenset[str] | None  # package patterns, paths or name filters; None: all of them
    filtered: bool  # a filter on test names no output lists (-run, -k, -t): which tests ran is not known


_GO_VALUE = frozenset({"-timeout", "-count", "-p", "-parallel", "-tags", "-coverprofile", "-covermode", "-coverpkg",
                       "-cpu", "-o", "-exec", "-ldflags", "-gcflags", "-bench", "-benchtime", "-mod", "-json=false"})
_GO_FLAG = frozenset({"-v", "-race", "-cover", "-json", "-failfast", "-benchmem", "-vet=off", "-x", "-trimpath"})
_GO_FILTER = frozenset({"-run", "-skip", "-short", "-list"})
_PY_VALUE = frozenset({"-n", "-p", "--maxfail", "--tb", "-c", "--rootdir", "-W", "-o", "--cov", "--junitxml",
                       "--durations", "--timeout", "--dist", "-r"})
_PY_FILTER = frozenset({"-k", "-m", "--lf", "--last-failed", "--ff", "--deselect", "--sw", "--stepwise"})
_PY_FLAG = re.compile(r"-[qvxslr]+|--(?:quiet|verbose|exitfirst|no-header|color=\w+|tb=\w+|cov(?:=\S+)?|"
                      r"cov-report=\S+|maxfail=\d+|durations=\d+|disable-warnings|strict-markers|capture=\w+|"
                      r"timeout=\d+|junitxml=\S+|showlocals)")
_JS_FILTER = frozenset({"-t", "--testNamePattern", "--onlyChanged", "-o", "--changedSince", "--findRelatedTests"})
_JS_FLAG = re.compile(r"--(?:ci|silent|verbose|runInBand|watchAll=false|coverage|passWithNoTests|no-cache|"
                      r"colors|json)|-i|run")
_CARGO_FLAG = frozenset({"--all", "--workspace", "--release", "-q", "--quiet", "--all-features", "--lib", "--locked"})


def _words(command: str) -> list[str] | None:
    try:
        return shlex.split(command)
    except ValueError:
        return None


def scope(command: str) -> Scope | None:
    """What ``command`` ran, or None when it cannot be read (the module's rules)."""
    main = re.split(r"\s*(?:\|\||\||;)\s*", command.strip())[0]  # what a pipe or `;` adds after it ran nothing more
    parts = re.split(r"\s*&&\s*", main)
    for i, part in enumerate(parts):
        words = _words(part)
        if not words:
            return None
        before = [*parts[:i]]
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
            before.append(words.pop(0))
        words = [w for w in words if w not in ("2>&1",)]
        got = _runner(words)
        if got is not None:
            runner, args = got
            read = _READERS[runner](args)
            if i != len(parts) - 1 and read is not None:
                return None  # something ran after the runner: what the output shows is not only its
            return None if read is None else Scope(runner, " && ".join(before), read[0], read[1])
    return None


def _runner(words: list[str]) -> tuple[str, list[str]] | None:
    if words[:2] == ["go", "test"]:
        return "go", words[2:]
    if words[:2] == ["cargo", "test"]:
        return "cargo", words[2:]
    for lead in (["pytest"], ["py.test"], ["python", "-m", "pytest"], ["python3", "-m", "pytest"],
                 ["uv", "run", "pytest"], ["poetry", "run", "pytest"]):
        if words[:len(lead)] == lead:
            return "pytest", words[len(lead):]
    for lead, name in ((["npx", "jest"], "jest"), (["jest"], "jest"), (["npx", "vitest"], "vitest"),
                       (["vitest"], "vitest")):
        if words[:len(lead)] == lead:
            return name, words[len(lead):]
    return None


@dataclass(frozen=True, slots=True)
class _Flags:
    """A runner's flags as far as a scope needs them: which narrow the run to tests no output lists
    (and which of those take the next word as their value), which take a value, which are plain."""

    filters: frozenset[str]
    filters_taking_value: frozenset[str]
    values: frozenset[str]
    is_flag: Callable[[str], bool]


_GO = _Flags(_GO_FILTER, _GO_FILTER - {"-short"}, _GO_VALUE, _GO_FLAG.__contains__)
_PY = _Flags(_PY_FILTER, frozenset({"-k", "-m", "--deselect"}), _PY_VALUE, lambda a: bool(_PY_FLAG.fullmatch(a)))
_JS = _Flags(_JS_FILTER, frozenset({"-t", "--testNamePattern", "--changedSince"}), frozenset(),
             lambda a: bool(_JS_FLAG.fullmatch(a)))


def _walk(args: list[str], flags: _Flags) -> tuple[list[str], bool] | None:
    """The words that are not flags (nor a flag's value), and whether a filter narrowed the run;
    None at a flag the runner's table does not hold (what it does to the run is not known)."""
    words: list[str] = []
    filtered, skip = False, False
    for a in args:
        if skip:
            skip = False
            continue
        name = a.split("=", 1)[0]
        if a.startswith("-"):
            if name in flags.filters:
                filtered = True
                skip = "=" not in a and name in flags.filters_taking_value
            elif name in flags.values:
                skip = "=" not in a
            elif not flags.is_flag(a):
                return None
            continue
        words.append(a)
    return words, filtered


def _go(args: list[str]) -> tuple[frozenset[str] | None, bool] | None:
    if (walked := _walk(args, _GO)) is None:
        return None
    units = [_norm(a) for a in walked[0]]
    if not units or "" in units or "." in units:
        return None  # the current folder's package: which one is not known
    return (ALL if "..." in units else frozenset(units)), walked[1]


def _pytest(args: list[str]) -> tuple[frozenset[str] | None, bool] | None:
    if (walked := _walk(args, _PY)) is None:
        return None
    words, filtered = walked
    units = [_norm(a.split("::", 1)[0]) for a in words]
    filtered = filtered or any("::" in a for a in words)
    return (frozenset(units) if units and "" not in units else ALL), filtered


def _cargo(args: list[str]) -> tuple[frozenset[str] | None, bool] | None:
    if "--" in args:
        args = args[:args.index("--")]
    names = []
    for a in args:
        if a.startswith("-"):
            if a not in _CARGO_FLAG:
                return None
            continue
        names.append(a)
    if len(names) > 1:
        return None
    return (frozenset(names) if names else ALL), False


def _js(args: list[str]) -> tuple[frozenset[str] | None, bool] | None:
    if (walked := _walk(args, _JS)) is None:
        return None
    units = [_norm(a) for a in walked[0] if a != "run"]
    return (frozenset(units) if units and "" not in units else ALL), walked[1]


_READERS = {"go": _go, "pytest": _pytest, "cargo": _cargo, "jest": _js, "vitest": _js}


def _norm(path: str) -> str:
    p = path.strip()
    while p.startswith("./"):
        p = p[2:]
    return "..." if p in ("...", "/...") else p.rstrip("/")


def _within(runner: str, unit: str, pattern: str) -> bool:
    """Whether ``unit`` (a failed package, file or test, or another scope's pattern) is among what
    ``pattern`` runs."""
    if runner == "go":
        if pattern.endswith("/..."):
            root = pattern[:-4]
            return unit == root or unit.startswith(root + "/") or ("/" + root + "/") in "/" + unit + "/"
        return unit == pattern or unit.endswith("/" + pattern)  # a failed package's import path ends with it
    if runner == "cargo":
        return pattern in unit
    if runner in ("jest", "vitest"):
        return pattern in unit
    return unit == pattern or unit.startswith(pattern + "/")


def covers(wide: Scope | None, narrow: Scope | None) -> bool:
    """Whether ``wide`` ran everything ``narrow`` ran (so a pass of ``wide`` answers a failure of
    ``narrow``). False whenever it cannot be known."""
    if wide is None or narrow is None or wide.runner != narrow.runner or wide.before != narrow.before:
        return False
    if wide.filtered and wide != narrow:
        return False
    if wide.units is ALL:
        return True
    if narrow.units is ALL:
        return False
    return all(any(u == p or _within(wide.runner, u, p) for p in wide.units) for u in narrow.units)


_GO_FAILED = re.compile(r"(?m)^FAIL\s+(\S+)\s+(?:[\d.]+s|\[[^\]]*\])\s*$")
_PY_FAILED = re.compile(r"(?m)^(?:FAILED|ERROR)\s+([^\s:]+)(?:::|\s|$)")
_JS_FAILED = re.compile(r"(?m)^\s*FAIL\s+(\S+)")
_CARGO_FAILED = re.compile(r"(?m)^test\s+(\S+)\s+\.\.\.\s+FAILED")
_UNIT_LINES = {"go": _GO_FAILED, "pytest": _PY_FAILED, "jest": _JS_FAILED, "vitest": _JS_FAILED, "cargo": _CARGO_FAILED}


def failed_units(runner: str, output: str) -> frozenset[str] | None:
    """The packages, files or tests a failing run of ``runner`` names as failed; None when it names none."""
    found = frozenset(_norm(u) for u in _UNIT_LINES[runner].findall(output[:200_000]))
    return found or None


def rerun(failing: Scope, output: str, other: Scope) -> tuple[int, int] | None:
    """How many of the failing run's failed units ``other`` runs, and how many it does not; None
    when that cannot be known (another runner or folder, a name filter, no unit named)."""
    if failing.runner != other.runner or failing.before != other.before or other.filtered:
        return None
    units = failed_units(failing.runner, output)
    if units is None:
        return None
    inside = len(units) if other.units is ALL else sum(
        1 for u in units if any(_within(other.runner, u, p) for p in other.units))
    return inside, len(units) - inside


__all__ = ["ALL", "Scope", "covers", "failed_units", "rerun", "scope"]
