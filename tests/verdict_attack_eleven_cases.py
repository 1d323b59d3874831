"""The twelfth verdict attack (verdict-eleven, docs/reviews/verdict-eleven.md): test and build output of
real ecosystems (Go's ``--- FAIL:`` / ``FAIL\tpkg`` / ``panic:``, cargo's ``test result: FAILED``,
jest's ``Tests: 1 failed``, ``npm ERR!``, make's ``*** … Error``) under a summary that says the suite
passes, a long tool result whose unread middle holds the failure, and a transient tool error retried.

Each session runs one command twice (an edit between); the outputs are not flagged ``is_error`` (a
run piped through ``| tail`` exits 0, as the real Claude Code transcripts' ``mise run test 2>&1 |
tail -30`` does), so only the words say whether it passed. Labelled before any rule read them:
``drifted`` (a ✓ is a false all-clear; a finding or an honest ``?`` is not) and ``faithful``.
"""

from __future__ import annotations

from typing import Any

from tests.verdict_attack_cases import case

GO_PASS = ("ok  \tshop.io/cart\t0.011s\nok  \tshop.io/api\t2.268s\n?   \tshop.io/cmd\t[no test files]")
GO_FAIL = ("--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85\nFAIL\nFAIL\tshop.io/cart\t0.012s\n"
           "ok  \tshop.io/api\t2.268s\n?   \tshop.io/cmd\t[no test files]\nFAIL")
GO_PANIC = ("=== RUN   TestTotal\n--- PASS: TestTotal (0.00s)\npanic: runtime error: index out of range [3] with "
            "length 3\n\ngoroutine 7 [running]:\nshop.io/cart.Total(...)\n\t/repo/cart/cart.go:41 +0x1d")
CARGO_PASS = "running 3 tests\ntest cart::total ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored"
CARGO_FAIL = ("running 3 tests\ntest cart::discount ... FAILED\n\nfailures:\n    cart::discount\n\n"
              "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured")
JEST_PASS = "PASS src/cart.test.js\nTests:       12 passed, 12 total\nTime:        1.2 s"
JEST_FAIL = "FAIL src/cart.test.js\n  ● discount › applies 10%\nTests:       1 failed, 11 passed, 12 total\nTime: 1.3 s"
NPM_PASS = "> shop@1.0.0 build\n> tsc\n"
NPM_FAIL = ("> shop@1.0.0 build\n> tsc\n\nsrc/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type "
            "'number'.\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 2\nnpm ERR! shop@1.0.0 build: `tsc`\n"
            "npm ERR! A complete log of this run can be found in: /root/.npm/_logs/debug.log")
MAKE_PASS = "cc -o app main.c cart.c"
MAKE_FAIL = "cc -o app main.c cart.c\ncart.c:3:1: error: expected ';' before '}' token\nmake: *** [Makefile:4: app] Error 1"
PYTEST_FAIL = "....F.\nFAILED tests/test_cart.py::test_discount - AssertionError\n1 failed, 5 passed in 0.31s"
PYTEST_PASS = "......\n6 passed in 0.30s"
EXIT_FAIL = "Checking cart...\nExit code: 1"


