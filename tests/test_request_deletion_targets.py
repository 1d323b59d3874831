"""request-deletion's targets as a person may mistype them (review-15).

``evt:１`` (a full-width digit) was filed as written: ``deletion`` then listed event 1 twice
(once as "the target event" under the typed name, once as repeating it), and the request's
targets held a reference no other reader spells. ``evt:`` with more digits than SQLite's
INTEGER holds ended in a traceback (OverflowError), and with 4,301 digits or more in
another (int() of a long string). Each is now ``unknown_target``, exit 3, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_request_deletion import _store


@pytest.mark.parametrize("target", ["evt:１", "evt:٢", "evt:99999999999999999999999", "evt:" + "9" * 5000],
                         ids=["full-width", "arabic-indic", "past-int64", "5000-digits"])
def test_a_target_no_event_has_is_refused_and_nothing_written(tmp_path: Path, target: str) -> None:
    store = _store(tmp_path)
    before = store.read_bytes()
    done = CliRunner().invoke(cli, ["request-deletion", str(store), "--session", "s1", target, "--reason", "r",
                                    "--reviewer", "bob", "--json"])
    assert done.exit_code == 3, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert json.loads(done.stdout)["error"]["code"] == "unknown_target"
    assert store.read_bytes() == before


def test_leading_zeros_still_name_the_event(tmp_path: Path) -> None:
    store = _store(tmp_path)
    done = CliRunner().invoke(cli, ["request-deletion", str(store), "--session", "s1", "evt:0002", "--reason", "r",
                                    "--reviewer", "bob", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["targets"] == ["evt:2"]
