"""What a test command ran (domain/run_scope.py): the pairing verdict-twelve's rules stand on. A
wrong scope turns into a false all-clear (a narrower pass read as covering a wider failure) or a
false alarm (a covering pass not read as resolving a narrower failure)."""

from __future__ import annotations

import pytest

from inspector.domain.failures import find_failures
from inspector.domain.logevents import LogEvent
from inspector.domain.run_scope import covers, failed_units, rerun, scope


@pytest.mark.parametrize(("wide", "narrow", "expected"), [
    ("go test ./...", "go test ./cart/", True),
    ("go test -v ./... 2>&1 | tail -30", "go test ./cart/", True),
    ("go test ./cart/...", "go test ./cart/", True),
    ("go test ./cart/", "go test ./...", False),
    ("go test -run TestTotal ./...", "go test ./cart/", False),  # a name filter: which tests ran is not listed
    ("cd api && go test ./...", "go test ./cart/", False),  # another folder
    ("pytest", "pytest tests/test_cart.py", True),
    ("python -m pytest -q tests", "pytest tests/test_cart.py", True),
    ("pytest tests/test_cart.py", "pytest", False),
    ("pytest -k discount", "pytest tests/test_cart.py", False),
    ("cargo test", "cargo test discount", True),
    ("cargo test api", "cargo test", False),
    ("npx jest", "npx jest src/cart.test.js", True),
    ("mise run test", "go test ./cart/", False),  # a script: what it ran cannot be read
    ("go test -weird ./...", "go test ./cart/", False),  # a flag not known: not read
])
def test_a_run_covers_another_only_where_its_arguments_say_so(wide: str, narrow: str, expected: bool) -> None:
    assert covers(scope(wide), scope(narrow)) is expected


def test_where_a_run_failed_is_read_from_its_output() -> None:
    go = "--- FAIL: TestHandler (0.00s)\nFAIL\nFAIL\tshop.io/api\t0.020s\nok  \tshop.io/cart\t0.011s\nFAIL"
    assert failed_units("go", go) == {"shop.io/api"}
    assert failed_units("pytest", "FAILED tests/test_api.py::test_h - AssertionError\n1 failed") == {"tests/test_api.py"}
    assert failed_units("go", "panic: runtime error: index out of range") is None  # no unit named: not known
    wide = scope("go test ./...")
    assert wide is not None
    assert rerun(wide, go, scope("go test ./cart/")) == (0, 1)  # the cart run skipped the api failure
    assert rerun(wide, go, scope("go test ./api/")) == (1, 0)
    assert rerun(wide, go, scope("go test -run TestHandler ./api/")) is None


def _ev(seq: int, kind: str, **kw: object) -> LogEvent:
    return LogEvent.from_record({"seq": seq, "kind": kind, **kw})


def test_a_covering_pass_resolves_a_failure_and_a_narrower_one_does_not() -> None:
    fail_cart = "--- FAIL: TestDiscount (0.00s)\nFAIL\nFAIL\tshop.io/cart\t0.012s\nFAIL"

    def log(first: str, then: str) -> list[LogEvent]:
        return [_ev(1, "tool_call", call_id="a", tool="Bash", args={"command": first}),
                _ev(2, "tool_result", call_id="a", tool="Bash", content=fail_cart),
                _ev(3, "tool_call", call_id="b", tool="Bash", args={"command": then}),
                _ev(4, "tool_result", call_id="b", tool="Bash", content="ok  \tshop.io/cart\t0.01s")]

    assert [f.resolved_by for f in find_failures(log("go test ./cart/", "go test ./..."))] == [4]
    assert [f.resolved_by for f in find_failures(log("go test ./...", "go test ./cart/"))] == [None]
