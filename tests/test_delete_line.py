"""``delete``'s first line counts as a person does (review-15; merged with main's "deleted all N … with them").

It said "deleted 9 cop(ies) for del-1: 1 event, 1 summary, 7 candidate, 1 material_bytes",
and for a request whose targets an earlier one had removed, "deleted 0 cop(ies) for del-2: "
with nothing after the colon."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_request_deletion import _store


def _run(*args: str) -> str:
    done = CliRunner().invoke(cli, [*args, "--reviewer", "bob"])
    assert done.exit_code == 0, done.output
    return done.stdout.splitlines()[0]


def test_plurals_and_a_request_whose_targets_were_gone(tmp_path: Path) -> None:
    store = str(_store(tmp_path))
    _run("request-deletion", store, "--session", "s1", "evt:2", "evt:3", "--reason", "asked")
    _run("request-deletion", store, "--session", "s1", "evt:2", "--reason", "asked again")
    assert _run("delete", store, "del-1").startswith("deleted all 7 copies `deletion` lists for del-1: 2 events, "
                                                     "1 material's bytes; with them ")
    assert _run("delete", store, "del-2").startswith("deleted nothing for del-2: its targets were gone already")
