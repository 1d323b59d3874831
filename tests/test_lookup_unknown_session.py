"""An id looked up in a session the store does not hold names the session (review-15).

``delete s.db del-5 --session nope`` said "no deletion request 'del-5' in session 'nope'; it
holds no deletion request at all (one is filed with `inspector request-deletion` …)": the
session was mistyped, yet the sentence sent the reviewer to file a new request. The same for
candidates, handoffs and stubs. Now: "no session 'nope'; the store holds …", as ``candidates``
and every ``--session`` of a missing session says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from inspector.cli.main import cli


@pytest.mark.parametrize("args", [["deletion", "del-1"], ["delete", "del-1", "--reviewer", "bob"],
                                  ["validate", "cand-good"], ["expand", "stub-7", "--reviewer", "bob"]],
                         ids=["deletion", "delete", "validate", "expand"])
def test_a_mistyped_session_is_named(sample_store: Path, args: list[str]) -> None:
    before = sample_store.read_bytes()
    out = CliRunner().invoke(cli, [args[0], str(sample_store), *args[1:], "--session", "s-nope", "--json"])
    assert out.exit_code == 3, out.output
    message = json.loads(out.stdout)["error"]["message"]
    assert message.startswith("no session 's-nope'; the store holds "), message
    assert sample_store.read_bytes() == before
