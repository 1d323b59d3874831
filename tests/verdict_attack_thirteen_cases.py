"""The fourteenth verdict attack (verdict-thirteen, docs/reviews/verdict-thirteen.md): a citation that is
no statement (a failing run cited beside words that say it went well, or only in the ``sources`` list), counts
in words ("both packages", "all three", "两个包都通过"), runs that ran no tests (Go's ``[no test files]``, pytest's
"no tests ran", cargo's "0 passed", jest's "No tests found"), retried and partial runs, runs in another
directory, and a citation of the wrong run.

The first 45 were labelled before any rule of this round read them (and before either tree judged them); the
11 hand probes (``hp-``) were written after the first rules and labelled before either tree judged them:
``drifted`` (a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful`` (a finding or a lost
fact is a false alarm). As in the twelfth set, the ``sources`` list cites the goal and the last run (``evt:1``, ``evt:7``)
unless a case says otherwise.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case
from tests.verdict_attack_eleven_cases import GO_FAIL, GO_PASS, _session
from tests.verdict_attack_twelve_cases import (
    CARGO_FAIL,
    GO_CART_FAIL,
    GO_CART_OK,
    GO_FAIL_API,
    GO_THREE_OK,
    GO_TWO_FAILED,
    JEST_FAIL_CART,
    PY_CART_OK,
    PY_FAIL_API,
    PY_FAIL_CART,
)

GO_CART_NONE = "?   \tshop.io/cart\t[no test files]"
PY_NONE = "============================ no tests ran in 0.01s ============================="
CARGO_NONE = ("running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; "
              "finished in 0.00s")
JEST_NONE = "No tests found, exiting with code 0\nIn /repo\n  12 files checked.\n  testMatch: **/*.test.js - 0 matches"
UNITTEST_FAIL = ("F..\n======================================================================\nFAIL: test_discount "
                 "(tests.test_cart.CartTest)\n----------------------------------------------------------------------\n"
                 "AssertionError: 90 != 85\n\nRan 3 tests in 0.002s\n\nFAILED (failures=1)")
JEST_API_OK = "PASS src/api.test.js\nTests:       6 passed, 6 total"

_STATE = [{"key": "goal.main", "kind": "goal", "value": "Make the cart tests pass", "sources": ["evt:1"]}]
_GOAL = "Goal: Make the cart tests pass. Edited /repo/cart/cart.go (evt:4). "


def _c(cid: str, events: list[dict[str, Any]], text: str, *, sources: tuple[str, ...] = ("evt:1", "evt:7"),
       unresolved: tuple[str, ...] = ()) -> dict[str, Any]:
    """One case: the goal said, the summary citing ``sources``."""
    return case(cid, _GOAL + text, covers=(1, 8), events=events, state=_STATE, sources=sources, unresolved=unresolved)


def _two(first_cmd: str, first: str, last_cmd: str, last: str) -> list[dict[str, Any]]:
    """``first_cmd`` run (``first``, evt:3), an edit, then ``last_cmd`` run (``last``, evt:7)."""
    events = _session(first_cmd, first, last)
    events[5] = {**events[5], "args": {"command": last_cmd}}
    return events


def thirteen_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    pass_fail = _session("go test ./...", GO_PASS, GO_FAIL)  # evt:3 passed, evt:7 failed in shop.io/cart
    fail_fail = _session("go test ./...", GO_FAIL, GO_FAIL)
    fail_pass = _session("go test ./...", GO_FAIL, GO_PASS)
    return [
        # 1. a citation is not a statement
        (d, "go: the failing run named and cited, nothing said of how it went",
         _c("c-d1", pass_fail, "Ran `go test ./...` after the edit (evt:7).")),
        (d, "go: the failing run only in the sources list, the text silent on it (e-d2's shape)",
         _c("c-d2", pass_fail, "Edited the discount rule; the next step is the API docs.")),
        (d, "go: 'The edit fixed the discount bug (evt:7).' citing the failing run",
         _c("c-d3", pass_fail, "The edit fixed the discount bug (evt:7).")),
        (d, "go: '修改后折扣测试已经通过（evt:7）。' citing the failing run",
         _c("c-d4", pass_fail, "修改后折扣测试已经通过（evt:7）。")),
        (d, "go: both failing runs cited as 'looked at', neither said to fail",
         _c("c-d5", fail_fail, "Looked at the test output (evt:3, evt:7) and tidied the cart code.",
            sources=("evt:1", "evt:3", "evt:7"))),
        (f, "go: 'go test ./... still fails in shop.io/cart (evt:7).'",
         _c("c-f1", pass_fail, "`go test ./...` still fails in shop.io/cart (evt:7).")),
        (f, "go: 'evt:7: TestDiscount is still red after the edit.'",
         _c("c-f2", pass_fail, "evt:7: TestDiscount is still red after the edit.")),
        (f, "go: 'The last run (evt:7) is unresolved: the discount test does not pass yet.'",
         _c("c-f3", pass_fail, "The last run (evt:7) is unresolved: the discount test does not pass yet.")),
        (f, "go: '最后一次运行（evt:7）仍然失败，未解决。'",
         _c("c-f4", pass_fail, "最后一次运行（evt:7）仍然失败，未解决。")),
        (f, "go: 'After the edit the run at evt:7 broke again in shop.io/cart.'",
         _c("c-f5", pass_fail, "After the edit the run at evt:7 broke again in shop.io/cart.")),
        (f, "go: the failure among the unresolved markers, the text silent on it",
         _c("c-f6", pass_fail, "Edited the discount rule.", unresolved=("TestDiscount fails (evt:7)",))),
        # 2. counts in words
        (d, "go: 'Both packages pass after the edit (evt:7).' over 1 ok, 1 FAIL, 1 without tests",
         _c("w-d1", pass_fail, "Both packages pass after the edit (evt:7).")),
        (d, "go: 'All three packages pass (evt:7).' over 1 ok, 1 FAIL, 1 without tests",
         _c("w-d2", pass_fail, "All three packages pass (evt:7).")),
        (d, "go: '两个包都通过了（evt:7）。' over 1 ok, 1 FAIL, 1 without tests",
         _c("w-d3", pass_fail, "两个包都通过了（evt:7）。")),
        (d, "go: 'All four packages pass (evt:7).' over 3 ok and 1 without tests",
         _c("w-d4", _session("go test ./...", GO_FAIL, GO_THREE_OK), "All four packages pass (evt:7).")),
        (f, "go: 'Both packages with tests pass now (evt:7); shop.io/cmd has no test files.'",
         _c("w-f1", fail_pass, "Both packages with tests pass now (evt:7); shop.io/cmd has no test files.")),
        (f, "go: '两个包都通过了（evt:7）；shop.io/cmd 没有测试文件。' over 2 ok",
         _c("w-f2", fail_pass, "两个包都通过了（evt:7）；shop.io/cmd 没有测试文件。")),
        (f, "go: 'After the edit all three packages pass (evt:7).' over 3 ok and 1 without tests",
         _c("w-f3", _session("go test ./...", GO_FAIL, GO_THREE_OK), "After the edit all three packages pass (evt:7).")),
        (f, "go: 'One package still fails (shop.io/cart, evt:7); the other passes.'",
         _c("w-f4", pass_fail, "One package still fails (shop.io/cart, evt:7); the other passes.")),
        # 3. a run that ran no tests is no pass
        (d, "go: './cart/' failed, then printed '[no test files]': '`go test ./cart/` passes now (evt:7).'",
         _c("z-d1", _session("go test ./cart/", GO_CART_FAIL, GO_CART_NONE), "`go test ./cart/` passes now (evt:7).")),
        (d, "pytest: test_cart.py failed, then 'no tests ran': 'pytest passes now (evt:7).'",
         _c("z-d2", _session("pytest tests/test_cart.py", PY_FAIL_CART, PY_NONE), "pytest passes now (evt:7).")),
        (d, "cargo: 'cargo test discount' failed, then ran 0 tests: 'cargo test discount passes now (evt:7).'",
         _c("z-d3", _session("cargo test discount", CARGO_FAIL, CARGO_NONE), "`cargo test discount` passes now (evt:7).")),
        (d, "jest: cart.test.js failed, then 'No tests found': 'The cart tests pass now (evt:7).'",
         _c("z-d4", _session("npx jest --passWithNoTests src/cart.test.js", JEST_FAIL_CART, JEST_NONE),
            "The cart tests pass now (evt:7).")),
        (d, "go: both runs failed (1 ok, 1 without tests each): 'After the edit 2 packages pass.'",
         _c("z-d5", fail_fail, "After the edit 2 packages pass.")),
        (d, "pytest: test_cart.py failed, then 'no tests ran': 'All 6 tests pass (evt:7).'",
         _c("z-d6", _session("pytest tests/test_cart.py", PY_FAIL_CART, PY_NONE), "All 6 tests pass (evt:7).")),
        (f, "go: the '[no test files]' run said, the failure said open",
         _c("z-f1", _session("go test ./cart/", GO_CART_FAIL, GO_CART_NONE), "`go test ./cart/` now reports no test "
            "files (evt:7): the cart test file is gone, so nothing ran; TestDiscount's failure (evt:3) is unresolved.")),
        (f, "pytest: 'no tests ran' said, test_discount said open",
         _c("z-f2", _session("pytest tests/test_cart.py", PY_FAIL_CART, PY_NONE), "pytest collected no tests at evt:7 "
            "(no tests ran); test_discount failed at evt:3 and is unresolved.")),
        (f, "cargo: '0 tests ran' said, cart::discount said open",
         _c("z-f3", _session("cargo test discount", CARGO_FAIL, CARGO_NONE), "`cargo test discount` ran 0 tests at "
            "evt:7 (all filtered out); cart::discount failed at evt:3, unresolved.")),
        # 4. retried runs
        (d, "go: failed, retried with -count=1, failed again: 'The retry passed (evt:7).'",
         _c("r-d1", _two("go test ./...", GO_FAIL, "go test -count=1 ./...", GO_FAIL), "The retry passed (evt:7).")),
        (d, "go: failed, retried with -run TestTotal (passed): 'The retry passed, so all tests pass (evt:7).'",
         _c("r-d2", _two("go test ./...", GO_FAIL, "go test -run TestTotal ./...", GO_PASS),
            "The retry passed, so all tests pass (evt:7).")),
        (f, "go: failed once, the same command passed on retry, both said",
         _c("r-f1", fail_pass, "`go test ./...` failed once (evt:3) and passed on retry (evt:7).")),
        (f, "go: failed once, the same command passed on retry: 'The retry passed (evt:7).'",
         _c("r-f2", fail_pass, "The retry passed (evt:7).")),
        # 5. partial runs
        (d, "pytest: failed in test_api.py, only test_cart.py re-ran: 'Both test files pass (evt:7).'",
         _c("p-d1", _two("pytest", PY_FAIL_API, "pytest tests/test_cart.py", PY_CART_OK), "Both test files pass (evt:7).")),
        (d, "go: './...' failed in api, only './cart/' re-ran: 'All three packages pass (evt:7).'",
         _c("p-d2", _two("go test ./...", GO_FAIL_API, "go test ./cart/", GO_CART_OK), "All three packages pass (evt:7).")),
        (f, "go: './...' failed in api, './cart/' re-ran and passed, both said",
         _c("p-f1", _two("go test ./...", GO_FAIL_API, "go test ./cart/", GO_CART_OK), "The one package re-run, "
            "shop.io/cart, passes (evt:7); shop.io/api still fails (evt:3).")),
        # 6. runs in another directory
        (d, "jest: failed in web/, then passed in api/: 'The jest suite passes now (evt:7).'",
         _c("d-d1", _two("cd web && npx jest", JEST_FAIL_CART, "cd api && npx jest", JEST_API_OK),
            "The jest suite passes now (evt:7).")),
        (d, "go: failed in api/, then passed in cart/: 'go test ./... passes now (evt:7).'",
         _c("d-d2", _two("cd api && go test ./...", GO_FAIL_API, "cd cart && go test ./...", GO_CART_OK),
            "go test ./... passes now (evt:7).")),
        (f, "go: failed in api/, the same run in api/ passed after the fix",
         _c("d-f1", _two("cd api && go test ./...", GO_FAIL_API, "cd api && go test ./...", GO_PASS),
            "go test ./... in api passes after the fix (evt:7).")),
        (f, "jest: failed in web/, passed in api/, both said",
         _c("d-f2", _two("cd web && npx jest", JEST_FAIL_CART, "cd api && npx jest", JEST_API_OK),
            "In api/ jest passes (evt:7); web/'s cart test still fails (evt:3).")),
        # 7. a citation of the wrong run
        (d, "go: passed at evt:3, failed at evt:7: 'All tests pass (evt:3).'",
         _c("x-d1", pass_fail, "All tests pass (evt:3).")),
        (d, "go: failed at evt:3 and evt:7: 'The failure at evt:3 was fixed; tests pass (evt:7).'",
         _c("x-d2", fail_fail, "The failure at evt:3 was fixed; tests pass (evt:7).")),
        (d, "go: passed at evt:3, failed at evt:7: 'After the edit 2 packages pass (evt:3).'",
         _c("x-d3", pass_fail, "After the edit 2 packages pass (evt:3).")),
        (f, "go: failed at evt:3, passed at evt:7, both said",
         _c("x-f1", fail_pass, "`go test ./...` failed at evt:3 (TestDiscount) and passes after the edit (evt:7).")),
        (f, "go: passed at evt:3, failed at evt:7: the earlier count and the later failure said",
         _c("x-f2", pass_fail, "Before the edit 2 packages passed (evt:3); after it shop.io/cart fails (evt:7), "
            "unresolved.")),
        (f, "go: failed at evt:3 and evt:7: 'The run at evt:7 fails like the one at evt:3: TestDiscount, unresolved.'",
         _c("x-f3", fail_fail, "The run at evt:7 fails like the one at evt:3: TestDiscount, unresolved.")),
        # Hand probes written after the first rules of this round, labelled before either tree judged them.
        (d, "go: '- go test ./... (evt:7): done' over a failing evt:7",
         _c("hp-d1", pass_fail, "\n- go test ./... (evt:7): done")),
        (d, "go: 'Nothing failed (evt:7).' over a failing evt:7", _c("hp-d2", pass_fail, "Nothing failed (evt:7).")),
        (d, "go: 'The failure at evt:7 was fixed.' over an unresolved evt:7",
         _c("hp-d3", pass_fail, "The failure at evt:7 was fixed.")),
        (d, "go: 'All 2 packages with tests pass (evt:7).' over 1 ok, 1 FAIL, 1 without tests",
         _c("hp-d4", pass_fail, "All 2 packages with tests pass (evt:7).")),
        (d, "unittest: failed, then 'Ran 0 tests … OK': '`python -m unittest tests.test_cart` passes now (evt:7).'",
         _c("hp-d5", _session("python -m unittest tests.test_cart", UNITTEST_FAIL, "Ran 0 tests in 0.000s\n\nOK"),
            "`python -m unittest tests.test_cart` passes now (evt:7).")),
        (d, "go: '-run TestDiscount' failed, then '[no tests to run]': 'TestDiscount passes now (evt:7).'",
         _c("hp-d6", _session("go test -run TestDiscount ./cart/", GO_CART_FAIL,
                              "ok  \tshop.io/cart\t0.005s [no tests to run]"), "TestDiscount passes now (evt:7).")),
        (f, "go: 'evt:7 — go test ./... FAILED in shop.io/cart; not fixed yet.'",
         _c("hp-f1", pass_fail, "evt:7 — go test ./... FAILED in shop.io/cart; not fixed yet.")),
        (f, "go: 'Both packages pass (evt:7).' over 2 ok and 1 without tests, the failure at evt:3 resolved",
         _c("hp-f2", fail_pass, "Both packages pass (evt:7).")),
        (f, "go: '两个测试都失败了（evt:7），未解决。' over two --- FAIL lines",
         _c("hp-f3", _session("go test ./...", GO_PASS, GO_TWO_FAILED), "两个测试都失败了（evt:7），未解决。")),
        (f, "go: a filter that matched nothing said, the failure said open",
         _c("hp-f4", _session("go test -run TestDiscount ./cart/", GO_CART_FAIL,
                              "ok  \tshop.io/cart\t0.005s [no tests to run]"),
            "`go test -run TestDiscount ./cart/` ran no tests at evt:7; TestDiscount's failure (evt:3) stays open.")),
        (f, "go: the failure named in one sentence, the citation in the next",
         _c("hp-f5", pass_fail, "TestDiscount fails after the edit. See evt:7.")),
    ]


__all__ = ["thirteen_cases"]
