"""A huge event is read by the fact rules in its head and tail only (inspector/domain/facts_window.py).

A 30 MB log pasted as one message kept the import busy 42 s and 3.8 GB proposing facts from text
nobody typed (new-user-15): the rules now read its first and last characters, where a person's own
words sit around a paste, and every event under the bound exactly as before.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspector.domain import facts, facts_window
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.logevents import LogEvent
from inspector.services.importing import import_file

FILLER = "2026-01-06T14:55:20Z INFO req=1672798 user=mubcrdls latency=59ms status=500; "


def _message(seq: int, text: str) -> LogEvent:
    return LogEvent(seq=seq, kind="user_message", trust="user", content=text)


def _paste(middle: str) -> str:
    """A paste of ~200,000 characters with ``middle`` at its centre, the user's words around it."""
    half = FILLER * (100_000 // len(FILLER))
    return "Please look at this log.\n\n" + half + "\n\n" + middle + "\n\n" + half + "\n\nNever restart the prod database."


def _values(found: list[facts.ProposedFact], kind: str) -> list[str]:
    return [f.value for f in found if f.kind == kind]


def test_a_huge_message_of_own_words_is_read_in_its_head_and_tail() -> None:
    """Prose the rules cannot tell from the user's own words is read in its head and tail, as
    before; the rule in its middle is not read (drift says so: said_in_part)."""
    half = "We went over the export timeout again and agreed to look at it later. " * 1400
    text = "Please read my notes.\n\n" + half + "\n\nNever delete the backups.\n\n" + half + "\n\nNever restart the prod database."
    found = facts.extract([_message(1, "Fix the export timeout."), _message(2, text)])
    constraints = " ".join(_values(found, "constraint"))
    assert "restart the prod database" in constraints  # the user's rule after the paste: in the tail
    assert "delete the backups" not in constraints  # deep inside 200,000 characters of prose: not read


def test_a_rule_between_two_halves_of_a_pasted_log_is_read() -> None:
    """A log paste (here one line of records) around the user's rule: every own-words paragraph is
    read whatever the paste's size (flow-19: facts_own_words); before, only the head and tail were."""
    text = _paste("Never delete the backups.")
    found = facts.extract([_message(1, "Fix the export timeout."), _message(2, text)])
    constraints = " ".join(_values(found, "constraint"))
    assert "restart the prod database" in constraints and "delete the backups" in constraints


def test_the_window_keeps_both_ends_and_cuts_no_sentence_across() -> None:
    text = _paste("x")
    cut = facts_window.window(text)
    assert len(cut) == facts_window.HEAD + len(facts_window.CUT) + facts_window.TAIL
    assert cut.startswith(text[: facts_window.HEAD]) and cut.endswith(text[-facts_window.TAIL :])
    assert facts_window.CUT in cut


def test_an_event_under_the_bound_is_read_whole_and_not_copied() -> None:
    text = "Never restart prod. " * ((facts_window.WHOLE_BELOW - 1) // 20)
    events = [_message(1, text)]
    assert facts_window.windowed(events)[0] is events[0]
    assert facts_window.window(text) == text


def test_a_followed_session_reads_a_huge_event_as_the_import_does() -> None:
    events = [_message(1, "Fix the export timeout."), _message(2, _paste("Never delete the backups."))]
    running = RunningExtraction.of(events[:1])
    running.feed(events[1:])
    assert [(f.key, f.value) for f in running.facts()] == [(f.key, f.value) for f in facts.extract(events)]


async def test_an_import_says_which_event_was_read_in_part(tmp_path: Path) -> None:
    base = {"isSidechain": False, "sessionId": "s-paste", "cwd": "/x", "version": "2.0.76"}
    recs = [{**base, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2026-01-06T14:55:06Z",
             "message": {"role": "user", "content": "Fix the export timeout."}},
            {**base, "parentUuid": "u1", "type": "user", "uuid": "u2", "timestamp": "2026-01-06T14:55:07Z",
             "message": {"role": "user", "content": _paste("Never delete the backups.")}}]
    src = tmp_path / "a.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in recs))
    report = await import_file(src, tmp_path / "s.db", actor="t")
    [said] = [p for p in report.problems if p.code == facts_window.READ_IN_PART]
    # its own words were read whole, around the paste (flow-19): the note says what was not read
    assert (said.seq, said.line) == (2, 2) and "from all its own words" in said.message
    assert "characters of log or code between them not read" in said.message
