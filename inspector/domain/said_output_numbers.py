"""Numbers a summary repeats from tool output, compared with what the output said (verdict-ten).

A summary that says "All 42 tests pass." over a last run that printed "41 passed, 1 failed", "make
lint found 2 errors" over "Found 3 errors.", "make lint exited with code 0" over "make: *** [lint]
Error 1", "Python 3.12 is installed" over "Python 3.11.4", or "dist/app.tar.gz is 4M" over "14M
dist/app.tar.gz" passed every rule: the rules judged protected records, and a number in a tool's
output is none. The numbers a reviewer acts on are read here, each family only where both sides
say it plainly:

- **test counts** — "N passed / failed / errors / skipped", "Ran N tests", "Tests: … N total" in
  an output; in the summary "N passed", "N failed", "all N tests pass", "N/M passing", "ran N
  tests", a Markdown table with passed/failed columns, "N 个(测试)通过 / 失败", "全部通过". A
  sentence is wrong when no run in range printed counts that agree with every count it gives (a
  total agrees with passed + failed, with errors and skipped added, or a printed total);
- **counts of errors, warnings, problems** ("Found 3 errors.", "3 个错误") in a sentence that
  reports them (not "fixed 2 errors"): wrong when no output in range printed that count;
- **exit codes** ("exited with code 0", "退出码为 1") in a sentence naming a command that ran:
  wrong when that command's runs all ended otherwise (an ``is_error`` result or "exit status N"
  / make's "Error N" is non-zero, any other result zero);
- **versions** ("Python 3.12 is installed", "Python 版本是 3.12") of a name an output printed
  with a version ("Python 3.11.4"): wrong unless the summary's version is the printed one or a
  prefix of it ("Python 3.11"); a sentence about an upgrade or a requirement is not read;
- **sizes** of a path an output printed with a size (du's "14M\tdist/app.tar.gz"): wrong when
  the sentence naming the path gives another size.

Each is ``output_misstated`` (a finding): the summary's words, the output's words and its evt.
A count in words that counts packages or tests ("both packages pass", "all three tests", "两个包都通过")
is read as digits, and a count is judged against the run its clause cites when it cites one (count_words).
Not read: other numbers in words ("one fails"), a count of something else in the same sentence
("added 3 tests"), a version or size whose name the output never printed with one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from inspector.domain.count_words import clauses_with_cites, digits, table_counts
from inspector.domain.drift_finding import Finding
from inspector.domain.failures import failed, signature
from inspector.domain.logevents import LogEvent
from inspector.domain.no_tests_ran import ran_no_tests
from inspector.domain.output_go import GoRun, go_judged, go_run
from inspector.domain.said import Said

_COUNT_WORD = {"passed": "passed", "pass": "passed", "passing": "passed", "failed": "failed", "failing": "failed",
               "fail": "failed", "fails": "failed", "error": "errors", "errors": "errors", "skipped": "skipped",
               "ignored": "skipped", "total": "total"}
_OUT_COUNTS = re.compile(r"(?<![\w.])(0|[1-9]\d*)\s+(passed|failed|errors?|skipped|ignored|total)\b")
_OUT_RAN = re.compile(r"\bran (\d+) tests?\b")
_OUT_TEST_LINE = re.compile(r"\bran \d+ tests?\b|\btests?:\s+\d+|test result:|"
                            r"(?<![\w.])(?:0|[1-9]\d*)\s+(?:passed|failed)\b.*(?:\bin [\d.]+\s*s\b|=====|;|,\s*\d+\s+\w+)|"
                            r"^=+ .*(?:passed|failed).* =+$")
_OUT_ISSUES = re.compile(r"(\d+)\s+(errors?|warnings?|problems?)\b")
_OUT_EXIT = re.compile(r"(?:exit (?:status|code)|exited with code|returncode|make: \*\*\* \[[^\]]*\] error)\s*[:=]?\s*(\d+)")
_OUT_VERSION = re.compile(r"(?<![\w.])([a-z][a-z+#-]{1,20})[ /:]+v?(\d+\.\d+(?:\.\d+)*)(?![\w.]|\.\d)")
_GO_VERSION = re.compile(r"\bgo version go(\d+\.\d+(?:\.\d+)*)")
_OUT_SIZE = re.compile(r"(?m)^\s*(\d+(?:\.\d+)?)\s?([kmgtp])i?b?\s+(\S+)\s*$")

_SAY_COUNTS = re.compile(r"(?<![\w.])(\d+)\s*(?:个|项)?\s*(?:tests?\s+|测试\s*|用例\s*)?(passed|passing|pass|failed|failing|fails?|"
                         r"errors?|skipped|通过|失败)(?![a-z])")
_SAY_ALL = re.compile(r"\ball (\d+) tests? (?:pass|passed|are passing|are green|succeed(?:ed)?)\b|"
                      r"(\d+)\s*个(?:测试|用例)?\s*全部通过|全部\s*(\d+)\s*个(?:测试|用例)?\s*(?:都)?通过")
_SAY_RATIO = re.compile(r"(\d+)\s*/\s*(\d+)\s*(?:tests?\s+)?(?:passing|pass(?:ed)?|通过)")
_SAY_TOTAL = re.compile(r"(?:\bran|\bruns|\bhas|\bhave|\bof|\btotal of|共|一共)\s*(\d+)\s*(?:个)?\s*(?:tests?|测试|用例)")
_SAY_PACKAGES = re.compile(r"\d+\s*(?:go\s+)?packages?\b|\d+\s*个包")  # Go's counts (output_go)
_TOTAL_CUE = re.compile(r"\b(?:ran|runs?|suite|total|all)\b|共|全部")
_SAY_ISSUES = re.compile(r"(?<![\w.])(\d+)\s*(?:个)?\s*(?:lint\s+|type\s+)?(errors?|warnings?|problems?|错误|警告)(?![a-z])"
                         r"(?!\s+(?:in|for|on|from|at|under|of)\b|\s*(?:里|中))")
_FIXED = re.compile(r"\b(?:fix(?:ed|es)?|resolv(?:ed|es)|remov(?:ed|es)|clear(?:ed|s)|silenc(?:ed|es)|suppress(?:ed|es)|"
                    r"introduc(?:ed|es)|added|new)\b|修复|解决|消除|去掉|新增")
_SAY_EXIT = re.compile(r"\bexit(?:ed|s)?\s+(?:with\s+)?(?:(?:exit\s+)?(?:code|status)\s+)?(\d+)\b|"
                       r"\b(?:returned|ended)\s+(?:with\s+)?(?:(?:an?\s+)?exit\s+)?(?:code|status)\s+(\d+)\b|"
                       r"exit (?:code|status)\s+(?:was\s+|of\s+|is\s+|=\s*)?(\d+)\b|退出码\s*(?:为|是)?\s*(\d+)")
_AIM = re.compile(r"(?<![a-z])(?:goal|target|aim|should|expect(?:ed|s)?|want(?:ed|s)?|needs? to|must|will|would|"
                  r"until|hope)(?![a-z])|目标|应该|期望|希望|需要|要让")
_SAY_VERSION_CUE = re.compile(r"\b(?:upgrad\w*|bump\w*|requir\w*|needs?|target\w*|should|must|will|support\w*|"
                              r"minimum|at least|or later|or newer|pin\w*)\b|升级|需要|要求|至少|支持")
_SAY_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s?([kmgtp])(?:i?b)?(?![a-z])")
_ISSUE_NOUN = {"error": "error", "errors": "error", "错误": "error", "warning": "warning", "warnings": "warning",
               "警告": "warning", "problem": "problem", "problems": "problem"}
# Words an output puts before a number that are no program's name ("in 3.20s", "is 3.11").
_NOT_A_NAME = frozenset({"is", "in", "at", "to", "of", "was", "version", "from", "took", "by", "and", "or", "v", "line",
                         "col", "column", "step", "page", "rows", "row", "size", "total", "time", "real", "user", "sys"})
_GENERIC = frozenset({"make", "python", "python3", "npm", "npx", "yarn", "pnpm", "bash", "sh", "run", "cd", "uv",
                      "poetry", "cargo", "go", "node", "the", "and", "test", "tests", "-q", "-m"})


@dataclass(frozen=True, slots=True)
class ToolRun:
    """One tool result and the call that made it: what was run, what it printed, whether it failed."""

    seq: int
    command: str
    output: str
    failed: bool = False


@dataclass(slots=True)
class _Read:
    """What the outputs in range printed, family by family (each with the evt and the words)."""

    tests: list[tuple[dict[str, int], set[int], int, str]] = field(default_factory=list)
    issues: dict[str, dict[int, tuple[int, str]]] = field(default_factory=dict)
    versions: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    sizes: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    cited: bool = False  # the tests are only those of the runs a clause cites (count_words)


@dataclass(frozen=True, slots=True)
class Misstated:
    words: tuple[str, ...]
    sentence: str
    said: str  # what the output said, quoted, with its evt


def _lines_with(text: str, keys: tuple[str, ...]) -> list[str]:
    """The lines of ``text`` holding one of ``keys``, in order, each once: found by ``str.find``
    (a line-by-line regex over every tool result of a session cost ~25 ms per 64,000 characters)."""
    starts: set[int] = set()
    for key in keys:
        at = text.find(key)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            starts.add(start)
            end = text.find("\n", at)
            at = text.find(key, end) if end >= 0 else -1
    out = []
    for start in sorted(starts):
        end = text.find("\n", start)
        out.append(text[start:end if end >= 0 else len(text)])
    return out


def _read(runs: Iterable[ToolRun], want: frozenset[str]) -> _Read:
    """What the outputs printed, for the families ``want`` names (those the summary gives numbers of)."""
    out = _Read()
    for r in runs:
        text = r.output.casefold()
        if "tests" in want:
            for line in _lines_with(text, ("passed", "failed", "ran ", "tests:", "test:", "test result:")):
                _test_line(out, r.seq, text, line)
            if ran_no_tests(r.output) and not any(t[2] == r.seq for t in out.tests):
                # "no tests ran", "No tests found": none passed (no_tests_ran), so "3 tests pass (evt:7)" is wrong
                out.tests.append(({"passed": 0, "failed": 0}, {0}, r.seq, r.output.strip().splitlines()[0][:120]))
        if "issues" in want:
            for line in _lines_with(text, ("error", "warning", "problem")):
                for n, noun in _OUT_ISSUES.findall(line):
                    out.issues.setdefault(_ISSUE_NOUN[noun], {}).setdefault(int(n), (r.seq, line.strip()))
        if "versions" in want:
            for name, version in _OUT_VERSION.findall(text):
                if name not in _NOT_A_NAME:
                    out.versions.setdefault(name, []).append((version, r.seq))
            for version in _GO_VERSION.findall(text):
                out.versions.setdefault("go", []).append((version, r.seq))
        if "sizes" in want:
            for n, unit, path in _OUT_SIZE.findall(text):
                size = f"{float(n):g}{unit}"
                out.sizes.setdefault(path, []).append((size, r.seq))
                out.sizes.setdefault(path.rsplit("/", 1)[-1], []).append((size, r.seq))
    return out


def _test_line(out: _Read, seq: int, text: str, line: str) -> None:
    if not _OUT_TEST_LINE.search(line):
        return
    counts: dict[str, int] = {}
    for n, word in _OUT_COUNTS.findall(line):
        counts[_COUNT_WORD[word.rstrip("s") if word.startswith("error") else word]] = int(n)
    ran = _OUT_RAN.search(line)
    if ran:
        counts["total"] = int(ran.group(1))
    if set(counts) == {"total"}:
        counts = _unittest(text, counts["total"])
    if {"passed", "failed"} & set(counts):  # a total alone says nothing of what passed
        p, f, e, s = (counts.get(k, 0) for k in ("passed", "failed", "errors", "skipped"))
        totals = {p + f, p + f + e, p + f + e + s} | ({counts["total"]} if "total" in counts else set())
        out.tests.append((counts, totals, seq, line.strip()))


def _wanted(text: str) -> frozenset[str]:
    """The families the summary gives numbers of (its normal form, lower-cased)."""
    want = set()
    if (_SAY_COUNTS.search(text) or _SAY_ALL.search(text) or _SAY_RATIO.search(text) or "|" in text
            or _SAY_PACKAGES.search(text)):
        want.add("tests")
    if _SAY_ISSUES.search(text):
        want.add("issues")
    if re.search(r"\d\.\d", text):
        want.add("versions")
    if _SAY_SIZE.search(text):
        want.add("sizes")
    if _SAY_EXIT.search(text):
        want.add("exit")  # read from the runs themselves (_exit_wrong), not from _read
    return frozenset(want)


def gives_counts(text: str) -> bool:
    """Whether a summary gives test counts or counts of errors (what a long output's middle holds)."""
    return bool({"tests", "issues"} & _wanted(Said.of(text).text))


_UNITTEST = re.compile(r"^failed \((?:failures=(\d+))?(?:,\s*)?(?:errors=(\d+))?|^ok(?: \(|$)", re.M)


def _unittest(text: str, total: int) -> dict[str, int]:
    """unittest's "Ran 42 tests" and its verdict line ("FAILED (failures=1)", "OK") as counts."""
    m = _UNITTEST.search(text)
    if m is None:
        return {"total": total}
    failed, errors = int(m.group(1) or 0), int(m.group(2) or 0)
    return {"total": total, "failed": failed, "errors": errors, "passed": total - failed - errors}


def _claimed_counts(s: str) -> dict[str, int]:
    claimed: dict[str, int] = {}
    for n, word in _SAY_COUNTS.findall(s):
        key = {"通过": "passed", "失败": "failed"}.get(word) or _COUNT_WORD.get(word) or (
            "errors" if word.startswith("error") else "")
        if key in ("passed", "failed"):
            claimed.setdefault(key, int(n))
    for m in _SAY_ALL.finditer(s):
        n = int(next(g for g in m.groups() if g))
        claimed.update(passed=n, total=n, failed=0)
    for m in _SAY_RATIO.finditer(s):
        claimed.update(passed=int(m.group(1)), total=int(m.group(2)))
    total = _SAY_TOTAL.search(s)
    if total and "total" not in claimed and (claimed or _TOTAL_CUE.search(s)):
        claimed["total"] = int(total.group(1))
    return claimed


def _agrees(claimed: dict[str, int], counts: dict[str, int], totals: set[int]) -> bool:
    for key, n in claimed.items():
        if key == "total":
            if n not in totals:
                return False
        elif counts.get(key, 0) != n:
            return False
    return True


def _named_runs(s: str, runs: list[ToolRun]) -> list[ToolRun]:
    named = []
    for r in runs:
        words = [w for w in re.findall(r"[\w.-]{3,}", r.command.casefold()) if w not in _GENERIC]
        if words and any(re.search(rf"(?<![\w.-]){re.escape(w)}(?![\w-])", s) for w in words):
            named.append(r)
    return named


def _exit_of(r: ToolRun) -> int | None:
    codes = [int(c) for c in _OUT_EXIT.findall(r.output.casefold())]
    if codes:
        return codes[-1]
    return None if r.failed else 0


def tool_runs(events: Iterable[LogEvent], failed_seqs: frozenset[int] | None = None) -> tuple[ToolRun, ...]:
    """Each tool result with the command that made it (as ``failures`` names it) and whether it failed
    (``failed_seqs``: the failing results' seqs when the caller found them already)."""
    listed = list(events)
    calls = {e.call_id: e for e in listed if e.kind == "tool_call" and e.call_id}
    out = []
    for r in listed:
        if r.kind == "tool_result" and r.text:
            call = calls.get(r.call_id) if r.call_id else None
            bad = r.seq in failed_seqs if failed_seqs is not None else failed(r, call)
            out.append(ToolRun(r.seq, signature(call, r), r.text, bad))
    return tuple(out)


def output_findings(generation: int, text: str, runs: tuple[ToolRun, ...], covers: tuple[int, int] | None,
                    said: Said | None = None) -> list[Finding]:
    """``output_misstated`` findings of one generation, against the runs up to the end of its range."""
    upto = [r for r in runs if covers is None or r.seq <= covers[1]]
    return [Finding("output_misstated", None,
                    f"generation {generation} says “{'”, “'.join(m.words)}” in “{m.sentence}”, but {m.said}.",
                    words=m.words, where=m.sentence)
            for m in output_misstated(text, upto, said)]


def output_misstated(text: str, runs: list[ToolRun], said: Said | None = None) -> list[Misstated]:
    """Every sentence of ``text`` that gives a number an output in ``runs`` contradicts."""
    if not runs or (not re.search(r"\d", text) and digits(text) == text):
        return []
    said = said or Said.of(text)
    want = _wanted(digits(said.text))  # "both packages pass": a count in words (count_words)
    if not want:
        return []
    read = _read(runs, want)
    go = [g for r in runs if (g := go_run(r.seq, r.output)) is not None] if "tests" in want else []
    seqs = frozenset(r.seq for r in runs)
    out: list[Misstated] = []
    rows = [(s.text, said.stripped(s)) for s in said.sentences] + table_counts(text)
    for sentence, quote in rows:
        if _AIM.search(sentence):
            continue  # "The goal is 42 passed, 0 failed.": an aim, not what a run printed
        for s, cites in clauses_with_cites(digits(sentence), seqs):
            hit = _wrong(s, _only(read, cites), [g for g in go if g.seq in cites] or go, runs)
            if hit is not None:
                out.append(Misstated(hit[0], quote, hit[1]))
                break
    return out


def _only(read: _Read, cites: frozenset[int]) -> _Read:
    """What the runs a clause cites printed (count_words: a count is judged against the run it is about);
    all runs' when it cites none that printed counts (an edit's evt). Only the test counts are per run;
    the other families keep every run."""
    tests = [t for t in read.tests if t[2] in cites]
    return _Read(tests, read.issues, read.versions, read.sizes, cited=True) if tests else read


def _wrong(s: str, read: _Read, go: list[GoRun], runs: list[ToolRun]) -> tuple[tuple[str, ...], str] | None:
    by_go = go_judged(s, go)  # Go's package and test lines (output_go): a count one agrees with is right
    return ((by_go if isinstance(by_go, tuple) else None) or (_tests_wrong(s, read) if by_go is None else None)
            or _issues_wrong(s, read) or _exit_wrong(s, runs)
            or _version_wrong(s, read) or _size_wrong(s, read))


def _tests_wrong(s: str, read: _Read) -> tuple[tuple[str, ...], str] | None:
    if not read.tests:
        return None
    claimed = _claimed_counts(s)
    if not {"passed", "failed"} & set(claimed):
        return None  # a total alone ("The old CI job ran 120 tests") may be any suite's: not read
    if any(_agrees(claimed, counts, totals) for counts, totals, _, _ in read.tests):
        return None
    _, _, seq, line = read.tests[-1]
    words = tuple(f"{n} {k}" for k, n in claimed.items())
    if read.cited:
        return words, f"the run it cites printed “{line}” (evt:{seq})"
    if len(read.tests) == 1:
        return words, f"the one test run in range printed “{line}” (evt:{seq})"
    return words, f"none of the {len(read.tests)} test runs in range printed those counts; the last printed “{line}” (evt:{seq})"


def _issues_wrong(s: str, read: _Read) -> tuple[tuple[str, ...], str] | None:
    if _FIXED.search(s):
        return None
    for n, noun in _SAY_ISSUES.findall(s):
        seen = read.issues.get(_ISSUE_NOUN.get(noun, noun))
        if seen and int(n) not in seen:
            seq, line = list(seen.values())[-1]
            return (f"{n} {noun}",), f"the output printed “{line}” (evt:{seq})"
    return None


def _exit_wrong(s: str, runs: list[ToolRun]) -> tuple[tuple[str, ...], str] | None:
    m = _SAY_EXIT.search(s)
    if m is None:
        return None
    code = int(next(g for g in m.groups() if g is not None))
    named = _named_runs(s, runs)
    if not named:
        return None
    ends = [_exit_of(r) for r in named]
    if any(e == code or (e is None and code != 0) for e in ends):
        return None
    last = named[-1]
    what = "a non-zero code" if ends[-1] is None else f"code {ends[-1]}"
    return (m.group().strip(),), f"`{last.command}` ended with {what} (evt:{last.seq})"


def _version_wrong(s: str, read: _Read) -> tuple[tuple[str, ...], str] | None:
    if not read.versions or _SAY_VERSION_CUE.search(s):
        return None
    for name, seen in read.versions.items():
        m = re.search(rf"(?<![\w.]){re.escape(name)}[^\d\n。；;,，]{{0,10}}?v?(\d+\.\d+(?:\.\d+)*)(?![\w]|\.\d)", s)
        if m is None:
            continue
        claimed = m.group(1).split(".")
        if not any(v.split(".")[:len(claimed)] == claimed for v, _ in seen):
            version, seq = seen[-1]
            return (m.group().strip(),), f"the output printed {name} {version} (evt:{seq})"
    return None


def _size_wrong(s: str, read: _Read) -> tuple[tuple[str, ...], str] | None:
    for path, seen in read.sizes.items():
        if len(path) < 4 or path not in s:
            continue
        for n, unit in _SAY_SIZE.findall(s[s.find(path) + len(path):]):
            if f"{float(n):g}{unit}" not in {v for v, _ in seen}:
                size, seq = seen[-1]
                return (f"{n}{unit.upper()}",), f"the output printed {size.upper()} for {path} (evt:{seq})"
    return None


__all__ = ["Misstated", "ToolRun", "gives_counts", "output_findings", "output_misstated", "tool_runs"]
