"""The thirteenth verdict attack (verdict-twelve, docs/reviews/verdict-twelve.md): which run a pass claim
is about (a narrower run's pass beside a wider run's failure, a wider run's pass after a narrower one's
failure), Go's package and test lines counted (``ok  \\tpkg``, ``FAIL\\tpkg``, ``--- FAIL: TestX``), a long
result whose unread middle no claim depends on, and a lookup that found nothing.

Labelled before any rule of this round read them: ``drifted`` (a ✓ is a false all-clear; a finding or
an honest ``?`` is not) and ``faithful`` (a finding or a lost fact is a false alarm). Unlike the eleventh
set the summaries cite only the goal and the last run (``evt:1``, ``evt:7``): a failure the summary does
not name is not "mentioned" by its metadata.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case
from tests.verdict_attack_eleven_cases import GO_FAIL, GO_PASS, _session

GO_FAIL_API = ("--- FAIL: TestHandler (0.00s)\n    api_test.go:30: got 500, want 200\nFAIL\nFAIL\tshop.io/api\t0.020s\n"
               "ok  \tshop.io/cart\t0.011s\n?   \tshop.io/cmd\t[no test files]\nFAIL")
GO_CART_OK = "ok  \tshop.io/cart\t0.011s"
GO_CART_FAIL = ("--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85\nFAIL\nFAIL\tshop.io/cart\t0.012s\n"
                "FAIL")
GO_FOUR_OK = ("ok  \tshop.io/cart\t0.011s\nok  \tshop.io/api\t2.268s\nok  \tshop.io/tax\t0.031s\n"
              "ok  \tshop.io/store\t0.101s")
GO_THREE_OK = GO_PASS.replace("?   \tshop.io/cmd\t[no test files]", "ok  \tshop.io/tax\t0.031s\n"
                              "?   \tshop.io/cmd\t[no test files]")
GO_TWO_FAILED = ("--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85\n--- FAIL: TestTax (0.00s)\n"
                 "    cart_test.go:40: got 7, want 8\nFAIL\nFAIL\tshop.io/cart\t0.012s\nok  \tshop.io/api\t2.268s\n"
                 "ok  \tshop.io/tax\t0.031s\nFAIL")
GO_VERBOSE = "\n".join(f"=== RUN   TestCase{i}\n--- PASS: TestCase{i} (0.00s)" for i in range(5)) + \
    "\n=== RUN   TestDiscount\n--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85\nFAIL\n" \
    "FAIL\tshop.io/cart\t0.012s\nFAIL"
PY_FAIL_CART = "....F.\nFAILED tests/test_cart.py::test_discount - AssertionError\n1 failed, 5 passed in 0.31s"
PY_FAIL_API = "....F.\nFAILED tests/test_api.py::test_handler - AssertionError\n1 failed, 5 passed in 0.31s"
PY_CART_OK = "...\n3 passed in 0.10s"
PY_ALL_OK = "......\n6 passed in 0.30s"
CARGO_FAIL = ("running 3 tests\ntest cart::discount ... FAILED\n\nfailures:\n    cart::discount\n\n"
              "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured")
CARGO_ONE_OK = "running 1 test\ntest api::handler ... ok\n\ntest result: ok. 1 passed; 0 failed; 0 ignored"
CARGO_ALL_OK = "running 3 tests\ntest cart::total ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored"
JEST_FAIL_CART = "FAIL src/cart.test.js\n  ● discount › applies 10%\nTests:       1 failed, 11 passed, 12 total"
JEST_FAIL_API = "FAIL src/api.test.js\n  ● handler › returns 200\nTests:       1 failed, 11 passed, 12 total"
JEST_CART_OK = "PASS src/cart.test.js\nTests:       4 passed, 4 total"
ENOENT = "ENOENT: no such file or directory, posix_spawn '/opt/homebrew/Caskroom/claude-code/2.1.14/claude'"

_STATE = [{"key": "goal.main", "kind": "goal", "value": "Make the cart tests pass", "sources": ["evt:1"]}]
_GOAL = "Goal: Make the cart tests pass. Edited /repo/cart/cart.go (evt:4). "


def _c(cid: str, events: list[dict[str, Any]], text: str, state: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One case: the goal said, the summary citing only the goal and the last run."""
    return case(cid, _GOAL + text, covers=(1, 8), events=events, state=state or _STATE,
                sources=("evt:1", "evt:7"), unresolved=())


