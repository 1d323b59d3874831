"""A store file cut to nothing (0 bytes) or inside its header (review-14, seen 6).

An empty file at the store's path was taken for no file at all: read commands said "no store at
…" though a file is there, and ``import --into`` made a new store over it (the one trace of the
store a reviewer had, gone). Now every open says it is an empty file — ``damaged_store``, exit 3
(bad input, DESIGN §8) — and nothing is made there. A file cut inside SQLite's 100-byte header
said "not a readable store: database disk image is malformed"; it says it was cut.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.conftest import SAMPLES


def _folder(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


@pytest.mark.parametrize("command", [
    ["sessions", "{store}", "--json"],
    ["verify", "{store}", "--json"],
    ["accept", "{store}", "cand-goal", "--json", "--reviewer", "lin"],
    ["import", str(SAMPLES["01_export_timeout"]), "--into", "{store}", "--json", "--reviewer", "lin"],
])
def test_an_empty_store_file_is_said_empty_and_nothing_is_made_over_it(tmp_path: Path, command: list[str]) -> None:
    store = tmp_path / "s.db"
    store.touch()
    before = _folder(tmp_path)
    result = CliRunner().invoke(cli, [part.format(store=store) for part in command])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "damaged_store" and "is an empty file (0 bytes)" in error["message"]
    assert "no store at" not in error["message"]
    assert _folder(tmp_path) == before  # still the empty file, nothing beside it


def test_a_file_cut_inside_its_header_is_said_cut(sample_store: Path) -> None:
    sample_store.write_bytes(sample_store.read_bytes()[:50])
    result = CliRunner().invoke(cli, ["sessions", str(sample_store), "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "damaged_store" and "cut inside its first page" in error["message"]
