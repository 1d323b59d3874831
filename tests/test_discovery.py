"""`inspector sessions --discover`: the transcripts on disk by project, read from prefixes only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from inspector.services import discovery
from tests.test_browser_ui import home  # noqa: F401 - the fixture: a home with the three tools' folders


def discover_json(*args: str) -> dict:
    result = CliRunner().invoke(cli, ["sessions", "--discover", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_discover_lists_every_transcript_by_project_newest_first(home: Path) -> None:  # noqa: F811
    data = discover_json()
    assert data["count"] == 7
    projects = {p["project"]: p["sessions"] for p in data["projects"]}
    assert "/work/codex" in projects
    # the Gemini project is named by its folder hash (no other tool ran in that folder here)
    assert any(name.startswith("gemini project 7e8989f71805") for name in projects)
    claude = [s for p in data["projects"] for s in p["sessions"] if s["tool"] == "claude-code"]
    assert len(claude) == 5
    ends = [s["ended"] for s in claude if s["project"] == "/Users/soph/Work/entire/devenv/cli"]
    assert ends == sorted(ends, reverse=True)
    by_name = {Path(s["path"]).name: s for s in claude}
    first = by_name["4b7d5121b42a-0__manual_compaction_bash_progress_v2.1.14.jsonl"]
    assert first["title"] == "commit this" and first["compactions"] == 1 and first["imported"] is False
    assert first["size"] == os.path.getsize(first["path"])
    assert by_name["ee8f793bfeb9-0__summary_records.jsonl"]["compactions"] == 0


def test_source_option_and_environment_choose_the_folders(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    only_codex = discover_json("--source", str(home / ".codex"))
    assert [s["tool"] for p in only_codex["projects"] for s in p["sessions"]] == ["codex"]
    monkeypatch.setenv("INSPECTOR_SOURCES", os.pathsep.join([str(home / ".gemini"), str(home / ".codex")]))
    both = discover_json()
    assert sorted(s["tool"] for p in both["projects"] for s in p["sessions"]) == ["codex", "gemini"]
    bad = CliRunner().invoke(cli, ["sessions", "--discover", "--source", str(home / "nope")])
    assert bad.exit_code == 3 and "is not a folder" in bad.stderr
    usage = CliRunner().invoke(cli, ["sessions", "x.db", "--discover"])
    assert usage.exit_code == 2


def test_listing_reads_prefixes_and_remembers_them(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    opened: list[tuple[str, int]] = []
    real_open = open

    def counting_open(path, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        handle = real_open(path, mode, *args, **kwargs)
        if "b" in mode and str(path).startswith(str(home)):
            original_read = handle.read

            def read(n: int = -1) -> bytes:
                data = original_read(n)
                opened.append((str(path), len(data)))
                return data

            handle.read = read
        return handle

    monkeypatch.setattr("builtins.open", counting_open)
    found = discovery.discover()
    assert len(found) == 7
    biggest = max(os.path.getsize(f.path) for f in found)
    assert max(n for _, n in opened) <= discovery.MORE_PREFIX_BYTES < biggest  # never a whole large file
    opened.clear()
    assert [f.path for f in discovery.discover()] == [f.path for f in found]
    assert opened == []  # unchanged files: stat only
