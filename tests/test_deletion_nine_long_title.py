"""A session title holding a pasted document is one bounded line of a plain listing (hostile
review nine).

Before: ``inspector sessions`` (and ``search`` across sessions) printed each title whole: a
100,000-character title was one 100,000-character line, and 50,000 zero-width spaces became
450,000 characters of ``⟨U+200B⟩`` — the terminal's scrollback filled with one session. The app's
Sessions panel already cut titles (review seven); the plain CLI now cuts them the same way (160
cells and "…"), and ``--json`` keeps them whole.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import write_sif

AT = "2025-05-01T00:00:00Z"
TITLES = {"pasted": "T" * 100_000, "zero-width flood": "\u200b" * 50_000, "wide": "长" * 50_000,
          "markup and osc 8": ("[b]x[/]\x1b]8;;http://e.example\x1b\\L\x1b]8;;\x1b\\") * 5_000}


@pytest.mark.parametrize("name", sorted(TITLES))
def test_a_huge_title_is_one_bounded_line(tmp_path: Path, name: str) -> None:
    records: list[dict[str, object]] = []
    for sid, title in (("s-huge", TITLES[name]), ("s-other", "the other one")):
        records += [{"type": "session", "id": sid, "title": title, "owner": "o", "created_at": AT},
                    {"type": "event", "session": sid, "seq": 1, "kind": "user_message", "trust": "user", "at": AT,
                     "content": "find the needle"}]
    store = tmp_path / "s.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["import", str(write_sif(tmp_path / "in.jsonl", records)), "--into",
                               str(store)]).exit_code == 0
    for args in (["sessions", str(store)], ["search", str(store), "needle"]):
        out = runner.invoke(cli, args).output
        assert max(len(line) for line in out.splitlines()) < 400, (args, len(out))
        assert "\x1b" not in out and "\u200b" not in out
    listed = runner.invoke(cli, ["sessions", str(store)]).output
    assert "…" in listed and "the other one" in listed
    whole = {s["id"]: s["title"] for s in json.loads(runner.invoke(cli, ["sessions", str(store), "--json"]).stdout)}
    assert whole["s-huge"] == TITLES[name]
