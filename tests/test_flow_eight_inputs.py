"""Inputs read wrong (review-15 items 8-10; flow-eight).

A JSON-lines file whose line 1 is cut was said to break on line 2; "hi claude" was proposed as
the session's goal; ``git commit --amend`` left the amended commit proposed as published; and
``gh pr create`` printing "a pull request for branch … already exists: URL" was proposed as a
request this call opened when the result was not marked an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.domain.errors import BadInput
from inspector.domain.facts import extract
from inspector.domain.facts_published import published
from inspector.domain.facts_running import RunningExtraction
from inspector.domain.formats.detect import detect
from inspector.domain.later_requests import greeting
from inspector.domain.logevents import LogEvent


def test_a_cut_first_line_is_named_as_line_1(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"user"\nnot json\n', encoding="utf-8")
    with pytest.raises(BadInput) as raised:
        detect(bad.read_bytes(), bad.name)
    assert raised.value.line == 1 and "line stops inside its object" in raised.value.message
    got = CliRunner().invoke(cli, ["import", str(bad), "--into", str(tmp_path / "s.db")])
    assert got.exit_code == 3 and "line 1:" in got.output and "line 2" not in got.output, got.output
    assert not (tmp_path / "s.db").exists()


def test_a_greeting_naming_the_assistant_is_no_goal() -> None:
    assert greeting("hi claude") and greeting("Hey Gemini!") and not greeting("hi claude, fix the build")
    events = [LogEvent(1, "user_message", "user", "hi claude"),
              LogEvent(2, "assistant_message", "model", "Hello! How can I help?"),
              LogEvent(3, "user_message", "user", "fix the flaky export test")]
    assert [f.value for f in extract(events) if f.kind == "goal"] == ["fix the flaky export test"]


def _pair(seq: int, command: str, output: str, call: str) -> list[LogEvent]:
    return [LogEvent(seq, "tool_call", "model", None, "Bash", call, {"command": command}),
            LogEvent(seq + 1, "tool_result", "tool", output, "Bash", call)]


AMENDED = [*_pair(1, "git commit -m 'feat: a'", "[alex/x 1111111] feat: a\n 1 file changed", "c1"),
           *_pair(3, "git commit --amend --no-edit", "[alex/x 2222222] feat: a\n 2 files changed", "c2")]


def test_an_amend_withdraws_the_commit_it_amends_whole_and_running() -> None:
    assert [p.value for p in published(AMENDED)] == ["2222222"]
    running = RunningExtraction.of(AMENDED[:2])
    running.feed(AMENDED[2:])
    whole = [(f.key, f.value) for f in extract(AMENDED) if f.kind == "evidence_ref"]
    assert whole == [(f.key, f.value) for f in running.facts() if f.kind == "evidence_ref"]
    assert [v for _, v in whole] == ["2222222"]


def test_an_existing_pull_request_is_not_opened_by_the_call() -> None:
    exists = ('a pull request for branch "alex/x" into branch "main" already exists:\n'
              "https://github.com/o/r/pull/85")
    assert published(_pair(1, "gh pr create --fill", exists, "c1")) == []
    opened = published(_pair(1, "gh pr create --fill", "https://github.com/o/r/pull/86", "c1"))
    assert [p.value for p in opened] == ["https://github.com/o/r/pull/86"]
