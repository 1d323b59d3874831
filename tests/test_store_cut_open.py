"""A store file cut at a page boundary, opened by any command (store-fault-six).

SQLite refuses such a file ("database disk image is malformed"), and every command but
``verify`` said ``not_a_store``: "… is not a readable store: database disk image is
malformed" — no hint that the file is a store that lost its tail, nor what to do. Now the
open says ``damaged_store``: the file was cut short (its length against its header's page
count, store/file_length.py, as verify reads it) and to restore it from a copy. The file is
left as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


@pytest.mark.parametrize("command", ["sessions", "accept"])
def test_a_store_cut_at_a_page_boundary_is_said_to_be_cut_short(sample_store: Path, command: str) -> None:
    page = int.from_bytes(sample_store.read_bytes()[16:18], "big")
    os.truncate(sample_store, sample_store.stat().st_size - 3 * page)
    before = hashlib.sha256(sample_store.read_bytes()).hexdigest()
    args = {"sessions": ["sessions", str(sample_store)],
            "accept": ["accept", str(sample_store), "cand-good", "--reviewer", "lin"]}[command]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 3, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "damaged_store", error
    assert "cut short" in error["message"] and "restore it from a copy" in error["message"], error
    assert hashlib.sha256(sample_store.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in sample_store.parent.iterdir() if p.name.startswith(sample_store.name)) == [
        sample_store.name]
