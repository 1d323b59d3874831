"""A proposed fact's key spells no sensitive value, stays unique, and is what it was otherwise.

Ledger entries list keys for good, so a key that spelled an e-mail or a phone number kept it
after the value's deletion (docs/reviews/untrusted-seven.md). The key is made of the value with
each sensitive value, and each run of 7+ digits, replaced by a word (domain/fact_keys.py).
"""

from __future__ import annotations

import hashlib
import re

from inspector.domain.fact_keys import make_key, redact
from inspector.domain.facts import extract
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent


def _user(seq: int, text: str) -> LogEvent:
    return LogEvent(seq, "user_message", "user", text, at=f"2025-01-01T00:00:{seq:02d}Z")


def _events(*later: str) -> list[LogEvent]:
    events = [_user(1, "fix the flaky export test"), LogEvent(2, "assistant_message", "model", "Done.")]
    return events + [_user(3 + i, text) for i, text in enumerate(later)]


def _later(events: list[LogEvent]) -> list[str]:
    return [f.key for f in extract(events) if f.key.startswith("goal.later_request.")]


SENSITIVE = {"zz.keys.private@example.com": "email", "138-0013-8000": "phone", "4111 1111 1111 1111": "card",
             "sk-proj-ABCDEFGHIJKLMNOPQRSTUV": "key", "110101199003071234": "id", "order 98765432": "number",
             "AB 12 34 56 C": "id", "AKIAABCDEFGHIJKLMNOP": "key", "ghp_" + "a1" * 18: "key",
             "xoxb-1234-abcdefghij": "key", "eyJhbGciOiJI.eyJzdWIiOiIx.abcdefghij": "key",
             "1600 Pennsylvania Avenue": "address"}


def test_no_key_spells_a_sensitive_value_but_a_word_for_it() -> None:
    for value, word in SENSITIVE.items():
        keys = _later(_events(f"can you also send {value} to billing?"))
        assert len(keys) == 1 and f"-{word}-" in keys[0], (value, keys)
        digits = re.sub(r"\D", "", value)
        assert not digits or digits[:7] not in re.sub(r"\D", "", keys[0].rsplit(".", 1)[0]), keys
        assert not {"zz-keys", "abcdefghij", "a1a1a1", "pennsylvania"} & set(re.findall(r"zz-keys|abcdefghij|a1a1a1|pennsylvania", keys[0])), keys


def test_the_hash_is_of_the_redacted_value_not_of_the_address() -> None:
    one = _later(_events("can you also cc a.person@example.com on the report?"))
    assert one == [make_key("goal.later_request", "can you also cc \ue000email\ue000 on the report?")]


def test_two_requests_that_differ_only_in_the_address_get_two_keys_in_the_order_they_came() -> None:
    keys = _later(_events("can you also cc a.person@example.com on it?", "can you also cc b.other@example.org on it?"))
    assert len(set(keys)) == 2 and keys[0].rsplit(".", 1)[0] == keys[1].rsplit(".", 1)[0], keys
    first = _later(_events("can you also cc b.other@example.org on it?"))
    assert first == keys[:1]  # the first of its redacted text takes the plain key, whichever address it named


def test_a_value_with_no_sensitive_value_keeps_its_key() -> None:
    assert redact("deploy v2.1.14 on 2026-03-01 to host 10.0.0.1") == "deploy v2.1.14 on 2026-03-01 to host 10.0.0.1"
    old = hashlib.sha256(b"goal.later_request\x00can you also add a single retry?").hexdigest()[:6]  # as before
    assert _later(_events("can you also add a single retry?")) == [f"goal.later_request.can-you-also-add-a-single-retry.{old}"]
    assert "email" in redact("write email@example.com") and redact("write email") == "write email"
    assert make_key("goal", "write email") != make_key("goal", redact("write a@b.com"))  # a word is not a marker


def test_a_followed_session_gives_the_same_keys_as_a_whole_read() -> None:
    events = _events("can you also cc a.person@example.com on it?", "please call 138-0013-8000 first",
                     "can you also cc b.other@example.org on it?")
    running = RunningExtraction.of(events[:3])
    running.feed(events[3:])
    keys = [f.key for f in running.facts()]
    assert keys == [f.key for f in extract(events)]
    assert [k.split(".")[2] for k in keys[1:]] == ["can-you-also-cc-email-on-it", "please-call-phone-first",
                                                   "can-you-also-cc-email-on-it"], keys
