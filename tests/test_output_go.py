"""Go's test output counted (domain/output_go.py): "all 12 packages pass" and "3 tests failed" over
``ok``/``FAIL``/``--- FAIL:`` lines were never compared with anything (verdict-ten #3)."""

from __future__ import annotations

import pytest

from inspector.domain.said_output_numbers import ToolRun, output_misstated

OUT = ("--- FAIL: TestDiscount (0.00s)\n    --- FAIL: TestDiscount/ten (0.00s)\n--- FAIL: TestTax (0.00s)\nFAIL\n"
       "FAIL\tshop.io/cart\t0.012s\nok  \tshop.io/api\t2.268s\nok  \tshop.io/tax\t(cached)\n"
       "?   \tshop.io/cmd\t[no test files]\nFAIL")
VERBOSE = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- PASS: TestB (0.00s)\nok  \tshop.io/x\t0.1s"


@pytest.mark.parametrize(("text", "wrong"), [
    ("2 packages pass and 1 fails.", False),
    ("3 packages pass.", True),  # two ok lines and one without test files: that one passed nothing (verdict-thirteen)
    ("4 packages pass.", True),
    ("All 3 packages pass.", True),  # a FAIL line: not all
    ("1 package failed.", False),
    ("2 packages failed.", True),
    ("2 tests failed: TestDiscount and TestTax.", False),
    ("3 tests failed.", False),  # with the subtest: either count agrees
    ("4 tests failed.", True),
    ("1 test failed.", True),
    ("2 of 3 packages pass.", False),
    ("2 of 5 packages pass.", True),
    ("2 个包通过，1 个包失败。", False),
    ("3 个包全部通过。", True),
    ("40 tests passed.", False),  # no -v: the run did not say how many passed; not judged
])
def test_go_counts_are_compared(text: str, wrong: bool) -> None:
    got = output_misstated(text, [ToolRun(7, "go test ./...", OUT, True)])
    assert bool(got) is wrong, (text, got)


def test_a_verbose_run_says_how_many_passed() -> None:
    run = [ToolRun(7, "go test -v ./...", VERBOSE)]
    assert not output_misstated("2 tests passed.", run)
    [m] = output_misstated("5 tests passed.", run)
    assert m.words == ("5 tests passed",) and "2 “--- PASS:” test lines" in m.said and "evt:7" in m.said


def test_a_package_whose_filter_matched_no_test_passed_nothing() -> None:
    """``ok  pkg 0.005s [no tests to run]`` (a -run that matched nothing) is no passing package (verdict-thirteen)."""
    run = [ToolRun(7, "go test -run TestX ./cart/", "ok  \tshop.io/cart\t0.005s [no tests to run]")]
    [m] = output_misstated("1 package passes (evt:7).", run)
    assert "0 “ok”" in m.said and "1 package that ran no test" in m.said
