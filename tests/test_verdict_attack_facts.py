"""Prohibitions the fact extractor missed, so survival "kept every fact" of a summary that
dropped them (a false all-clear one step earlier).

Before: "Don’t touch prod." (a typographic apostrophe, as phones and pasted text write it),
"请勿修改配置文件", "No force pushes", "I don't want you to change the schema", "Please
refrain from…", "Stay away from…", "Leave … alone", "Stop editing…", "No more than 3
retries" proposed no constraint. The sentences that are not rules stay out.
"""

from __future__ import annotations

import pytest

from inspector.domain.facts_text import constraints
from inspector.domain.logevents import LogEvent
from inspector.domain.survival import Fact, survival


def _proposed(text: str) -> list[str]:
    ev = [LogEvent.from_record({"seq": 1, "kind": "user_message", "trust": "user", "content": text})]
    return [p.value for p in constraints(ev)]


@pytest.mark.parametrize("text", [
    "Don\u2019t touch prod.", "Please don\u2019t modify the lockfile.", "请勿修改配置文件。", "No force pushes.",
    "No new dependencies.", "I don't want you to change the schema.", "Please refrain from editing vendor/.",
    "Stay away from the prod cluster.", "Leave the tests alone.", "Stop editing the generated files.",
    "No more than 3 retries.",
])
def test_a_prohibition_in_any_of_these_forms_is_proposed(text: str) -> None:
    assert _proposed(text), text


@pytest.mark.parametrize("text", [
    "No, that's not what I meant.", "No worries, take your time.", "No idea why it fails.", "I don't know why.",
    "Stop.", "No problem.", "I don\u2019t think that's right.", "no tests were run yet, right",
    "We stopped the server earlier.",
])
def test_sentences_that_are_not_rules_stay_out(text: str) -> None:
    assert _proposed(text) == [], text


def test_a_summary_that_drops_a_curly_quoted_prohibition_no_longer_keeps_every_fact() -> None:
    (value,) = _proposed("Don\u2019t touch prod.")
    fact = Fact("constraint.prod", "constraint", value, "pending", ("evt:1",), "extractor")
    assert survival(1, "Fixed the export; tests pass.", [], (1, 1), [fact]).verdicts[0].verdict == "missing"
    # and one that keeps it in straight quotes keeps it (the normal form makes quotes plain)
    assert survival(1, "Constraint: Don't touch prod.", [], (1, 1), [fact]).verdicts[0].verdict == "kept"
