"""A store's format number lowered behind the tool (hostile review eight).

``PRAGMA user_version = 5`` on a format-7 store: the next open ran format 6's upgrade over a file
that already held its tables, which failed ("table reasoning_fts already exists", or for 2 "UNIQUE
constraint failed: search_watermark.name"), and verify called it ``damaged_store`` — "its file was
cut short, or its pages or its key were damaged; restore it from a copy" — though no page was
damaged and the fix is the number. Now the open sees that the file already holds what a later format
adds: ``format_number_differs`` names the number and the object (verify: a break, exit 1; every
other command: exit 3), and the file is left byte for byte. Lowered to 6, the number is set right by
the next open (format 7 adds one index, ``IF NOT EXISTS``): said in docs/store-format.md.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


@pytest.mark.parametrize(("number", "holds"), [(5, "reasoning_fts"), (2, "search_watermark"), (1, "events_grams")])
def test_a_lowered_format_number_is_named(sample_store: Path, tmp_path: Path, number: int, holds: str) -> None:
    store = tmp_path / "s.db"
    shutil.copyfile(sample_store, store)
    with sqlite3.connect(store) as con:
        con.execute(f"PRAGMA user_version = {number}")
    con.close()
    before = store.read_bytes()
    verified = CliRunner().invoke(cli, ["verify", str(store), "--json"])
    assert verified.exit_code == 1, verified.output
    problems = json.loads(verified.stdout)["problems"]
    assert [p["code"] for p in problems] == ["format_number_differs"], problems
    assert f"format {number}" in problems[0]["message"] and holds in problems[0]["message"]
    listed = CliRunner().invoke(cli, ["sessions", str(store), "--json"])
    assert listed.exit_code == 3 and json.loads(listed.stdout)["error"]["code"] == "format_number_differs"
    assert store.read_bytes() == before
