"""Filing a request for a target another pending request already names says so (review-15).

D on an event already in a pending request, or ``request-deletion`` run twice, filed a second
request without a word; carrying out the first left the second to say "deleted 0 cop(ies)". It
is still filed (two people may ask for the same thing), and the CLI, ``--json``
(``also_pending``) and the app's notice name the other request."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from inspector.cli.main import cli
from tests.test_request_deletion import _store


def _file(store: Path, *targets: str, as_json: bool = False) -> str:
    done = CliRunner().invoke(cli, ["request-deletion", str(store), "--session", "s1", *targets, "--reason", "asked",
                                    "--reviewer", "bob", *(["--json"] if as_json else [])])
    assert done.exit_code == 0, done.output
    return done.stdout


def test_a_target_already_pending_is_named(tmp_path: Path) -> None:
    store = _store(tmp_path)
    assert "also in pending" not in _file(store, "evt:2")
    text = _file(store, "evt:2", "evt:3")
    assert "  ! evt:2 is also in pending request del-1: carrying out either removes it" in text
    assert json.loads(_file(store, "evt:2", as_json=True))["also_pending"] == {"evt:2": ["del-1", "del-2"]}
