"""A test run that ran no test is no pass (verdict-thirteen).

``go test ./cart/`` that printed only ``?   \\tshop.io/cart\\t[no test files]`` (the test file was deleted),
pytest's "no tests ran", ``cargo test discount`` with "0 passed; 0 failed" (the filter matched nothing),
jest's "No tests found" — each exits 0 (jest with ``--passWithNoTests``), so the rules took it for a
passing run: it resolved the earlier failure of the same command, and "`go test ./cart/` passes now
(evt:7)" was a ✓ over a failure nothing had fixed. Nothing passed there: such a run resolves no failure,
answers no pass claim, and its packages are not counted as passing (output_go).

Read only from what the runner prints, and only when every line that would report a test says none
ran: a run that printed one ``ok`` package, one "1 passed", or one test line ran something.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LONG = 20_000  # a run that printed more than this ran something (its output is read, not assumed)

_GO_NONE = re.compile(r"(?m)^(?:\?\s+\S+\s+\[no test files\]|ok\s+\S+\s+\S+\s+\[no tests to run\])\s*$")
_GO_RAN = re.compile(r"(?m)^(?:ok\s+\S+\s+(?![^\n]*\[no tests to run\])|FAIL\b|\s*--- (?:PASS|FAIL|SKIP):)")
_PY_NONE = re.compile(r"\bno tests ran\b|\bcollected 0 items\b")
_PY_RAN = re.compile(r"(?<![\w.])[1-9]\d*\s+(?:passed|failed|errors?|xfailed|xpassed)\b")
_CARGO_RESULT = re.compile(r"(?m)^test result: \w+\. (\d+) passed; (\d+) failed")
_JS_NONE = re.compile(r"\bNo tests found\b|\bNo test files found\b|\bTests:\s+0 total\b")
_JS_RAN = re.compile(r"(?m)^\s*(?:PASS|FAIL)\s+\S|\bTests:\s+[^\n]*?[1-9]\d* (?:passed|failed)")
_UNITTEST_NONE = re.compile(r"(?m)^Ran 0 tests\b")


@lru_cache(maxsize=4096)
def ran_no_tests(output: str) -> bool:
    """Whether a test runner's ``output`` says it ran no test at all (the module's readings)."""
    if not output or len(output) > _LONG:
        return False
    if _GO_NONE.search(output):
        return not _GO_RAN.search(output)
    if _PY_NONE.search(output):
        return not _PY_RAN.search(output)
    results = _CARGO_RESULT.findall(output)
    if results:
        return all(p == "0" and f == "0" for p, f in results)
    if _JS_NONE.search(output):
        return not _JS_RAN.search(output)
    return bool(_UNITTEST_NONE.search(output))


__all__ = ["ran_no_tests"]
