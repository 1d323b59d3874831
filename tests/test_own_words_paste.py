"""A rule typed beside a 5 MB paste is proposed; "?" only when the user's own words were skipped (flow-19).

A user message of 64,000 characters or more was read in its first 48,000 and last 16,000
characters: a rule between two halves of a pasted log (newuser-18 #4) was never proposed, and
drift said ``said_in_part`` over every huge message. Now the message is split into its own words
and its pasted blocks (domain/facts_own_words.py): every own-words paragraph is read, a paste only
at its edges, and ``said_in_part`` is said only when own words were skipped.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain import facts_own_words
from inspector.domain.facts_window import WHOLE_BELOW, window_of

LOG = "2026-01-06T14:55:20Z INFO worker[3]: processed batch 1672798 in 59ms status=200\n"
HALF = LOG * (2_500_000 // len(LOG))  # two halves: a 5 MB paste
SID = "11111111-2222-3333-4444-555555555559"


def _transcript(path: Path, message: str) -> Path:
    """A Claude Code log: a first request, the huge message, then an auto-compaction whose summary
    keeps the first rule and says the second one's opposite."""
    def rec(i: int, typ: str, body: object = None, **extra: object) -> dict[str, object]:
        r: dict[str, object] = {"parentUuid": f"u{i - 1}" if i > 1 else None, "isSidechain": False,
                                "userType": "external", "cwd": "/w", "sessionId": SID, "version": "2.0.76",
                                "type": typ, "timestamp": f"2026-01-07T12:{i:02d}:00.000Z", "uuid": f"u{i}"}
        if body is not None:
            r["message"] = {"role": typ, "content": body}
        return {**r, **extra}

    summary = ("This session is being continued from a previous conversation that ran out of context. The "
               "conversation is summarized below:\nThe user asked to fix the export timeout. Never touch the "
               "production database. We may delete the backups once the export works.")
    records = [rec(1, "user", "Fix the export timeout."), rec(2, "assistant", [{"type": "text", "text": "Looking."}]),
               rec(3, "user", message), rec(4, "assistant", [{"type": "text", "text": "Noted."}]),
               rec(5, "system", subtype="compact_boundary", content="Conversation compacted", isMeta=False,
                   level="info", compactMetadata={"trigger": "auto", "preTokens": 1000}),
               rec(6, "user", summary, isCompactSummary=True)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _imported(tmp_path: Path, message: str) -> Path:
    store = tmp_path / "s.db"
    done = CliRunner().invoke(cli, ["import", str(_transcript(tmp_path / "t.jsonl", message)), "--into", str(store)])
    assert done.exit_code in (0, 1), done.output
    return store


def test_a_rule_between_two_halves_of_a_5_mb_paste_is_proposed_and_judged(tmp_path: Path) -> None:
    message = ("Here is the log of last night's run:\n" + HALF + "Never delete the backups.\n" + HALF
               + "Never touch the production database.")
    store = _imported(tmp_path, message)
    listed = json.loads(CliRunner().invoke(cli, ["facts", str(store), "--session", SID, "--json"]).stdout)
    rules = {f["value"] for f in listed if f["kind"] == "constraint"}
    assert {"Never delete the backups", "Never touch the production database"} <= rules, rules
    run = CliRunner().invoke
    assert run(cli, ["confirm", str(store), "--session", SID, "--all-pending", "--reviewer", "root"]).exit_code == 0
    drift = json.loads(run(cli, ["drift", str(store), "--session", SID, "--json"]).stdout)
    codes = {f["code"] for f in drift["findings"]}
    assert "said_in_part" not in codes, codes  # its own words were all read: no "?" for it
    # the summary permits what the rule said between the halves forbids: judged, not "?"
    assert drift["verdict"] == "failed" and any(f["key"] and "backups" in f["key"] for f in drift["findings"]
                                                if f["severity"] == "finding"), drift["findings"]
    noted = json.loads(run(cli, ["facts", str(store), "--session", SID, "--json", "--with-notes"]).stdout)["notes"]
    assert [n["own_words_read_whole"] for n in noted] == [True]


def test_own_words_past_the_budget_are_said_in_part(tmp_path: Path) -> None:
    """Prose the rules cannot tell from the user's own words, 5 MB of it: read in its head and
    tail, and said so — the rule in its middle is never a ✓."""
    prose = "We went over the export timeout again and agreed to look at it later.\n" * 36_000
    message = "My notes:\n" + prose + "Never delete the backups.\n" + prose + "Never touch the production database."
    store = _imported(tmp_path, message)
    drift = json.loads(CliRunner().invoke(cli, ["drift", str(store), "--session", SID, "--json"]).stdout)
    assert "said_in_part" in {f["code"] for f in drift["findings"]}
    assert drift["verdict"] in ("unknown", "failed") and "no drift found" not in drift["headline"]


def test_the_reading_is_bounded_and_never_read_twice() -> None:
    message = "Look:\n" + HALF + "Never delete the backups.\n" + HALF + "Thanks."
    read = window_of("user_message", message)
    assert len(read) < WHOLE_BELOW and "Never delete the backups." in read  # under the bound: not cut again
    assert window_of("user_message", read) == read
    assert window_of("tool_result", message).startswith(message[:48_000])  # tool output: head and tail, as before


def test_a_lone_log_shaped_line_among_prose_is_the_users_and_a_fence_is_a_paste() -> None:
    filler = "We talked it over.\n" * 10
    lone = "Use port=8080 host=db1 user=admin for the test database.\n"
    fenced = "```\nNever run this in production: rm -rf /data\n```\n"
    message = filler + lone + filler + fenced + filler + "x" * 70_000
    runs = facts_own_words._runs(message)
    pasted = [message[a:b] for a, b, p in runs if p]
    assert all("port=8080" not in p for p in pasted) and any("rm -rf /data" in p for p in pasted)


def test_blank_lines_past_the_budget_are_no_words_skipped() -> None:
    """A message padded with 200,000 line breaks: what the reading leaves out holds no word, so it
    is not said read in part (a "?" over nothing unread)."""
    read = facts_own_words.user_reading("Never delete the backups.\n" + "\n" * 200_000 + "Thanks.")
    assert not read.own_skipped and "Never delete the backups." in read.text and read.text.endswith("Thanks.")
    words = facts_own_words.user_reading("Never delete the backups.\n" + "We talked.\n" * 20_000 + "Thanks.")
    assert words.own_skipped


def test_a_rule_inside_a_log_record_is_read_not_taken_for_paste() -> None:
    """A record that holds a prohibition is read with the user's words, whatever its shape: a run of
    log lines could otherwise hide "never delete the backups" from every rule, with no "?"."""
    message = "Look:\n" + HALF + "2026-01-06T14:55:21Z INFO user=ops never delete the backups status=1\n" + HALF
    read = facts_own_words.user_reading(message)
    assert "never delete the backups" in read.text and not read.own_skipped


def test_a_pretty_printed_json_paste_is_a_paste() -> None:
    doc = json.dumps([{"id": i, "name": f"order {i}", "status": "shipped", "items": [1, 2, 3], "paid": True}
                      for i in range(40_000)], indent=2)
    read = facts_own_words.user_reading("Here is the export:\n" + doc + "\nNever delete the backups.\n")
    assert "Never delete the backups." in read.text and not read.own_skipped


def test_a_pasted_traceback_and_a_pasted_csv_are_pastes() -> None:
    """A traceback's indented code lines and its exception line go with its frames; a CSV's fields
    are tokens: both 5 MB pastes leave the rule after them read, and nothing of the user's skipped."""
    frame = ('Traceback (most recent call last):\n  File "/app/x.py", line 12, in <module>\n    main()\n'
             '  File "/app/x.py", line 8, in main\n    run(batch=500)\nValueError: batch too large\n')
    csv = "id,name,created,amount\n" + "".join(f"{i},order {i},2026-01-{i % 28 + 1:02d},{i * 3.5}\n"
                                              for i in range(150_000))
    for paste in (frame * 30_000, csv):
        read = facts_own_words.user_reading("It failed again:\n" + paste + "Never delete the backups.\n")
        assert "Never delete the backups." in read.text and not read.own_skipped


def test_an_indented_line_of_the_users_among_prose_stays_theirs() -> None:
    message = "My plan:\n  - keep the cache warm\n  - ship on Friday\n" + "We talked it over.\n" * 5_000
    runs = facts_own_words._runs(message)
    assert all(not pasted for _, _, pasted in runs)