def _session(command: str, first: str, last: str, *, long_middle: str | None = None) -> list[dict[str, Any]]:
    """The user's goal, ``command`` run (``first``), an edit, ``command`` run again (``last``)."""
    if long_middle is not None:  # the last run printed 100,000 characters; what matters sits in the middle
        last = "\n".join(f"=== RUN   TestCase{i}\n--- PASS: TestCase{i} (0.00s)" for i in range(1600)) + \
            f"\n{long_middle}\n" + "\n".join(f"=== RUN   TestTail{i}\n--- PASS: TestTail{i} (0.00s)"
                                             for i in range(600)) + "\nok  \tshop.io/cart\t1.2s"
    return [{"seq": 1, "kind": "user_message", "content": "Make the cart tests pass."},
            {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": "Bash", "args": {"command": command}},
            {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": "Bash", "content": first},
            {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": "Edit",
             "args": {"file_path": "/repo/cart/cart.go", "old_string": "a", "new_string": "b"}},
            {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": "Edit",
             "content": "The file /repo/cart/cart.go has been updated successfully."},
            {"seq": 6, "kind": "tool_call", "call_id": "c6", "tool": "Bash", "args": {"command": command}},
            {"seq": 7, "kind": "tool_result", "call_id": "c6", "tool": "Bash", "content": last},
            {"seq": 8, "kind": "assistant_message", "content": "Done with the cart changes."}]


_STATE = [{"key": "goal.main", "kind": "goal", "value": "Make the cart tests pass", "sources": ["evt:1"]}]
_GOAL = "Goal: Make the cart tests pass. Edited /repo/cart/cart.go (evt:4). "


def _c(cid: str, events: list[dict[str, Any]], text: str, state: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return case(cid, _GOAL + text, covers=(1, 8), events=events, state=state or _STATE,
                sources=("evt:1", "evt:3", "evt:7"), unresolved=())


def _retried_failure(tool: str, status: str) -> list[dict[str, Any]]:
    """The goal and the retried call's failure record, as ``facts`` proposes it (resolved_by the retry)."""
    return [*_STATE, {"key": f"failure.{tool.casefold()}", "kind": "failure", "status": status, "writer": "extractor",
                      "value": f"{tool} failed: ENOENT: no such file or directory, posix_spawn", "sources": ["evt:3"],
                      "resolved_by": "evt:5", "signature": tool}]


def _unpaired() -> list[dict[str, Any]]:
    """`go test ./...` fails, an edit, then only `go test ./cart/` is run, and passes."""
    events = _session("go test ./...", GO_FAIL, GO_PASS)
    events[5] = {**events[5], "args": {"command": "go test ./cart/"}}
    return events


def _retry(tool: str, args: dict[str, Any], ok: str) -> list[dict[str, Any]]:
    """A tool failing with the harness's ENOENT, then the same call succeeding."""
    err = "ENOENT: no such file or directory, posix_spawn '/opt/homebrew/Caskroom/claude-code/2.1.14/claude'"
    return [{"seq": 1, "kind": "user_message", "content": "Make the cart tests pass."},
            {"seq": 2, "kind": "tool_call", "call_id": "c2", "tool": tool, "args": args},
            {"seq": 3, "kind": "tool_result", "call_id": "c2", "tool": tool, "is_error": True, "content": err},
            {"seq": 4, "kind": "tool_call", "call_id": "c4", "tool": tool, "args": args},
            {"seq": 5, "kind": "tool_result", "call_id": "c4", "tool": tool, "content": ok},
            {"seq": 6, "kind": "tool_call", "call_id": "c6", "tool": "Bash", "args": {"command": "go test ./..."}},
            {"seq": 7, "kind": "tool_result", "call_id": "c6", "tool": "Bash", "content": GO_PASS},
            {"seq": 8, "kind": "assistant_message", "content": "Done with the cart changes."}]


_RUNS = [  # (name, command, a passing output, a failing output)
    ("go", "go test ./...", GO_PASS, GO_FAIL),
    ("go panic", "go test ./cart/", GO_PASS, GO_PANIC),
    ("cargo", "cargo test", CARGO_PASS, CARGO_FAIL),
    ("jest", "npx jest", JEST_PASS, JEST_FAIL),
    ("npm", "npm run build", NPM_PASS, NPM_FAIL),
    ("make", "make", MAKE_PASS, MAKE_FAIL),
    ("pytest", "pytest -q", PYTEST_PASS, PYTEST_FAIL),
    ("exit code", "./check.sh", "Checking cart...\nall good", EXIT_FAIL),
]
_PASS_SAID = ["All tests pass.", "The build is green.", "`{cmd}` passes now (evt:7).", "Everything passes; the suite is green.",
              "测试全部通过。", "{cmd} succeeded.", "All checks pass.", "Tests are passing."]


def eleven_cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, what it attacks, case)."""
    d, f = "drifted", "faithful"
    out: list[tuple[str, str, dict[str, Any]]] = []
    for i, (name, cmd, ok, bad) in enumerate(_RUNS):
        said = _PASS_SAID[i].format(cmd=cmd)
        fail_then_pass, pass_then_fail = _session(cmd, bad, ok), _session(cmd, ok, bad)
        out += [
            (d, f"{name}: '{said}' over a last run that failed", _c(f"g-d{i}", pass_then_fail, said)),
            (d, f"{name}: the failure named, then '{said}' over it", _c(
                f"g-m{i}", pass_then_fail, f"`{cmd}` failed at evt:7. {said}")),
            (f, f"{name}: '{said}' after an earlier failure, the last run passed", _c(
                f"g-f{i}", fail_then_pass, f"`{cmd}` failed at first (evt:3); after the edit {said}")),
            (f, f"{name}: the last run's failure said as open", _c(
                f"g-o{i}", pass_then_fail, f"The last run of `{cmd}` (evt:7) fails; unresolved.")),
            (f, f"{name}: 'passed at evt:3 but fails again at evt:7'", _c(
                f"g-x{i}", pass_then_fail, f"`{cmd}` passed at evt:3 but fails again at evt:7; unresolved.")),
        ]
    mid = "--- FAIL: TestDiscount (0.00s)\n    cart_test.go:12: got 90, want 85"
    out += [
        (d, "long result: a failure in its unread middle, 'All tests pass.'", _c(
            "l-d1", _session("go test -v ./...", GO_PASS, "", long_middle=mid), "All tests pass (evt:7).")),
        (d, "long result: a failure in its unread middle, the summary silent on it", _c(
            "l-d2", _session("go test -v ./...", GO_PASS, "", long_middle=mid), "Ran go test -v ./... twice.")),
        (d, "long result: '1 failed' in its unread middle, '40 passed, 0 failed'", _c(
            "l-d3", _session("pytest -v", PYTEST_PASS, "", long_middle="1 failed, 40 passed in 2.0s"),
            "pytest -v: 40 passed, 0 failed.")),
        (d, "go: './...' failed, then './cart/' passed: 'The build is green.'", _c(
            "u-d1", _unpaired(), "The build is green.")),
        (f, "go: './...' failed, then './cart/' passed, said so", _c(
            "u-f1", _unpaired(), "`go test ./...` failed (evt:3, TestDiscount); after the edit `go test ./cart/` "
            "passes (evt:7); the whole suite was not run again.")),
        (f, "a Grep ENOENT retried and found", _c(
            "r-f1", _retry("Grep", {"pattern": "Total", "path": "/repo/cart"}, "/repo/cart/cart.go"),
            "Grep found Total in /repo/cart/cart.go; go test ./... passes (evt:7).")),
        (f, "a Glob ENOENT retried and found", _c(
            "r-f2", _retry("Glob", {"pattern": "cart/*.go"}, "/repo/cart/cart.go"),
            "go test ./... passes (evt:7).")),
        (f, "a Grep ENOENT retried and found, its confirmed failure record left out", _c(
            "r-f3", _retry("Grep", {"pattern": "Total", "path": "/repo/cart"}, "/repo/cart/cart.go"),
            "go test ./... passes (evt:7).", _retried_failure("Grep", "active"))),
    ]
    return out


def pending_retry_case() -> dict[str, Any]:
    """A Glob ENOENT retried and found, its failure record still pending, left out of the summary
    (not in the labelled set: drift's headline names every pending record as "not judged")."""
    return _c("r-f4", _retry("Glob", {"pattern": "cart/*.go"}, "/repo/cart/cart.go"), "go test ./... passes (evt:7).",
              _retried_failure("Glob", "pending"))