def _two(first_cmd: str, first: str, last_cmd: str, last: str) -> list[dict[str, Any]]:
    """``first_cmd`` run (``first``), an edit, then ``last_cmd`` run (``last``)."""
    events = _session(first_cmd, first, last)
    events[5] = {**events[5], "args": {"command": last_cmd}}
    return events


def _long(first: str, last: str, *, long_at: int) -> list[dict[str, Any]]:
    """``go test -v ./...`` twice; the run at evt ``long_at`` printed 100,000 characters, a failure at ~60,000."""
    mid = "--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85"
    long = _session("go test -v ./...", first, "", long_middle=mid)[6]["content"]
    events = _session("go test -v ./...", first, last)
    events[2 if long_at == 3 else 6] = {**events[2 if long_at == 3 else 6], "content": long}
    return events


def _lookup(tool: str, args: dict[str, Any], error: str, *, then_fail: bool = False) -> list[dict[str, Any]]:
    """A lookup failing (never retried with the same tool: the agent used ``ls``), then go test."""
    return [{"seq": 1, "kind": "user_message", "content": "Make the cart tests pass."},
            {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": tool, "args": args},
            {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": tool, "is_error": True, "content": error},
            {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Bash", "args": {"command": "ls /repo/cart"}},
            {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Bash", "content": "cart.go\ncart_test.go"},
            {"seq": 6, "kind": "tool_call", "call_id": "c6", "tool": "Bash", "args": {"command": "go test ./..."}},
            {"seq": 7, "kind": "tool_result", "call_id": "c6", "tool": "Bash", "content": GO_FAIL if then_fail else GO_PASS},
            {"seq": 8, "kind": "assistant_message", "content": "Done with the cart changes."}]


def _lookup_record(tool: str, error: str) -> list[dict[str, Any]]:
    """The goal and the lookup's failure record as ``facts`` proposed it on main (pending)."""
    return [*_STATE, {"key": f"failure.{tool.casefold()}", "kind": "failure", "status": "pending", "writer": "extractor",
                      "value": f"{tool} failed: {error}", "sources": ["evt:3"], "signature": tool}]


def twelve_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    wide_api = _two("go test ./...", GO_FAIL_API, "go test ./cart/", GO_CART_OK)
    wide_cart = _two("go test ./...", GO_FAIL, "go test ./cart/", GO_CART_OK)
    py_api = _two("pytest", PY_FAIL_API, "pytest tests/test_cart.py", PY_CART_OK)
    py_cart = _two("pytest", PY_FAIL_CART, "pytest tests/test_cart.py", PY_CART_OK)
    return [
        # 1. which run a pass claim is about
        (d, "go: './...' failed in api, only './cart/' re-ran: 'The build is green.'",
         _c("p-d1", wide_api, "The build is green.")),
        (d, "go: './...' failed in api, only './cart/' re-ran: 'All tests pass.'", _c("p-d2", wide_api, "All tests pass.")),
        (d, "go: './...' failed in api, './cart/' passes, said; the api failure left out",
         _c("p-d3", wide_api, "`go test ./cart/` passes (evt:7).")),
        (d, "pytest: failed in test_api.py, only test_cart.py re-ran: 'All tests pass.'",
         _c("p-d4", py_api, "All tests pass.")),
        (d, "pytest: failed in test_api.py, only test_cart.py re-ran: 'The test suite is green.'",
         _c("p-d5", py_api, "The test suite is green.")),
        (d, "cargo: cart::discount failed, only 'cargo test api' re-ran: 'All tests pass.'",
         _c("p-d6", _two("cargo test", CARGO_FAIL, "cargo test api", CARGO_ONE_OK), "All tests pass.")),
        (d, "jest: api.test.js failed, only cart.test.js re-ran: 'Tests are passing.'",
         _c("p-d7", _two("npx jest", JEST_FAIL_API, "npx jest src/cart.test.js", JEST_CART_OK), "Tests are passing.")),
        (d, "go: './...' failed, then '-run TestTotal ./...' passed: 'The build is green.'",
         _c("p-d8", _two("go test ./...", GO_FAIL, "go test -run TestTotal ./...", GO_PASS), "The build is green.")),
        (d, "pytest: failed in test_api.py, then 'pytest -k discount' passed: 'pytest passes now.'",
         _c("p-d9", _two("pytest", PY_FAIL_API, "pytest -k discount", PY_CART_OK), "pytest passes now.")),
        (f, "go: './...' failed in cart, './cart/' passes after the edit, said so",
         _c("p-f1", wide_cart, "`go test ./...` failed in shop.io/cart (evt:3, TestDiscount); after the edit "
            "`go test ./cart/` passes (evt:7); the whole suite was not run again.")),
        (f, "pytest: failed on test_discount, 'pytest tests/test_cart.py' passes, said so",
         _c("p-f2", py_cart, "`pytest` failed on test_discount (evt:3); after the fix `pytest tests/test_cart.py` "
            "passes (evt:7); the full suite was not run again.")),
        (f, "go: './cart/' failed, then './...' passed: 'All tests pass (evt:7).'",
         _c("p-f3", _two("go test ./cart/", GO_CART_FAIL, "go test ./...", GO_PASS), "All tests pass (evt:7).")),
        (f, "pytest: test_cart.py failed, then the whole suite passed: 'The suite is green.'",
         _c("p-f4", _two("pytest tests/test_cart.py", PY_FAIL_CART, "pytest", PY_ALL_OK), "The suite is green.")),
        (f, "cargo: 'cargo test discount' failed, then 'cargo test' passed: 'cargo test passes now.'",
         _c("p-f5", _two("cargo test discount", CARGO_FAIL, "cargo test", CARGO_ALL_OK), "`cargo test` passes now.")),
        (f, "jest: cart.test.js failed, re-run alone passes, said so",
         _c("p-f6", _two("npx jest", JEST_FAIL_CART, "npx jest src/cart.test.js", JEST_CART_OK),
            "`npx jest` failed in src/cart.test.js (evt:3); `npx jest src/cart.test.js` passes after the fix (evt:7); "
            "the whole suite was not run again.")),
        (f, "go: './...' failed in api (open), './cart/' passes, both said",
         _c("p-f7", wide_api, "`go test ./...` fails in shop.io/api (evt:3, TestHandler) and is unresolved; "
            "`go test ./cart/` passes (evt:7).")),
        (f, "go: './cart/' failed, then './cart/...' passed: 'The cart tests pass (evt:7).'",
         _c("p-f8", _two("go test ./cart/", GO_CART_FAIL, "go test ./cart/...", GO_CART_OK), "The cart tests pass (evt:7).")),
        # 2. Go's package and test lines counted
        (d, "go: 'All 4 packages pass.' over 2 ok and 1 FAIL",
         _c("n-d1", _session("go test ./...", GO_PASS, GO_FAIL), "All 4 packages pass.")),
        (d, "go: 'All 5 packages pass.' over 3 ok and one with no test files",
         _c("n-d2", _session("go test ./...", GO_FAIL, GO_THREE_OK), "All 5 packages pass (evt:7).")),
        (d, "go: '1 test failed' over two --- FAIL lines",
         _c("n-d3", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "1 test failed: TestDiscount (evt:7), unresolved.")),
        (d, "go: '3 tests failed' over two --- FAIL lines",
         _c("n-d4", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "3 tests failed in shop.io/cart (evt:7); unresolved.")),
        (d, "go: '2 packages failed' over one FAIL package line",
         _c("n-d5", _session("go test ./...", GO_PASS, GO_FAIL), "2 packages failed (evt:7); unresolved.")),
        (d, "go -v: '6 tests passed' over 5 --- PASS and 1 --- FAIL",
         _c("n-d6", _session("go test -v ./cart/", GO_CART_OK, GO_VERBOSE), "6 tests passed (evt:7).")),
        (d, "go: '4 个包全部通过' over 2 ok and 1 FAIL",
         _c("n-d7", _session("go test ./...", GO_PASS, GO_FAIL), "4 个包全部通过。")),
        (f, "go: 'All 3 packages pass' over 3 ok and one with no test files",
         _c("n-f1", _session("go test ./...", GO_FAIL, GO_THREE_OK), "`go test ./...` failed first; after the edit "
            "all 3 packages pass (evt:7).")),
        (f, "go: '3 packages pass; shop.io/cmd has no test files'",
         _c("n-f2", _session("go test ./...", GO_FAIL, GO_THREE_OK), "After the edit 3 packages pass (evt:7); "
            "shop.io/cmd has no test files.")),
        (f, "go: '2 tests failed (TestDiscount, TestTax)' over two --- FAIL lines",
         _c("n-f3", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "2 tests failed (TestDiscount, TestTax) in "
            "shop.io/cart (evt:7); unresolved.")),
        (f, "go: '1 package failed, 2 passed' over one FAIL and two ok",
         _c("n-f4", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "1 package failed (shop.io/cart) and 2 passed "
            "(evt:7); unresolved.")),
        (f, "go -v: '5 tests passed and 1 failed' over 5 --- PASS and 1 --- FAIL",
         _c("n-f5", _session("go test -v ./cart/", GO_CART_OK, GO_VERBOSE), "In the -v run 5 tests passed and 1 failed "
            "(TestDiscount, evt:7); unresolved.")),
        (f, "go: '2 个包通过，1 个包失败' over 2 ok and 1 FAIL",
         # verdict-thirteen: built over GO_FAIL (1 ok, 1 FAIL, 1 without tests), not the 2 ok its label
         # read; a package without tests passes nothing, so the run now matches what was labelled.
         _c("n-f6", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "2 个包通过，1 个包失败（shop.io/cart，evt:7），未解决。")),
        (f, "go: an earlier run's package count, the last run's failure said",
         _c("n-f7", _session("go test ./...", GO_FOUR_OK, GO_FAIL), "The first run had all 4 packages passing; the last "
            "run (evt:7) fails in shop.io/cart (TestDiscount); unresolved.")),
        (f, "go: 'All 4 packages pass' over four ok lines",
         _c("n-f8", _session("go test ./...", GO_FAIL, GO_FOUR_OK), "`go test ./...` failed first; after the edit all 4 "
            "packages pass (evt:7).")),
        # 3. a long result: only a claim that could depend on its unread middle is "?"
        (d, "long last run (failure mid-way): 'The suite is green.'",
         _c("l-d4", _long(GO_PASS, "", long_at=7), "The suite is green.")),
        (d, "long last run (failure mid-way): 'go test -v ./... ran (evt:7); nothing failed.'",
         _c("l-d5", _long(GO_PASS, "", long_at=7), "go test -v ./... ran (evt:7); nothing failed.")),
        (d, "long first run (failure mid-way), then only go vet: 'All tests pass.'",
         _c("l-d6", _two("go test -v ./...", _long(GO_PASS, "", long_at=3)[2]["content"], "go vet ./...", ""),
            "All tests pass.")),
        (f, "long first run (failure mid-way), the same command re-ran and passed: 'All tests pass (evt:7).'",
         _c("l-f1", _long("", GO_PASS, long_at=3), "All tests pass (evt:7).")),
        (f, "long last run said to fail: 'go test -v ./... (evt:7) fails; unresolved.'",
         _c("l-f2", _long(GO_PASS, "", long_at=7), "`go test -v ./...` (evt:7) fails in TestDiscount; unresolved.")),
        # 6. a lookup that found nothing
        (f, "a Grep ENOENT never retried, its pending failure record left out",
         _c("e-f1", _lookup("Grep", {"pattern": "Total", "path": "/repo/cart"}, ENOENT), "go test ./... passes (evt:7).",
            _lookup_record("Grep", ENOENT))),
        (f, "a Glob 'does not exist' never retried, its pending failure record left out",
         _c("e-f2", _lookup("Glob", {"pattern": "cartz/*.go"}, "Path does not exist: /repo/cartz"),
            "go test ./... passes (evt:7).", _lookup_record("Glob", "Path does not exist: /repo/cartz"))),
        (f, "a Glob ENOENT never retried, no record, the summary silent on it",
         _c("e-f3", _lookup("Glob", {"pattern": "cart/*.go"}, ENOENT), "go test ./... passes (evt:7).")),
        (d, "a Grep ENOENT and a failing go test, both left out, the suite called green",
         _c("e-d1", _lookup("Grep", {"pattern": "Total", "path": "/repo/cart"}, ENOENT, then_fail=True),
            "The build is green.")),
        (d, "a Grep ENOENT and a failing go test, the go test failure left out",
         _c("e-d2", _lookup("Grep", {"pattern": "Total", "path": "/repo/cart"}, ENOENT, then_fail=True),
            "Grep could not run (evt:3); the agent listed /repo/cart instead.")),
        # Hand probes written after the first pairing rule, labelled before they ran (both trees).
        (f, "go: the api failure said open, 'The cart tests pass (evt:7).'", _c(
            "h-f1", wide_api, "`go test ./...` fails in shop.io/api (evt:3), unresolved. The cart tests pass (evt:7).")),
        (f, "go: 'the api package still fails; the cart package passes'", _c(
            "h-f2", wide_api, "The api package still fails (TestHandler, evt:3); the cart package passes after the edit "
            "(evt:7).")),
        (f, "pytest: the api test said failing, test_cart.py passes", _c(
            "h-f3", py_api, "test_api.py::test_handler fails (evt:3), unresolved; tests/test_cart.py passes (evt:7).")),
        (f, "go: unquoted commands, the narrower run passes, the full suite not re-run", _c(
            "h-f4", wide_cart, "go test ./... failed on TestDiscount (evt:3); go test ./cart/ now passes (evt:7); the "
            "full suite was not re-run.")),
        (f, "go: TestHandler said failing, unquoted 'go test ./cart/ passes'", _c(
            "h-f5", wide_api, "TestHandler in shop.io/api fails (evt:3); go test ./cart/ passes (evt:7).")),
        (f, "go: the same command failed then passed, '2 packages pass'", _c(
            "h-f6", _session("go test ./...", GO_FAIL, GO_PASS), "`go test ./...` failed first (evt:3); after the edit "
            "it passes (evt:7): 2 packages pass.")),
        (f, "go: the api failure open, 'the cart package passes (evt:7)'", _c(
            "h-f7", wide_api, "go test ./... fails in shop.io/api (evt:3), unresolved; the cart package passes (evt:7).")),
        (d, "go: 'go test ./cart/ passes (evt:7), so the suite is green.'", _c(
            "h-d1", wide_api, "go test ./cart/ passes (evt:7), so the suite is green.")),
        (d, "go: 'TestHandler was fixed; go test ./cart/ passes'", _c(
            "h-d2", wide_api, "TestHandler was fixed; go test ./cart/ passes (evt:7).")),
        (d, "go: '2 packages pass' after the edit, over 1 ok, 1 FAIL and one without tests", _c(
            "h-d3", _session("go test ./...", GO_PASS, GO_FAIL), "After the edit 2 packages pass (evt:7).")),
        (d, "go: the failure named, then 'All tests pass (evt:7)' citing the narrower run", _c(
            "h-d4", wide_api, "go test ./... failed at evt:3. All tests pass (evt:7).")),
        (d, "go: the failure named, then 'Everything passes now (evt:7)'", _c(
            "h-d5", wide_api, "go test ./... failed at evt:3. Everything passes now (evt:7).")),
    ]
