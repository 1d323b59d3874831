"""A line appended after a deletion of a followed transcript's last events is imported (hostile
review seven).

A Claude Code transcript's events are numbered by the follower from the highest seq stored.
Before: with the last event deleted (``request-deletion evt:4``, ``delete``), the next line the
agent appended was numbered 4 — the deleted event's seq — and the import skipped it as that
deleted record (``deleted_record``): ``follow`` printed nothing, the event was never stored, and
its bytes (an e-mail of the deleted event, written again) sat in the original's new segment,
where no search, listing or later-copy check looked. Now the numbering continues past the
events a deletion removed: the line is event 5, printed, and named as a later copy.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli

SID = "f0110000-0000-0000-0000-000000000001"
MAIL = "zz.follow.private@example.com"


def _user(n: int, text: str) -> str:
    return json.dumps({"type": "user", "sessionId": SID, "uuid": f"u{n}", "parentUuid": f"a{n - 1}" if n else None,
                       "cwd": "/work/f", "timestamp": f"2026-03-01T10:00:{n:02d}.000Z",
                       "message": {"role": "user", "content": text}}) + "\n"


def _assistant(n: int, text: str) -> str:
    return json.dumps({"type": "assistant", "sessionId": SID, "uuid": f"a{n}", "parentUuid": f"u{n}", "cwd": "/work/f",
                       "timestamp": f"2026-03-01T10:00:{n:02d}.500Z",
                       "message": {"id": f"msg{n}", "role": "assistant", "model": "m",
                                   "content": [{"type": "text", "text": text}]}}) + "\n"


def test_a_line_appended_after_the_last_events_were_deleted_is_imported(tmp_path: Path) -> None:
    source, store = tmp_path / f"{SID}.jsonl", tmp_path / "f.db"
    source.write_text(_user(0, "start the report") + _assistant(0, "sure") + _user(1, "thanks")
                      + _assistant(1, f"I will write to {MAIL} now"), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["follow", str(source), "--into", str(store), "--once"]).exit_code == 0
    filed = runner.invoke(cli, ["request-deletion", str(store), "evt:4", "--session", SID, "--reason", "asked",
                                "--reviewer", "r"])
    assert filed.exit_code == 0, filed.output
    done = runner.invoke(cli, ["delete", str(store), "del-1", "--reviewer", "r", "--json"])
    assert done.exit_code == 0 and json.loads(done.stdout)["status"] == "done", done.output

    with source.open("a", encoding="utf-8") as fh:
        fh.write(_user(2, f"also cc {MAIL.upper()} please"))
    result = runner.invoke(cli, ["follow", str(source), "--into", str(store), "--once"])
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(e["seq"], e["content"]) for e in printed] == [(5, f"also cc {MAIL.upper()} please")], result.stdout
    assert "deleted_value_returned" in result.stderr and "event 5 " in result.stderr, result.stderr

    hits = json.loads(runner.invoke(cli, ["search", str(store), MAIL, "--session", SID, "--json"]).stdout)
    assert [h["ref"] for h in hits["hits"]] == ["evt:5"], hits  # stored and findable, not hidden in a segment
    assert runner.invoke(cli, ["verify", str(store)]).exit_code == 0
