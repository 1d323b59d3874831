"""Numbers a person may type that SQLite's INTEGER cannot hold (review-15).

``correct-summary --generation 99999999999999999999999`` and ``reconcile … --evidence
evt:99999999999999999999999`` (or ``evt:`` and 5,000 digits) ended in a Python traceback
(OverflowError from the driver, ValueError from int()); drift, survival and report already
said the session has no such generation. Now each is the command's usual refusal, with
nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli

BIG = "99999999999999999999999"


def test_correct_summary_of_a_generation_past_sqlite_names_the_ones_held(sample_store: Path,
                                                                          tmp_path: Path) -> None:
    text = tmp_path / "t.txt"
    text.write_text("a corrected summary\n", encoding="utf-8")
    before = sample_store.read_bytes()
    out = CliRunner().invoke(cli, ["correct-summary", str(sample_store), "--session", "s-export", "--generation", BIG,
                                   "--text-file", str(text), "--reason", "r", "--reviewer", "bob", "--json"])
    assert out.exit_code == 3, out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert "its generations" in json.loads(out.stdout)["error"]["message"]
    assert sample_store.read_bytes() == before


@pytest.mark.parametrize("evidence", ["evt:" + BIG, "evt:" + "9" * 5000], ids=["past-int64", "5000-digits"])
def test_reconcile_evidence_past_sqlite_is_evidence_missing(sample_store: Path, evidence: str) -> None:
    out = CliRunner().invoke(cli, ["reconcile", str(sample_store), "a7", "--evidence", evidence, "--status",
                                   "succeeded", "--reason", "checked", "--reviewer", "bob", "--json"])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert out.exit_code == 1, out.output
    assert [r["code"] for r in json.loads(out.stdout)["refusals"]] == ["evidence_missing"]
