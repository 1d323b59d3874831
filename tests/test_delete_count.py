"""`delete` says it removed the copies `deletion` listed, in the same number.

`deletion` counted every copy (the rows, their search-index entries, the request's reason text)
and `delete` only the rows: "7 copies to remove", then "deleted 4", and a script comparing the
two saw three copies unaccounted for (new-user-15)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli


def test_delete_accounts_for_every_copy_the_listing_named(sample_store: Path) -> None:
    listed = CliRunner().invoke(cli, ["deletion", str(sample_store), "del-1", "--json"])
    assert listed.exit_code == 0, listed.output
    copies = json.loads(listed.stdout)["copies"]
    assert len(copies) > 4 and any(c["where"].endswith("_fts") for c in copies)
    done = CliRunner().invoke(cli, ["delete", str(sample_store), "del-1", "--reviewer", "ana", "--json"])
    doc = json.loads(done.stdout)
    assert done.exit_code == 0 and doc["copies"] == len(copies) and doc["removed"] < len(copies)


def test_the_plain_answer_names_what_went_with_the_rows(sample_store: Path) -> None:
    done = CliRunner().invoke(cli, ["delete", str(sample_store), "del-1", "--reviewer", "ana"])
    first = done.stdout.splitlines()[0]
    assert done.exit_code == 0, done.output
    assert first.startswith("deleted all 7 copies `deletion` lists for del-1: ")
    assert "with them 2 search-index entries and 1 reason text now kept only as a keyed digest" in first
